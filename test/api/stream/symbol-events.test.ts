/**
 * The stream API's `symbol` match events against a real server: Sourcegraph's shape
 * `{type: 'symbol', …, symbols: [{url, name, containerName, kind, line}]}` with 1-based lines.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { readEvents, startServerFixture, type ServerFixture } from '../../http/server-fixture.js';

let fixture: ServerFixture;

before(async () => {
  fixture = await startServerFixture({
    'example.com/shapes': {
      'shapes.py': 'class Shape:\n    def area(self):\n        return 0\n\n\ndef make_shape():\n    return Shape()\n',
      'notes.txt': 'Shape notes\n',
    },
  }, { siteConfig: '{"auth.public": true}' });
});

after(async () => {
  await fixture.close();
});

async function matches(q: string): Promise<Record<string, unknown>[]> {
  const res = await fetch(`${fixture.url}/.api/search/stream?${new URLSearchParams({ q })}`, { headers: { Accept: 'text/event-stream' } });
  assert.equal(res.status, 200);
  const { events } = await readEvents(res);
  return events.filter((e) => e.name === 'matches').flatMap((e) => e.data as Record<string, unknown>[]);
}

test('type:symbol streams symbol matches in Sourcegraph’s shape', async () => {
  const found = await matches('type:symbol shape');
  assert.equal(found.length, 1);
  const match = found[0]!;
  const commit = match['commit'] as string;
  assert.match(commit, /^[0-9a-f]{40}$/);
  const url = (line: number, from: number, to: number): string => `/example.com/shapes@${commit}/-/blob/shapes.py#L${line}:${from}-${line}:${to}`;
  assert.deepEqual(match, {
    type: 'symbol', path: 'shapes.py', repositoryID: match['repositoryID'], repository: 'example.com/shapes', branches: match['branches'],
    commit, language: 'Python',
    symbols: [
      { url: url(1, 7, 12), name: 'Shape', containerName: '', kind: 'CLASS', line: 1 },
      { url: url(6, 5, 15), name: 'make_shape', containerName: '', kind: 'FUNCTION', line: 6 },
    ],
  });
});

test('select:symbol.method streams the methods a content match hits', async () => {
  const found = await matches('area select:symbol.method');
  assert.deepEqual(found.map((m) => [m['type'], m['path'], m['symbols']]), [
    ['symbol', 'shapes.py', [{ url: (found[0]!['symbols'] as { url: string }[])[0]!.url, name: 'area', containerName: 'Shape', kind: 'METHOD', line: 2 }]],
  ]);
});
