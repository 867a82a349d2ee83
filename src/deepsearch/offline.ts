/**
 * The offline researcher: no model and no network. It turns the question into nls_search terms,
 * follows the code names the question mentions to their definitions, reads the densest matched
 * lines of the best files, names the definition they sit in and where it is used (one or two
 * hops), and writes an extractive answer: which files and functions answer, key lines quoted, every
 * quote a link. A limit reached midway ends the reading, not the answer.
 */
import type { DefinitionSite } from '../model/symbols.js';
import { titleOf, type Brain, type Finding, type ResearchInput } from './brain.js';
import { Citations, quote } from './citations.js';
import { LimitReached, type Ledger } from './ledger.js';
import { calledNamesAsked, densestWindow, enclosingName, planQuestion, questionWords, type QuestionPlan } from './offline-plan.js';
import type { FileHits, ResearchTools } from './tools.js';

const FILES_READ = 3;
const IDENTIFIERS_FOLLOWED = 2;
const LOOK_BACK = 40;
const REFERENCES_SHOWN = 5;
const DEFINITION_QUOTED = 12;

interface Finds {
  readonly lead: string[];
  readonly sections: string[];
  readonly names: string[];
  /** Definitions already shown, by repo, path and line: each is quoted once. */
  readonly shown: Set<string>;
}

const CALLS_FOLLOWED = 2;

const listFiles = (files: readonly FileHits[]): string => files.slice(0, 5).map((f) => `${f.repo}/${f.path}`).join(', ') || 'no files';

async function search(ledger: Ledger, tools: ResearchTools, tool: 'nls_search' | 'keyword_search', query: string): Promise<FileHits[]> {
  return ledger.call(tool, { query }, () => (tool === 'nls_search' ? tools.nls(query) : tools.keyword(query)), listFiles);
}

async function definition(ledger: Ledger, tools: ResearchTools, repo: string, path: string, symbol: string): Promise<DefinitionSite | null> {
  return ledger.call('go_to_definition', { repo, path, symbol }, () => tools.definition(repo, path, symbol), (d) => (d === null ? 'not found' : `${d.kind} ${d.name} at ${d.path}:${d.line}`));
}

function describeDefinition(d: DefinitionSite): string {
  return `${d.kind.toLowerCase()} \`${d.name}\``;
}

/** Identifiers the question names: where each is defined, quoted. */
async function followIdentifiers(input: ResearchInput, plan: QuestionPlan, cites: Citations, finds: Finds): Promise<void> {
  const { ledger, tools } = input;
  for (const identifier of plan.identifiers.slice(0, IDENTIFIERS_FOLLOWED)) {
    const hits = await search(ledger, tools, 'keyword_search', `${plan.scope} \\b${identifier}\\b`.trim());
    const first = hits[0];
    if (first === undefined) continue;
    const found = await definition(ledger, tools, first.repo, first.path, identifier);
    if (found === null) continue;
    finds.shown.add(`${found.repo}/${found.path}:${found.line}`);
    const end = Math.min(found.endLine, found.line + DEFINITION_QUOTED - 1);
    const link = cites.cite(found.repo, found.path, found.commit, found.line, end);
    finds.lead.push(`${describeDefinition(found)} is defined in ${link}`);
    finds.sections.push(`### ${describeDefinition(found)} — ${found.path}\n\n${link}\n\n${quote(found.path, found.line, found.text.split('\n').slice(0, end - found.line + 1))}`);
    finds.names.push(found.name);
  }
}

/** One of the best files: its densest matched lines, the definition they sit in, and (for the first) where that is used. */
async function readFile(input: ResearchInput, file: FileHits, first: boolean, cites: Citations, finds: Finds): Promise<void> {
  const { ledger, tools } = input;
  const window = densestWindow(file);
  if (window === null) return;
  const from = Math.max(1, window.start - LOOK_BACK);
  const args = { repo: file.repo, path: file.path, startLine: from, endLine: window.end };
  const read = await ledger.call('read_file', args, () => tools.read(file.repo, file.path, from, window.end), (r) => (r === null ? 'not readable' : `${r.lines.length} lines`));
  if (read === null || read.lines.length === 0) return;
  const end = Math.min(window.end, from + read.lines.length - 1);
  const quoted = read.lines.slice(window.start - from, end - from + 1);
  const link = cites.cite(file.repo, file.path, read.commit, window.start, end);
  const enclosing = enclosingName(read.lines, window.start - from + Math.floor((end - window.start) / 2));
  const found = enclosing === null ? null : await definition(ledger, tools, file.repo, file.path, enclosing.name);
  const inside = found !== null && found.path === file.path && found.repo === file.repo ? found : null;
  const heading = inside === null ? file.path : `${describeDefinition(inside)} in ${file.path}`;
  const parts = [`### ${heading}`, ''];
  if (inside !== null && inside.line < window.start) {
    parts.push(`Defined at ${cites.cite(inside.repo, inside.path, inside.commit, inside.line, inside.endLine, `${inside.path}:${inside.line}`)}; the matching lines:`, '');
    finds.names.push(inside.name);
  } else if (inside !== null) finds.names.push(inside.name);
  parts.push(link, '', quote(file.path, window.start, quoted));
  finds.lead.push(inside === null ? `${link}` : `${describeDefinition(inside)} (${link})`);
  if (first && inside !== null) parts.push(...(await usages(input, inside, cites)));
  if (inside !== null) finds.shown.add(`${inside.repo}/${inside.path}:${inside.line}`);
  finds.sections.push(parts.join('\n'));
  await followCalls(input, file, quoted, inside?.name ?? null, cites, finds);
}

