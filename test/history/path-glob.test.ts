/**
 * Path globs as .gitignore reads them: `*` within a segment, `**` across segments, names at any
 * depth for globs without `/`, anchored ones from the root, directories covering what is below,
 * exact-path globs for any name; and no glob takes more than linear time.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isQuarryError } from '../../src/errors.js';
import { compilePathGlobs, exactPathGlob } from '../../src/history/path-glob.js';

const PATHS = ['go.sum', 'sub/go.sum', 'src/app.go', 'src/api/mcp/x.ts', 'vendor/lib/x.go', 'a/vendor/y.js', '.github/workflows/ci.yml', 'docs/guide.md', 'src/odd[1]*.go'];
const matching = (...globs: string[]): string[] => PATHS.filter(compilePathGlobs(globs));

test('globs without a slash match a name at any depth; with one, from the root', () => {
  assert.deepEqual(matching('*.go'), ['src/app.go', 'vendor/lib/x.go', 'src/odd[1]*.go']);
  assert.deepEqual(matching('vendor'), ['vendor/lib/x.go', 'a/vendor/y.js']);
  assert.deepEqual(matching('go.sum'), ['go.sum', 'sub/go.sum']);
  assert.deepEqual(matching('/go.sum'), ['go.sum']);
  assert.deepEqual(matching('src/**'), ['src/app.go', 'src/api/mcp/x.ts', 'src/odd[1]*.go']);
  assert.deepEqual(matching('src'), matching('src/**'));
  assert.deepEqual(matching('src/*.go'), ['src/app.go', 'src/odd[1]*.go']);
  assert.deepEqual(matching('src/**/*.ts'), ['src/api/mcp/x.ts']);
  assert.deepEqual(matching('**/*.yml'), ['.github/workflows/ci.yml']);
  assert.deepEqual(matching('.github/'), ['.github/workflows/ci.yml']);
  assert.deepEqual(matching('**'), PATHS);
  assert.deepEqual(matching('doc?/[a-h]*'), ['docs/guide.md']);
  assert.deepEqual(matching('*.rs'), []);
  assert.deepEqual(matching('*.rs', '/go.sum'), ['go.sum']);
});

test('an exact-path glob matches that path only, whatever characters it holds', () => {
  for (const path of PATHS) assert.deepEqual(matching(exactPathGlob(path)), [path], path);
});

test('a blank glob is an invalid argument', () => {
  for (const glob of ['', '  ', '/']) assert.throws(() => compilePathGlobs([glob]), (err) => isQuarryError(err, 'INVALID_ARGUMENT'));
});

test('hostile globs answer in linear time', () => {
  const deep = `${'a/'.repeat(2000)}b`;
  const long = `${'a'.repeat(20_000)}c`;
  const started = Date.now();
  assert.equal(compilePathGlobs([`${'**/'.repeat(200)}x`])(deep), false);
  assert.equal(compilePathGlobs([`${'*a'.repeat(200)}b`])(long), false);
  assert.ok(Date.now() - started < 2000, `${Date.now() - started} ms`);
});
