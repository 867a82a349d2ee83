/**
 * One task's conversation with the MCP server through the SDK client: every call recorded (tool,
 * arguments, where each argument came from, error flag, characters, estimated tokens, latency), and
 * every argument checked against the source the task claims for it, so that no step can pass a value
 * the agent would have had to guess. It judges no answer; the tasks do.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { nextCall, type NextCall } from './answers.js';

const CHARS_PER_TOKEN = 4;
const EXCERPT_CHARS = 240;

export interface Answer {
  /** 1-based position in the task. */
  readonly step: number;
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly text: string;
  readonly isError: boolean;
}

/** Where an argument's value came from: the task's statement, or an earlier answer of the same task. */
export type Source = 'statement' | Answer;

/** A number the agent adds up from numbers of its sources (a line from an answer plus a window the statement gives). */
export interface Sum {
  readonly sum: readonly { readonly value: number; readonly from: Source }[];
}

type Claim = Source | readonly Source[] | Sum;

export interface StepRecord {
  readonly step: number;
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  /** Per argument: "statement", "step N (tool)" or "next call offered by step N". */
  readonly sources: Readonly<Record<string, string>>;
  readonly isError: boolean;
  readonly chars: number;
  readonly tokens: number;
  readonly ms: number;
  /** The answer's opening, or all of it (up to 4,000 characters) for the step a task failed at. */
  excerpt: string;
}

/** The server's answer did not give what the next step needs, or the final answer disagrees with git. */
export class TaskFailure extends Error {
  constructor(readonly step: number, readonly kind: 'server' | 'wrong answer', message: string) {
    super(message);
  }
}

/** The task script claimed a source that does not hold the value: a bug in the trial, not a finding. */
export class ProvenanceError extends Error {}

/** Query-language words any agent knows from the tool descriptions, never taken from a source. */
const SYNTAX = /^(?:and|or|not|count:all|case:yes|-?(?:repo|file|lang|count|case|rev|type|patterntype):)$/i;

