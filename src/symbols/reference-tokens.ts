/**
 * Finds every token of a language's reference node types with a tree cursor: no node objects are
 * made (a query would wrap each match in one), which is the cheapest way through the binding to
 * the bulk of a file's references. Reference types are tokens, so only leaves are looked at.
 */
import type Parser from 'tree-sitter';

const UNKNOWN = -1;

/** Per grammar node type id: 1 when it is one of the reference types, learnt on first sight. */
export class ReferenceTypes {
  private readonly byId = new Int8Array(1 << 16).fill(UNKNOWN);
  private readonly names: ReadonlySet<string>;

  constructor(names: readonly string[]) {
    this.names = new Set(names);
  }

  /** Reads the type name only the first time an id is seen: names cost a string per call. */
  matches(cursor: Parser.TreeCursor): boolean {
    const id = cursor.nodeTypeId;
    let known = this.byId[id]!;
    if (known === UNKNOWN) {
      known = cursor.nodeIsNamed && this.names.has(cursor.nodeType) ? 1 : 0;
      this.byId[id] = known;
    }
    return known === 1;
  }
}

/** Start and end offsets of the reference tokens, in document order. */
export interface ReferenceTokens {
  readonly starts: number[];
  readonly ends: number[];
}

export function referenceTokens(tree: Parser.Tree, types: ReferenceTypes): ReferenceTokens {
  const starts: number[] = [];
  const ends: number[] = [];
  const cursor = tree.walk();
  for (;;) {
    if (cursor.gotoFirstChild()) continue;
    if (types.matches(cursor)) {
      const start = cursor.startIndex;
      // A zero-width (missing) token can share its start with the next one: the first is kept.
      if (starts.length === 0 || starts[starts.length - 1] !== start) {
        starts.push(start);
        ends.push(cursor.endIndex);
      }
    }
    while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) return { starts, ends };
  }
}
