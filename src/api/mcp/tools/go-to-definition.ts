/**
 * The `go_to_definition` tool (reference §1.4): resolves a symbol used in a file to its definition
 * and shows up to 50 lines of it, in Sourcegraph's text format. Resolution is symbols/navigation's.
 */
import { builtinOwner, findDefinition, parseSymbolName } from '../../../symbols/navigation/definition.js';
import type { DefinitionSite, RankedDefinition } from '../../../symbols/navigation/model.js';
import { AnswerBuilder } from '../answer.js';
import { objectSchema } from '../arguments.js';
import { fileHeader, plural } from '../format.js';
import { ToolError, type ToolDefinition } from '../tool.js';
import { addNumberedLines } from './file-lines.js';
import { FileLines, notFoundAnswer, positionOf, startNavigation, type NavigationArgs } from './nav-origin.js';
import { REPO_ARG, REVISION_ARG } from './common-args.js';
import { COLUMN_ARG, LINE_ARG, NAV_PATH_ARG, SYMBOL_ARG } from './nav-schema.js';

export const DEFINITION_MAX_LINES = 50;
const MAX_ALTERNATIVES = 5;

const DESCRIPTION = `Finds the definition of a symbol used in a file (its scopes and imports, then repositories) and shows up to ${DEFINITION_MAX_LINES} numbered lines of it under "# repo – path"; notes list other candidates (pass line to pick one of several bindings).
Example: {"repo":"github.com/gorilla/mux","path":"mux.go","symbol":"NewRouter"}`;

export const goToDefinitionTool: ToolDefinition<NavigationArgs> = {
  name: 'go_to_definition',
  description: DESCRIPTION,
  inputSchema: objectSchema({
    repo: REPO_ARG,
    path: NAV_PATH_ARG,
    symbol: SYMBOL_ARG,
    revision: REVISION_ARG,
    line: LINE_ARG,
    column: COLUMN_ARG,
  }, ['repo', 'path', 'symbol']),
  async run(args, ctx) {
    const name = parseSymbolName(args.symbol);
    if (name === null) throw new ToolError('"symbol" is empty: pass the name of a function, type, variable or method.');
    const position = positionOf(args);
    const start = await startNavigation(ctx, args);
    const answer = findDefinition(start.resolver, start.origin, name, position);
    if (answer === null) {
      const outside = notFoundAnswer(args.symbol, name.name, start, builtinOwner(start.origin.symbols, name, position));
      if (outside instanceof ToolError) throw outside;
      return { text: outside };
    }
    const { file, definition } = answer.best.site;
    const lines = await new FileLines(ctx).get(file);
    if (lines === null) throw new ToolError(`The definition's file ${file.path} in ${file.repo} can no longer be read; retry once the repository is re-indexed.`);
    const first = definition.range.startLine + 1;
    const last = Math.min(definition.range.endLine + 1, first + DEFINITION_MAX_LINES - 1, lines.length);
    const builder = new AnswerBuilder(ctx.maxAnswerTokens);
    builder.add(`${fileHeader(file.repo, file.path)}\n`);
    const next = addNumberedLines(builder, lines, first, last, builder.remainingChars);
    const notes = [
      next <= last ? `(lines ${next}-${last} of the definition are not shown: the answer budget of ${plural(ctx.maxAnswerTokens, 'token')} is spent; use read_file for them)` : null,
      last < definition.range.endLine + 1 ? `(the definition continues to line ${definition.range.endLine + 1}; use read_file to see the rest)` : null,
      answer.guessedThrough === undefined ? certaintyNote(answer.best, answer.fromUsage) : guessNote(answer.guessedThrough, name.name, answer.alternatives.length),
      bindingsNote(name.name, answer.bindings),
      alternativesNote(answer.alternatives),
      start.revisionNote,
    ].filter((n): n is string => n !== null);
    return { text: builder.finish(notes.length === 0 ? null : notes.join('\n')) };
  },
};

function certaintyNote(best: RankedDefinition, fromUsage: boolean): string | null {
  if (!fromUsage) return '(the file does not mention this name: the definition was found by name alone)';
  switch (best.certainty) {
    case 'repo-exported':
    case 'repo':
      return '(matched by name in the same repository: no import or enclosing scope defines it)';
    case 'other-repo':
      return '(matched by name in another repository: no import or enclosing scope defines it)';
    default:
      return null;
  }
}

/** A member found by its name through a receiver of unknown type: said to be a guess, with how many others are as likely. */
function guessNote(receiver: string, name: string, others: number): string {
  const rest = others === 0 ? '' : `; ${plural(others, 'other definition')} as likely ${others === 1 ? 'is' : 'are'} listed below`;
  return `(a guess: the type of ${receiver} is not written down, so ${name} was matched by name among the repositories' members${rest})`;
}

/** Several local bindings of the name: which one was shown, and how to ask for another. */
function bindingsNote(name: string, bindings: readonly DefinitionSite[]): string | null {
  if (bindings.length === 0) return null;
  const listed = bindings.map((b) => `line ${b.definition.nameRange.startLine + 1}${describeOwner(b)}`);
  return `(${name} is bound ${bindings.length} times in this file: ${listed.join('; ')}. Pass "line" to resolve one occurrence.)`;
}

function describeOwner(site: DefinitionSite): string {
  const owner = site.definition.parent >= 0 ? site.file.symbols.definitions[site.definition.parent] : undefined;
  return owner === undefined ? '' : ` in ${owner.kind} ${owner.name}`;
}

function alternativesNote(alternatives: readonly RankedDefinition[]): string | null {
  if (alternatives.length === 0) return null;
  const shown = alternatives.slice(0, MAX_ALTERNATIVES).map((a) => `${fileHeader(a.site.file.repo, a.site.file.path).slice(2)}:${a.site.definition.nameRange.startLine + 1}`);
  const more = alternatives.length > MAX_ALTERNATIVES ? ` and ${alternatives.length - MAX_ALTERNATIVES} more` : '';
  return `(also: ${shown.join('; ')}${more})`;
}
