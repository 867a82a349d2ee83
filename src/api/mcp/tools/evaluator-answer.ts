/**
 * The evaluator's answer: what the script printed, within the answer budget (cut at a line, with
 * how much was left out), then how the run ended (its error, or the limit that stopped it), calls
 * whose lists were cut, the generated files (attached as embedded resources) and the calls it made.
 * Nothing in it depends on timing, so the same script over the same data answers the same.
 */
import { MAX_OUTPUT_CHARS, type GeneratedFile, type ScriptOutcome } from '../../../sandbox/script-runner.js';
import { AnswerBuilder } from '../answer.js';
import { plural } from '../format.js';
import type { EmbeddedFile, ToolAnswer } from '../tool.js';

/** Room kept for the closing notes. */
const NOTES_RESERVE_TOKENS = 300;
const MAX_TRUNCATED_CALLS_NAMED = 3;

export function evaluatorAnswer(outcome: ScriptOutcome, truncatedCalls: readonly string[], maxAnswerTokens: number): ToolAnswer {
  const builder = new AnswerBuilder(maxAnswerTokens, NOTES_RESERVE_TOKENS);
  const shown = fitOutput(outcome.output, builder.remainingChars);
  builder.add(shown);
  const notes: string[] = [];
  const printedLines = lineCount(outcome.output);
  if (shown.length < outcome.output.length) {
    notes.push(`(output cut to fit the answer budget of ${plural(maxAnswerTokens, 'token')}: showing ${plural(lineCount(shown), 'line')} of ${printedLines}; print less, or write the full result with output.file)`);
  }
  if (outcome.droppedOutputChars > 0) notes.push(`(the script printed ${plural(outcome.droppedOutputChars, 'more character')} after the first ${MAX_OUTPUT_CHARS.toLocaleString('en-US')}, which is all the evaluator keeps)`);
  if (outcome.output === '' && outcome.error === null && outcome.stop === null && outcome.files.length === 0) notes.push('(the script printed nothing: use print(), or return a value)');
  if (outcome.error !== null) notes.push(`Error: ${outcome.error}`);
  if (outcome.stop !== null) notes.push(`Stopped: ${outcome.stop.message}.${outcome.output === '' ? '' : ' The output above is what the script printed until then.'}`);
  if (truncatedCalls.length > 0) notes.push(truncationNote(truncatedCalls));
  if (outcome.files.length > 0) notes.push(`Attached: ${outcome.files.map((f) => `${f.name} (${f.mimeType}, ${plural(f.data.byteLength, 'byte')})`).join(', ')}`);
  notes.push(`(${plural(outcome.searches, 'search', 'searches')}, ${plural(outcome.reads, 'source read')})`);
  return {
    text: builder.finish(notes.join('\n')),
    ...(outcome.error !== null ? { isError: true } : {}),
    ...(outcome.files.length > 0 ? { resources: outcome.files.map(embedded) } : {}),
  };
}

/** The longest start of the output that fits, ending at a line break when one is in reach. */
function fitOutput(output: string, room: number): string {
  if (output.length <= room) return output;
  const cut = output.slice(0, Math.max(0, room));
  const lastBreak = cut.lastIndexOf('\n');
  return lastBreak >= 0 ? cut.slice(0, lastBreak + 1) : cut;
}

function lineCount(text: string): number {
  if (text === '') return 0;
  const breaks = text.split('\n').length - 1;
  return text.endsWith('\n') ? breaks : breaks + 1;
}

function truncationNote(calls: readonly string[]): string {
  const named = calls.slice(0, MAX_TRUNCATED_CALLS_NAMED).join(', ');
  const more = calls.length > MAX_TRUNCATED_CALLS_NAMED ? ` and ${calls.length - MAX_TRUNCATED_CALLS_NAMED} more` : '';
  return `Note: ${plural(calls.length, 'call')} returned lists cut at a limit (their .truncated is true): ${named}${more}. Add count:all to a query, or raise count or limit, for the rest.`;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

function embedded(file: GeneratedFile): EmbeddedFile {
  const uri = `evaluator://output/${encodeURIComponent(file.name)}`;
  try {
    return { uri, mimeType: file.mimeType, text: UTF8.decode(file.data) };
  } catch {
    return { uri, mimeType: file.mimeType, blob: Buffer.from(file.data.buffer, file.data.byteOffset, file.data.byteLength).toString('base64') };
  }
}
