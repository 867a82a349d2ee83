/**
 * References of one file: plain ones from the token walk, member accesses (`a.b`, with their
 * receiver) from the query, each with its enclosing definition. Offsets in, FileSymbols parts out.
 */
import type Parser from 'tree-sitter';
import type { SymbolReference } from '../model/symbols.js';
import type { LineStarts } from './line-starts.js';
import type { ReferenceTokens } from './reference-tokens.js';

const SIMPLE_RECEIVER = /^(?:[A-Za-z_$][\w$]*)(?:(?:\.|::|->)[A-Za-z_$][\w$]*){0,3}$/;
const RECEIVER_MAX = 100;

/** Offsets of the kept definitions (in their order) and the start of every definition name. */
export interface DefinitionSpans {
  readonly starts: readonly number[];
  readonly ends: readonly number[];
  readonly names: ReadonlySet<number>;
}

/** Tokens are in start order, and so are the member references once sorted: a merge joins them. */
export function collectReferences(matches: readonly Parser.QueryMatch[], tokens: ReferenceTokens, defs: DefinitionSpans, text: string, lines: LineStarts): SymbolReference[] {
  const members = memberReferences(matches, defs, text);
  const memberStarts = Float64Array.from(members.keys()).sort();
  const scopes = new ScopeTracker(defs);
  const references: SymbolReference[] = [];
  const { starts, ends } = tokens;
  let t = 0;
  let m = 0;
  while (t < starts.length || m < memberStarts.length) {
    const tokenStart = t < starts.length ? starts[t]! : Infinity;
    const memberStart = m < memberStarts.length ? memberStarts[m]! : Infinity;
    let start: number;
    let end: number;
    let receiver: string | undefined;
    let assigned = false;
    if (memberStart <= tokenStart) {
      const member = members.get(memberStart)!;
      start = memberStart;
      end = member.end;
      receiver = member.receiver;
      assigned = member.assigned;
      m++;
      if (tokenStart === memberStart) t++;
    } else {
      start = tokenStart;
      end = ends[t++]!;
      if (defs.names.has(start)) continue;
    }
    const name = text.slice(start, end);
    const range = lines.range(start, end);
    const scope = scopes.at(start);
    const reference: SymbolReference = receiver === undefined ? { name, range, scope } : { name, range, scope, receiver };
    references.push(assigned ? { ...reference, assigned } : reference);
  }
  return references;
}

interface MemberReference {
  readonly end: number;
  receiver: string | undefined;
  /** Some match captured it `@assigned`: the target of an assignment. */
  assigned: boolean;
}

/** Member references by start; a match with a receiver beats a bare one at the same node. */
function memberReferences(matches: readonly Parser.QueryMatch[], defs: DefinitionSpans, text: string): Map<number, MemberReference> {
  const members = new Map<number, MemberReference>();
  for (const match of matches) {
    let node: Parser.SyntaxNode | null = null;
    let receiverNode: Parser.SyntaxNode | null = null;
    let assigned = false;
    for (const c of match.captures) {
      if (c.name === 'reference') node = c.node;
      else if (c.name === 'receiver') receiverNode = c.node;
      else if (c.name === 'assigned') assigned = true;
    }
    if (!node) continue;
    const start = node.startIndex;
    if (defs.names.has(start)) continue;
    const receiver = receiverNode ? simpleReceiver(text, receiverNode) : undefined;
    const seen = members.get(start);
    if (!seen) members.set(start, { end: node.endIndex, receiver, assigned });
    else {
      if (seen.receiver === undefined) seen.receiver = receiver;
      seen.assigned ||= assigned;
    }
  }
  return members;
}

/** The innermost definition open at each position, for positions asked in ascending order. */
class ScopeTracker {
  // Definitions are in start order, so the ones open at a position form a stack.
  private readonly stack: number[] = [];
  private next = 0;

  constructor(private readonly defs: DefinitionSpans) {}

  at(position: number): number {
    const { starts, ends } = this.defs;
    const stack = this.stack;
    while (this.next < starts.length && starts[this.next]! <= position) {
      while (stack.length > 0 && ends[stack[stack.length - 1]!]! <= starts[this.next]!) stack.pop();
      stack.push(this.next++);
    }
    while (stack.length > 0 && ends[stack[stack.length - 1]!]! <= position) stack.pop();
    return stack.length > 0 ? stack[stack.length - 1]! : -1;
  }
}

function simpleReceiver(text: string, node: Parser.SyntaxNode): string | undefined {
  const start = node.startIndex;
  const end = node.endIndex;
  if (end - start > RECEIVER_MAX) return undefined;
  const receiver = text.slice(start, end);
  return SIMPLE_RECEIVER.test(receiver) ? receiver : undefined;
}