/** The second hop: a function the quoted lines call and the question names, to its definition. */
async function followCalls(input: ResearchInput, file: FileHits, quoted: readonly string[], self: string | null, cites: Citations, finds: Finds): Promise<void> {
  const plan = planQuestion(input.question, []);
  const names = calledNamesAsked(quoted, questionWords(plan.text), plan.identifiers).filter((n) => n !== self);
  for (const name of names.slice(0, CALLS_FOLLOWED)) {
    const found = await definition(input.ledger, input.tools, file.repo, file.path, name);
    if (found === null || finds.shown.has(`${found.repo}/${found.path}:${found.line}`)) continue;
    finds.shown.add(`${found.repo}/${found.path}:${found.line}`);
    const end = Math.min(found.endLine, found.line + DEFINITION_QUOTED - 1);
    const link = cites.cite(found.repo, found.path, found.commit, found.line, end);
    finds.lead.push(`${describeDefinition(found)}, called there, is defined in ${link}`);
    finds.sections.push(`### ${describeDefinition(found)} — ${found.path}\n\nCalled from ${file.path}; defined at ${link}\n\n${quote(found.path, found.line, found.text.split('\n').slice(0, end - found.line + 1))}`);
    finds.names.push(found.name);
  }
}

async function usages(input: ResearchInput, def: DefinitionSite, cites: Citations): Promise<string[]> {
  const { ledger, tools } = input;
  const refs = await ledger.call('find_references', { repo: def.repo, path: def.path, symbol: def.name, limit: REFERENCES_SHOWN },
    () => tools.references(def.repo, def.path, def.name, REFERENCES_SHOWN), (r) => `${r.length} references`);
  const outside = refs.filter((r) => !(r.path === def.path && r.line >= def.line && r.line <= def.endLine));
  if (outside.length === 0) return [];
  const lines: string[] = ['', `Used from:`];
  for (const ref of outside) {
    const commit = await tools.commitOf(ref.repo);
    if (commit === null) continue;
    lines.push(`- ${cites.cite(ref.repo, ref.path, commit, ref.line, ref.line)} (${ref.container}): \`${ref.text.trim().slice(0, 120)}\``);
  }
  return lines.length > 2 ? lines : [];
}

async function research(input: ResearchInput): Promise<Finding> {
  const { ledger, tools } = input;
  const plan = planQuestion(input.question, input.history.map((h) => h.question));
  const cites = new Citations(input.origin);
  const finds: Finds = { lead: [], sections: [], names: [], shown: new Set() };
  let files: FileHits[] = [];
  try {
    files = await search(ledger, tools, 'nls_search', `${plan.scope} ${plan.text}`.trim());
    const previous = input.history[input.history.length - 1];
    if (files.length === 0 && previous !== undefined) files = await search(ledger, tools, 'nls_search', `${plan.scope} ${planQuestion(previous.question, []).text} ${plan.text}`.trim());
    await followIdentifiers(input, plan, cites, finds);
    const seen = new Set(cites.sources.map((s) => `${s.repo}/${s.path}`));
    let read = 0;
    for (const file of files) {
      if (read >= FILES_READ) break;
      if (seen.has(`${file.repo}/${file.path}`) && read > 0) continue;
      await readFile(input, file, read === 0, cites, finds);
      read++;
    }
  } catch (err) {
    if (!(err instanceof LimitReached) || err.kind === 'canceled') throw err;
    ledger.stoppedBy = err;
  }
  return compose(input, plan, files, cites, finds);
}

function compose(input: ResearchInput, plan: QuestionPlan, files: readonly FileHits[], cites: Citations, finds: Finds): Finding {
  const title = titleOf(plan.text === '' ? input.question : plan.text);
  if (finds.sections.length === 0) {
    const answer = files.length === 0
      ? 'No code in the repositories you can read matched this question. Try naming a function, type or file, or scope it with `repo:`.'
      : `The closest matches were ${listFiles(files)}, but none could be read.`;
    return { title, answer, sources: cites.sources, suggestedFollowups: [] };
  }
  const stopped = input.ledger.stoppedBy === null ? '' : `\n\n_The research stopped early (${input.ledger.stoppedBy.kind} limit); this answer is what it found until then._`;
  const lead = `**In short:** ${finds.lead.slice(0, 4).join('; ')}.`;
  const others = files.slice(FILES_READ, 6).filter((f) => !cites.files.includes(`${f.repo}/${f.path}`));
  const more = others.length === 0 ? '' : `\n\nAlso related: ${others.map((f) => `\`${f.path}\``).join(', ')}.`;
  const names = [...new Set(finds.names)];
  const suggestedFollowups = names.slice(0, 2).flatMap((n) => [`Where is ${n} called?`, `How is ${n} tested?`]).slice(0, 3);
  return { title, answer: `${lead}\n\n${finds.sections.join('\n\n')}${more}${stopped}`, sources: cites.sources, suggestedFollowups };
}

export const offlineResearcher: Brain = { name: 'offline', research };
