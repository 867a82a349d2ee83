/**
 * The piscina worker for the symbol parse floor: reads and parses a batch of files with tree-sitter
 * exactly as the index does (same grammars, gates and macro blanking), extracting nothing.
 */
import { readFileSync } from 'node:fs';
import { parseOnly } from '../src/symbols/parse.js';

export default function parseBatch(paths: readonly string[]): { readonly parsed: number; readonly bytes: number } {
  let parsed = 0;
  let bytes = 0;
  for (const path of paths) {
    const content = readFileSync(path);
    if (!parseOnly(path, content)) continue;
    parsed++;
    bytes += content.length;
  }
  return { parsed, bytes };
}
