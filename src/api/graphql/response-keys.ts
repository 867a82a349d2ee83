/**
 * Sets of response keys as bitsets over a document's distinct keys, so merging what a fragment
 * contributes to a selection set costs one word per 32 keys rather than a copy of every key (a
 * chain of fragments each adding a key would otherwise copy quadratically many).
 */
import { Kind, type DocumentNode, type SelectionSetNode } from 'graphql';

export interface KeySet {
  readonly bits: Uint32Array;
  readonly size: number;
}

export const NO_KEYS: KeySet = Object.freeze({ bits: new Uint32Array(0), size: 0 });

function popcount(bits: Uint32Array): number {
  let count = 0;
  for (let word of bits) {
    word -= (word >>> 1) & 0x55555555;
    word = (word & 0x33333333) + ((word >>> 2) & 0x33333333);
    count += Math.imul((word + (word >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
  }
  return count;
}

export class ResponseKeys {
  private readonly index = new Map<string, number>();
  private readonly words: number;

  /** Numbers every response key (alias, or field name) the document's selections use. */
  constructor(document: DocumentNode) {
    const pending: SelectionSetNode[] = [];
    for (const def of document.definitions) if (def.kind === Kind.OPERATION_DEFINITION || def.kind === Kind.FRAGMENT_DEFINITION) pending.push(def.selectionSet);
    for (let set = pending.pop(); set; set = pending.pop()) {
      for (const selection of set.selections) {
        if (selection.kind === Kind.FIELD) {
          const key = selection.alias?.value ?? selection.name.value;
          if (!this.index.has(key)) this.index.set(key, this.index.size);
          if (selection.selectionSet) pending.push(selection.selectionSet);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          pending.push(selection.selectionSet);
        }
      }
    }
    this.words = Math.ceil(this.index.size / 32);
  }

  numberOf(key: string): number {
    return this.index.get(key)!;
  }

  /** Shares a lone source instead of copying it. */
  union(sources: readonly KeySet[], own: readonly number[]): KeySet {
    if (own.length === 0 && sources.length <= 1) return sources[0] ?? NO_KEYS;
    const bits = new Uint32Array(this.words);
    for (const source of sources) for (let i = 0; i < source.bits.length; i++) bits[i]! |= source.bits[i]!;
    for (const key of own) bits[key >>> 5]! |= 1 << (key & 31);
    return { bits, size: popcount(bits) };
  }
}