function tokens(value: string): string[] {
  return value.split(/\s+/)
    .filter((t) => !SYNTAX.test(t))
    .map((t) => t.replace(/^-?(?:repo|file|lang|count|case|rev|type|patterntype):/i, '').replace(/\\(.)/g, '$1'))
    // Glob and path separators join words the statement may give apart ("binding", ".go").
    .flatMap((t) => t.split(/[/*]+/))
    .map((t) => t.replace(/^["'^(]+|["'$)]+$/g, ''))
    .filter((t) => t !== '');
}

function holds(source: Source, value: string | number | boolean, statement: string): boolean {
  const text = source === 'statement' ? statement : source.text;
  if (typeof value === 'number') return new RegExp(`(?<![\\d.])${value}(?![\\d])`).test(text);
  if (typeof value === 'boolean') return source === 'statement';
  if (source !== 'statement' && text.includes(value)) return true;
  const haystack = text.toLowerCase();
  return tokens(value).every((t) => haystack.includes(t.toLowerCase()));
}

function leaves(value: unknown): (string | number | boolean)[] {
  if (Array.isArray(value)) return value.flatMap(leaves);
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return [value];
  throw new ProvenanceError(`argument value ${JSON.stringify(value)} is not a string, number, boolean or array of them`);
}

function label(source: Source): string {
  return source === 'statement' ? 'statement' : `step ${source.step} (${source.tool})`;
}

export class TaskRun {
  readonly steps: StepRecord[] = [];

  constructor(private readonly client: Client, readonly statement: string) {}

  /** Calls `tool` with `args`, each argument's value taken from `sources[name]` (checked). */
  async call(tool: string, args: Record<string, unknown>, sources: Readonly<Record<string, Claim>>): Promise<Answer> {
    const labels: Record<string, string> = {};
    for (const [name, value] of Object.entries(args)) {
      const claimed = sources[name];
      if (claimed === undefined) throw new ProvenanceError(`${tool}: no source given for argument ${name}`);
      if (typeof claimed === 'object' && 'sum' in claimed) {
        labels[name] = this.checkSum(tool, name, value, claimed);
        continue;
      }
      const list = Array.isArray(claimed) ? (claimed as readonly Source[]) : [claimed as Source];
      for (const leaf of leaves(value)) {
        if (!list.some((s) => holds(s, leaf, this.statement))) {
          throw new ProvenanceError(`${tool}: argument ${name}=${JSON.stringify(leaf)} is not in ${list.map(label).join(' or ')}`);
        }
      }
      labels[name] = list.map(label).join(' + ');
    }
    return this.send(tool, args, labels);
  }

  private checkSum(tool: string, name: string, value: unknown, claimed: Sum): string {
    const total = claimed.sum.reduce((n, term) => n + term.value, 0);
    const bad = claimed.sum.find((term) => !holds(term.from, term.value, this.statement));
    if (value !== total || bad !== undefined) throw new ProvenanceError(`${tool}: argument ${name}=${JSON.stringify(value)} is not the sum of its claimed terms`);
    return claimed.sum.map((term) => `${term.value} from ${label(term.from)}`).join(' + ');
  }

  /** The next call an answer ends with, exactly as offered; a server failure when it offers none. */
  async follow(answer: Answer, expectedTool = answer.tool): Promise<Answer> {
    const next = this.offered(answer, `the answer ends without a next call for ${expectedTool}`);
    if (next.tool !== expectedTool) this.fail(answer, `the answer's next call is ${next.tool}, not ${expectedTool}`);
    const args = next.sameAs === 'all' ? { ...answer.args, ...next.args } : { ...Object.fromEntries(next.sameAs.map((n) => [n, answer.args[n]])), ...next.args };
    const labels = Object.fromEntries(Object.keys(args).map((n) => [n, `next call offered by step ${answer.step}`]));
    return this.send(next.tool, args, labels);
  }

  /** `first` and every page after it, following each answer's next call until one offers none (at most `maxPages`). */
  async allPages(first: Answer, maxPages = 30): Promise<Answer[]> {
    const pages = [first];
    while (nextCall(pages.at(-1)!.text) !== null && pages.length < maxPages) pages.push(await this.follow(pages.at(-1)!));
    return pages;
  }

  /** The next call an answer offers, or a server failure at that step. */
  offered(answer: Answer, why: string): NextCall {
    const next = nextCall(answer.text);
    return next ?? this.fail(answer, why);
  }

  /** Stops the task: `answer` lacked what the next step needs. */
  fail(answer: Answer, reason: string): never {
    this.steps[answer.step - 1]!.excerpt = answer.text.slice(0, 4000);
    const said = answer.isError ? ` (the answer was the error "${answer.text.trim().slice(0, 300)}")` : '';
    throw new TaskFailure(answer.step, 'server', `${reason}${said}`);
  }

  /** A server failure when `answer` is an error: the step could not do what the task needed of it. */
  answered(answer: Answer, doing: string): void {
    if (answer.isError) this.fail(answer, `${answer.tool} could not ${doing}`);
  }

  /** `value`, or a server failure at `answer` saying what was missing. */
  need<T>(value: T | null | undefined, answer: Answer, missing: string): T {
    if (value === null || value === undefined || (Array.isArray(value) && value.length === 0)) this.fail(answer, missing);
    return value;
  }

  /** The final check against git: a wrong-answer failure at `answer` when it does not hold. */
  check(holdsTrue: boolean, answer: Answer, what: string): void {
    if (holdsTrue) return;
    this.steps[answer.step - 1]!.excerpt = answer.text.slice(0, 4000);
    throw new TaskFailure(answer.step, 'wrong answer', what);
  }

  private async send(tool: string, args: Record<string, unknown>, sources: Record<string, string>): Promise<Answer> {
    const started = performance.now();
    let text: string;
    let isError: boolean;
    try {
      const result = await this.client.callTool({ name: tool, arguments: args });
      const content = (result.content ?? []) as { type: string; text?: string }[];
      text = content.filter((c) => c.type === 'text').map((c) => c.text ?? '').join('\n');
      isError = result.isError === true;
    } catch (error) {
      // A protocol error (-32602 and the like) is what the agent reads instead of an answer.
      text = (error as Error).message;
      isError = true;
    }
    const ms = performance.now() - started;
    const step = this.steps.length + 1;
    this.steps.push({
      step, tool, args, sources, isError, chars: text.length, tokens: Math.ceil(text.length / CHARS_PER_TOKEN), ms,
      excerpt: text.slice(0, EXCERPT_CHARS),
    });
    return { step, tool, args, text, isError };
  }
}
