/**
 * Run by close-after-terminations.test.ts in a process of its own: symbol extraction from batches
 * of large files with deadlines far too short, so workers are terminated and replaced round after round, then
 * only close(). Prints how long close took and the process's threads before and after.
 */
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createEnginePool } from '../../src/pool/engine-pool.js';
import type { SymbolsBatchTask } from '../../src/pool/messages.js';

const ROUNDS = 3;

const threadCount = (): number => readdirSync('/proc/self/task').length;

// libuv's thread pool starts with the first file read: started here, it is part of the baseline.
await readFile(new URL(import.meta.url));
const threadsBefore = threadCount();
const pool = createEnginePool({ threads: 2 });
const file = new TextEncoder().encode(Array.from({ length: 14_000 }, (_, i) => `export function f${i}(a: number, b: number) { return a + b * ${i}; }`).join('\n'));
const FILES = 16;
/** A batch of large files: seconds of tree-sitter parsing, far past its deadline and grace. */
function batch(): SymbolsBatchTask {
  const data = new Uint8Array(file.length * FILES);
  for (let i = 0; i < FILES; i++) data.set(file, i * file.length);
  return { data, ends: Uint32Array.from({ length: FILES }, (_, i) => (i + 1) * file.length), paths: Array.from({ length: FILES }, (_, i) => `f${i}.ts`) };
}
const outcomes: string[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const settled = await Promise.allSettled([0, 1, 2, 3].map(() => pool.submit('symbols-batch', batch(), { deadline: Date.now() + 50 })));
  outcomes.push(...settled.map((s) => (s.status === 'fulfilled' ? 'parsed' : (s.reason as { code?: string }).code ?? 'failed')));
}
const began = performance.now();
await pool.close();
console.log(JSON.stringify({ closeMs: Math.round(performance.now() - began), threadsBefore, threadsAfter: threadCount(), outcomes }));
