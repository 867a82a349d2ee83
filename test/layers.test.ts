/**
 * The import rules of ARCHITECTURE.md, checked on the source: each third-party runtime package
 * has one home folder, the native addon has one importer, and model/ imports nothing of ours.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const HOMES: Record<string, readonly string[]> = {
  lmdb: ['src/index/', 'src/store/'],
  piscina: ['src/pool/'],
  'uWebSockets.js': ['src/http/'],
  graphql: ['src/api/graphql/'],
  'graphql-jit': ['src/api/graphql/'],
  '@modelcontextprotocol/sdk': ['src/api/mcp/'],
  fengari: ['src/sandbox/'],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]/g), ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]!);
}

function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

const files = sourceFiles(join(ROOT, 'src')).map((f) => ({ path: relative(ROOT, f), imports: imports(f) }));

test('the source tree was found', () => {
  assert.ok(files.length > 20);
});

test('every third-party package is imported only from its home folder', () => {
  const violations: string[] = [];
  for (const file of files) {
    for (const spec of file.imports) {
      if (spec.startsWith('.') || spec.startsWith('node:')) continue;
      const pkg = packageOf(spec);
      const homes = HOMES[pkg] ?? (pkg.startsWith('tree-sitter') ? ['src/symbols/'] : null);
      if (!homes) violations.push(`${file.path}: ${spec} has no home folder in ARCHITECTURE.md`);
      else if (!homes.some((h) => file.path.startsWith(h))) violations.push(`${file.path}: ${spec} belongs in ${homes.join(' or ')}`);
    }
  }
  assert.deepEqual(violations, []);
});

test('only src/matcher/hyperscan.ts loads the native addon', () => {
  const importers = files.filter((f) => f.imports.some((s) => s.includes('native/hyperscan'))).map((f) => f.path);
  assert.deepEqual(importers, ['src/matcher/hyperscan.ts']);
});

test('model/ and errors.ts are leaves', () => {
  const leaves = files.filter((f) => f.path.startsWith('src/model/') || f.path === 'src/errors.ts');
  for (const f of leaves) assert.deepEqual(f.imports.filter((s) => s.startsWith('.') && !s.startsWith('./')), [], f.path);
});

test('no module above the pool imports a concrete store, matcher or piscina', () => {
  const upper = files.filter((f) => /^src\/(search|query|regex|cli)\//.test(f.path));
  for (const f of upper) {
    const bad = f.imports.filter((s) => /index\/lmdb\/|matcher\/hyperscan|piscina/.test(s));
    assert.deepEqual(bad, [], f.path);
  }
});

test('only the composition root picks a pool implementation: everyone else sees the seam (pool/pool.ts)', () => {
  const implementation = /\/pool\/(piscina-pool|engine-pool|sandbox-pool|in-thread-pool|worker|worker-entry)\.js$/;
  const importers = files.filter((f) => !f.path.startsWith('src/pool/') && f.imports.some((s) => implementation.test(s))).map((f) => f.path);
  assert.deepEqual(importers, ['src/main.ts']);
});
