/** find_references through imports that rename the name, over tables the real parser extracts. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { referencesOf } from './nav-helpers.js';
import { createParsedSymbolIndex } from './parsed-index.js';

const REPO = 'git.example.org/app';

const index = createParsedSymbolIndex([
  { repo: REPO, path: 'src/util.ts', content: 'export function format(x: number): string {\n  return String(x);\n}\n' },
  { repo: REPO, path: 'src/main.ts', content: "import { format as fmt } from './util';\n\nexport const shown = fmt(1) + fmt(2);\n" },
  { repo: REPO, path: 'src/plain.ts', content: "import { format } from './util';\nformat(3);\n" },
  { repo: REPO, path: 'src/other.ts', content: 'function fmt(): void {}\nfmt();\n' },
  { repo: REPO, path: 'pkg/util.py', content: 'def format_size(n):\n    return str(n)\n' },
  { repo: REPO, path: 'pkg/main.py', content: 'from pkg.util import format_size as fs\n\nprint(fs(1))\n' },
]);

test('TypeScript: uses under the new name count, with the import itself; a same-named local function elsewhere does not', () => {
  assert.deepEqual(referencesOf(index, REPO, 'src/util.ts', 'format'), [
    `${REPO} src/main.ts:1`, `${REPO} src/main.ts:3`, `${REPO} src/main.ts:3`, `${REPO} src/plain.ts:1`, `${REPO} src/plain.ts:2`,
  ]);
});

test('Python: `from m import x as y` makes the uses of y references of x', () => {
  assert.deepEqual(referencesOf(index, REPO, 'pkg/util.py', 'format_size'), [`${REPO} pkg/main.py:1`, `${REPO} pkg/main.py:3`]);
});
