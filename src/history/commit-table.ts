/**
 * A repository's commit index held in memory for searching: commits by ordinal, lower-cased
 * haystacks of messages, authors, committers and paths scanned with indexOf, the same fields packed
 * once for the worker pool's regular expressions, and reachability from a tip over the parent
 * graph. Read-only once built; rebuilt when the stored version moves.
 */
import type { StoredCommit } from '../index/commits/commit-store.js';
import { packTexts } from './text-batch.js';
import type { CommitField } from './commit-filter.js';
import type { TextList } from './text-atoms.js';

/** Lower-cased texts joined by NUL, with the start of each commit's text. */
export class Haystack {
  private readonly text: string;
  private readonly starts: Int32Array;

  constructor(parts: readonly string[]) {
    this.starts = new Int32Array(parts.length + 1);
    const lowered: string[] = [];
    let offset = 0;
    parts.forEach((part, i) => {
      const low = part.toLowerCase();
      this.starts[i] = offset;
      lowered.push(low);
      offset += low.length + 1;
    });
    this.starts[parts.length] = offset;
    this.text = lowered.join('\0');
  }

  /** Marks every commit whose text contains `needle` (already lower-cased, no NUL). */
  markContaining(needle: string, hits: Uint8Array): void {
    if (needle === '') {
      hits.fill(1);
      return;
    }
    let at = this.text.indexOf(needle);
    while (at >= 0) {
      const ordinal = this.ordinalAt(at);
      hits[ordinal] = 1;
      // Skip to the next commit: one hit is enough.
      at = this.text.indexOf(needle, this.starts[ordinal + 1]!);
    }
  }

  private ordinalAt(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

export class CommitTable {
  readonly commits: readonly StoredCommit[];
  readonly messages: Haystack;
  readonly authors: Haystack;
  readonly committers: Haystack;
  readonly paths: Haystack;
  private readonly ordinals = new Map<string, number>();
  private readonly parentOrdinals: Int32Array[];
  private readonly reachCache = new Map<string, Uint8Array>();
  private readonly packed = new Map<CommitField, TextList>();

  constructor(commits: readonly StoredCommit[]) {
    this.commits = commits;
    commits.forEach((c, i) => this.ordinals.set(c.oid, i));
    this.parentOrdinals = commits.map((c) => Int32Array.from(c.parents.map((p) => this.ordinals.get(p) ?? -1).filter((o) => o >= 0)));
    this.messages = new Haystack(commits.map((c) => c.message));
    this.authors = new Haystack(commits.map((c) => personText(c.authorName, c.authorEmail)));
    this.committers = new Haystack(commits.map((c) => personText(c.committerName, c.committerEmail)));
    this.paths = new Haystack(commits.map((c) => c.paths.join('\n')));
  }

  get size(): number {
    return this.commits.length;
  }

  /** One field of every commit, by ordinal, packed in shared memory on first use: workers read it without a copy. */
  fieldTexts(field: CommitField): TextList {
    const known = this.packed.get(field);
    if (known) return known;
    const texts = this.commits.map(FIELD_TEXT[field]);
    const list = { texts, batch: packTexts(texts, true) };
    this.packed.set(field, list);
    return list;
  }

  ordinalOf(oid: string): number | undefined {
    return this.ordinals.get(oid);
  }

  /** The ordinals of the commit's parents the index holds, in the commit's order. */
  parentsOf(ordinal: number): Int32Array {
    return this.parentOrdinals[ordinal]!;
  }

  /** Commits reachable from `oid` (itself included); cached for the few tips queries name. */
  reachableFrom(oid: string): Uint8Array {
    const cached = this.reachCache.get(oid);
    if (cached) return cached;
    const seen = new Uint8Array(this.commits.length);
    const start = this.ordinals.get(oid);
    if (start !== undefined) {
      const stack = [start];
      seen[start] = 1;
      while (stack.length > 0) {
        for (const parent of this.parentOrdinals[stack.pop()!]!) {
          if (seen[parent] === 0) {
            seen[parent] = 1;
            stack.push(parent);
          }
        }
      }
    }
    if (this.reachCache.size >= 16) this.reachCache.delete(this.reachCache.keys().next().value!);
    this.reachCache.set(oid, seen);
    return seen;
  }
}

const FIELD_TEXT: Readonly<Record<CommitField, (c: StoredCommit) => string>> = {
  message: (c) => c.message,
  author: (c) => personText(c.authorName, c.authorEmail),
  committer: (c) => personText(c.committerName, c.committerEmail),
  paths: (c) => c.paths.join('\n'),
};

/** The text `author:` and `--author` match: `Name <email>`. */
export function personText(name: string, email: string): string {
  return `${name} <${email}>`;
}
