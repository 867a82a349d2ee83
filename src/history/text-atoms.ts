/**
 * Pattern atoms over a list of short texts (commit fields, repository names): atoms that are plain
 * text are answered on this thread with string operations, the others by the worker pool, so this
 * thread never runs a user's regular expression (whose backtracking could hold it for hours).
 */
import { createError } from '../errors.js';
import { packTexts, type TextBatch, type TextMatchJob, type TextMatches } from './text-batch.js';
import { matchesPlain, plainRanges, type RegexPlan } from '../regex/index.js';

/** AND, OR and NOT over numbered pattern atoms. */
export type AtomExpr =
  | { readonly op: 'atom'; readonly atom: number; readonly negated: boolean }
  | { readonly op: 'and' | 'or'; readonly args: readonly AtomExpr[] };

export function evaluateAtoms(expr: AtomExpr, present: (atom: number) => boolean): boolean {
  if (expr.op === 'atom') return present(expr.atom) !== expr.negated;
  return expr.op === 'and' ? expr.args.every((e) => evaluateAtoms(e, present)) : expr.args.some((e) => evaluateAtoms(e, present));
}

/** What the worker pool submits for it (any pool/ pool does): declared here so history/ never imports pool/, which runs history/'s scanners in its workers. */
export interface RunnerOptions {
  readonly signal?: AbortSignal;
  /** Epoch milliseconds. */
  readonly deadline?: number;
}

/** The worker pool, for text matching. */
export interface TextMatchRunner {
  submit(kind: 'text-match', task: TextMatchJob, options?: RunnerOptions): Promise<TextMatches>;
}

export interface TextList {
  readonly texts: readonly string[];
  /** The texts already packed (kept by the caller for many searches); packed here when absent. */
  readonly batch?: TextBatch;
}

export interface AtomBounds {
  readonly deadline: number;
  readonly signal?: AbortSignal;
  /** Texts to look at (1) or skip (0); absent: all. */
  readonly scope?: Uint8Array;
  /** Also find where each atom matches, for highlighting. */
  readonly ranges?: boolean;
}

export interface AtomHits {
  hit(atom: number, text: number): boolean;
  /** [start, end) in UTF-16 code units of the text, in order; only when asked for ranges. */
  ranges(atom: number, text: number): readonly (readonly [number, number])[];
}

/**
 * Plain-text atoms are matched on this thread only over this much text (repository names): over
 * more (a history's messages) every atom goes to the pool, so this thread stays free.
 */
const PLAIN_HERE_MAX_CHARS = 256 * 1024;

/** Throws TIMEOUT when the pool could not match every text before the deadline. */
export async function matchAtoms(runner: TextMatchRunner, list: TextList, atoms: readonly RegexPlan[], bounds: AtomBounds): Promise<AtomHits> {
  const count = list.texts.length;
  const here = (list.batch?.data.length ?? list.texts.reduce((n, t) => n + t.length, 0)) <= PLAIN_HERE_MAX_CHARS;
  const pooled = atoms.flatMap((atom, index) => (atom.plain === null || !here ? [index] : []));
  const fromPool = pooled.length === 0 ? null : await runner.submit('text-match', {
    ...(list.batch ?? packTexts(list.texts)),
    specs: pooled.map((index) => atoms[index]!.spec),
    scope: bounds.scope ?? null,
    ranges: bounds.ranges ?? false,
    deadline: bounds.deadline,
  }, { signal: bounds.signal, deadline: bounds.deadline });
  if (fromPool?.timedOut) throw createError('TIMEOUT', 'matching the patterns did not finish before the deadline');
  const slot = new Map(pooled.map((atom, position) => [atom, position]));
  const pooledRanges = fromPool && bounds.ranges ? rangesByText(fromPool.ranges, list.texts) : new Map<string, [number, number][]>();
  const hit = (atom: number, text: number): boolean => {
    if (bounds.scope && bounds.scope[text] !== 1) return false;
    const position = slot.get(atom);
    if (position === undefined) return matchesPlain(atoms[atom]!.plain!, list.texts[text]!);
    return fromPool!.hits[position * count + text] === 1;
  };
  return {
    hit,
    ranges(atom, text) {
      if (!hit(atom, text)) return [];
      const position = slot.get(atom);
      if (position === undefined) return plainRanges(atoms[atom]!.plain!, list.texts[text]!);
      return pooledRanges.get(`${position}:${text}`) ?? [];
    },
  };
}

/** Byte ranges from the pool as UTF-16 ranges, keyed by `pattern:text`. */
function rangesByText(quads: Int32Array, texts: readonly string[]): Map<string, [number, number][]> {
  const out = new Map<string, [number, number][]>();
  for (let i = 0; i < quads.length; i += 4) {
    const text = texts[quads[i + 1]!]!;
    const key = `${quads[i]}:${quads[i + 1]}`;
    const list = out.get(key) ?? [];
    list.push([utf16Offset(text, quads[i + 2]!), utf16Offset(text, quads[i + 3]!)]);
    out.set(key, list);
  }
  return out;
}

function utf16Offset(text: string, byteOffset: number): number {
  return Buffer.from(text, 'utf8').subarray(0, byteOffset).toString('utf8').length;
}
