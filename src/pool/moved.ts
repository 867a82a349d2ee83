/**
 * Results whose arrays cross back from a worker moved, not copied (piscina's transfer list), and
 * the plain value again for a pool that ran the handler on its own thread.
 */
import { move, transferableSymbol, valueSymbol } from 'piscina';

declare const movedResult: unique symbol;

/** A result marked so its buffers are transferred; only unmoved() or piscina reads it. */
export interface Moved<T> {
  readonly [movedResult]: T;
}

export function moved<T>(value: T, buffers: readonly ArrayBufferLike[]): Moved<T> {
  return move({ [transferableSymbol]: buffers, [valueSymbol]: value } as Parameters<typeof move>[0]) as unknown as Moved<T>;
}

export function unmoved<T>(result: T | Moved<T>): T {
  if (typeof result === 'object' && result !== null && valueSymbol in result) return (result as Record<symbol, T>)[valueSymbol]!;
  return result as T;
}
