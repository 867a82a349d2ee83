/**
 * The repository pages over HTTP on a real server: what each view shows, checked against git
 * where git can say (raw bytes, a file at a tag), code navigation through the MCP tools' resolver,
 * 404 pages (never a 500) for bad revisions, paths and positions, and a restricted repository
 * answering 404 on every view to a user who may not read it, exactly like a missing one.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { FormBrowser } from '../oauth/oauth-fixture.js';
import { SECRET } from '../restricted-instance.js';
import { HISTORY, MAIN_V1, PASSWORD, ROUTER_GO, startHistoryInstance, type HistoryFixture } from './repo-fixture.js';

let fixture: HistoryFixture;
let url = '';

before(async () => {
  fixture = await startHistoryInstance();
  url = fixture.instance.server.url;
  assert.equal(fixture.instance.quarry(['repos', 'restrict', SECRET, '--users', 'bob']).status, 0);
});

after(async () => fixture.close());

async function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; headers: Headers }> {
  const answer = await fetch(`${url}${path}`, { redirect: 'manual', headers });
  return { status: answer.status, body: await answer.text(), headers: answer.headers };
}

const H = `/${HISTORY}`;

test('the root lists directories first and shows the README escaped; a directory lists its files', async () => {
  const root = await get(H);
  assert.equal(root.status, 200);
  const names = [...root.body.matchAll(/<li class="(?:dir|file)"><a href="[^"]+">([^<]+)<\/a>/g)].map((m) => m[1]);
  assert.deepEqual(names, ['assets/', 'docs/', 'README.md', 'main.go', 'router.go']);
  assert.match(root.body, /<pre># History &#60;demo&#62;\n\nA router &#38; its uses\.\n<\/pre>/);
  const docs = await get(`${H}/-/tree/docs`);
  assert.match(docs.body, /href="\/github\.com\/acme\/history\/-\/blob\/docs\/guide\.txt">guide\.txt<\/a>/);
  const atV1 = await get(`${H}@v1/-/tree/docs`);
  assert.equal(atV1.status, 404, 'docs/ came with v2');
});

test('the file view numbers and anchors every line, highlights Go, links identifiers to their definitions', async () => {
  const page = await get(`${H}/-/blob/router.go`);
  assert.equal(page.status, 200);
  const rows = [...page.body.matchAll(/<tr id="L(\d+)"><td class="ln"><a href="#L(\d+)">(\d+)<\/a>/g)];
  assert.deepEqual(rows.map((m) => Number(m[1])), ROUTER_GO.trimEnd().split('\n').map((_, i) => i + 1));
  assert.match(page.body, /<span class="hl-keyword">package<\/span>/);
  assert.match(page.body, /<span class="hl-comment">\/\/ Router sends requests to handlers\.<\/span>/);
  assert.match(page.body, /<a class="id" href="\/github\.com\/acme\/history\/-\/definition\/router\.go\?line=9&#38;character=6"><span class="hl-function">NewRouter<\/span><\/a>/);
  // The text of every line, tags stripped and entities decoded, is the file's.
  const texts = [...page.body.matchAll(/<td class="lc">(.*?)<\/td><\/tr>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, '').replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c))));
  assert.deepEqual(texts, ROUTER_GO.trimEnd().split('\n'));
});

test('a range in the link is selected; binary files say so; raw answers the bytes git has, at any revision', async () => {
  const ranged = await get(`${H}@v1/-/blob/main.go%3FL3-4`);
  assert.deepEqual([...ranged.body.matchAll(/<tr id="L(\d+)" class="sel">/g)].map((m) => m[1]), ['3', '4']);
  const binary = await get(`${H}/-/blob/assets/logo.bin`);
  assert.match(binary.body, /Binary file: its content is not shown/);
  assert.doesNotMatch(binary.body, /<table class="code"/);
  const raw = await fetch(`${url}${H}@v1/-/raw/main.go`);
  assert.equal(raw.headers.get('content-type'), 'text/plain; charset=utf-8');
  assert.equal(raw.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(raw.headers.get('content-disposition'), 'attachment; filename="main.go"; filename*=UTF-8\'\'main.go');
  assert.equal(await raw.text(), MAIN_V1);
  const bytes = await fetch(`${url}${H}/-/raw/assets/logo.bin`);
  assert.equal(bytes.headers.get('content-type'), 'application/octet-stream');
  assert.deepEqual(Buffer.from(await bytes.arrayBuffer()), Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7) % 256)));
});

test('commits page by page and by path; a commit page with its diff; a comparison of two tags; contributors', async () => {
  const all = await get(`${H}/-/commits`);
  assert.deepEqual([...all.body.matchAll(/\/-\/commit\/([0-9a-f]{40})">/g)].map((m) => m[1]), [fixture.v2, fixture.v1]);
  const second = await get(`${H}/-/commits?after=1`);
  assert.deepEqual([...second.body.matchAll(/\/-\/commit\/([0-9a-f]{40})">/g)].map((m) => m[1]), [fixture.v1]);
  assert.match(second.body, /rel="prev" href="\/github\.com\/acme\/history\/-\/commits"/);
  const byPath = await get(`${H}/-/commits/docs/guide.txt`);
  assert.deepEqual([...byPath.body.matchAll(/\/-\/commit\/([0-9a-f]{40})">/g)].map((m) => m[1]), [fixture.v2]);
  const onDev = await get(`${H}@dev/-/commits`);
  assert.deepEqual([...onDev.body.matchAll(/\/-\/commit\/([0-9a-f]{40})">/g)].map((m) => m[1]), [fixture.dev, fixture.v2, fixture.v1]);
  const commit = await get(`${H}/-/commit/${fixture.v2}`);
  assert.match(commit.body, /<h2>Use a second router<\/h2>/);
  assert.match(commit.body, new RegExp(`<dt>Parent</dt><dd><a class="oid" href="/github\\.com/acme/history/-/commit/${fixture.v1}">`));
  assert.match(commit.body, /<tr class="del"><td class="ln">5<\/td><td class="ln"><\/td><td class="lc"><span class="mark" aria-hidden="true">-<\/span>\t_ = r<\/td><\/tr>/);
  assert.match(commit.body, /<tr class="add"><td class="ln"><\/td><td class="ln">5<\/td><td class="lc"><span class="mark" aria-hidden="true">\+<\/span>\tother := NewRouter\(\)<\/td><\/tr>/);
  const first = await get(`${H}/-/commit/${fixture.v1.slice(0, 12)}`);
  assert.match(first.body, /none \(the first commit\)/);
  assert.match(first.body, /router\.go<\/a> <span class="status">added<\/span>/);
  const compare = await get(`${H}/-/compare/v1...dev`);
  assert.deepEqual([...compare.body.matchAll(/<li><a href="\/github\.com\/acme\/history\/-\/commit\/([0-9a-f]{40})">/g)].map((m) => m[1]), [fixture.dev, fixture.v2]);
  assert.deepEqual([...compare.body.matchAll(/<h3 id="diff-\d+"><a [^>]+>([^<]+)<\/a>/g)].map((m) => m[1]), ['dev.go', 'docs/guide.txt', 'main.go']);
  const people = await get(`${H}/-/contributors`);
  assert.match(people.body, /<td>Quarry Test<\/td><td>test@quarry\.invalid<\/td><td class="num">2<\/td>/);
});

test('the revision picker and the branches and tags pages link each ref', async () => {
  const blob = await get(`${H}@v1/-/blob/main.go`);
  const menu = blob.body.slice(blob.body.indexOf('class="revpick-menu"'), blob.body.indexOf('</details>'));
  const picked = [...menu.matchAll(/<li><a href="(\/github\.com\/acme\/history@[^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(picked, ['dev', 'main', 'v1', 'v2'].map((rev) => `/github.com/acme/history@${rev}/-/blob/main.go`));
  const tags = await get(`${H}/-/tags`);
  const v1Row = /<tr><th scope="row"><a href="\/github\.com\/acme\/history@v1">v1<\/a><\/th>[\s\S]*?<\/tr>/.exec(tags.body)?.[0] ?? '';
  assert.match(v1Row, new RegExp(`<a href="/github\\.com/acme/history/-/commit/${fixture.v1}">First router</a>`));
  assert.match(v1Row, new RegExp(`<a class="oid" href="/github\\.com/acme/history/-/commit/${fixture.v1}"`));
});

test('definition: a redirect to the definition, the references page from the definition itself, JSON on request', async () => {
  const jump = await get(`${H}/-/definition/main.go?line=4&character=7`);
  assert.equal(jump.status, 302);
  assert.equal(jump.headers.get('location'), `${H}/-/blob/router.go#L9`);
  // At a revision the index does not hold, main.go is parsed there and router.go found at the indexed commit.
  const old = await get(`${H}@v1/-/definition/main.go?line=4&character=7`);
  assert.equal(old.headers.get('location'), `${H}@${fixture.v2}/-/blob/router.go#L9`);
  const own = await get(`${H}/-/definition/router.go?line=9&character=7`);
  assert.equal(own.headers.get('location'), `${H}/-/references/router.go?line=9&character=7`);
  const hover = await get(`${H}/-/definition/main.go?line=4&character=7`, { accept: 'application/json' });
  assert.deepEqual(JSON.parse(hover.body).definition, { repo: HISTORY, path: 'router.go', line: 9, kind: 'function', url: `${H}/-/blob/router.go#L9`, signature: 'func NewRouter() *Router {' });
  const refs = await get(`${H}/-/references/router.go?line=9&character=6`, { accept: 'application/json' });
  const answer = JSON.parse(refs.body) as { total: number; references: { path: string; line: number; text: string }[] };
  assert.equal(answer.total, 2);
  assert.deepEqual(answer.references.map((r) => [r.path, r.line, r.text]), [['main.go', 4, 'r := NewRouter()'], ['main.go', 5, 'other := NewRouter()']]);
  const page = await get(`${H}/-/references/router.go?line=9&character=6`);
  assert.match(page.body, /<p>2 references\. Showing 1-2\.<\/p>/);
});

test('bad revisions, paths, positions and views answer a 404 page saying what is wrong, never a 500', async () => {
  const cases: [string, RegExp][] = [
    [`${H}@nope/-/tree`, /No revision named nope exists/],
    [`${H}@nope/-/blob/main.go`, /No revision named nope exists/],
    [`${H}@--output=x/-/blob/main.go`, /No revision named --output=x exists/],
    [`${H}/-/blob/nope.go`, /No file named nope\.go exists at main/],
    [`${H}/-/blob/..%2Fetc%2Fpasswd`, /No file named \.\.\/etc\/passwd exists/],
    [`${H}/-/tree/nope`, /No directory named nope exists/],
    [`${H}/-/raw/nope.go`, /No file named nope\.go/],
    [`${H}/-/commit/0000000000000000000000000000000000000000`, /No revision named 0{40} exists/],
    [`${H}/-/commit/`, /No revision named/],
    [`${H}/-/compare/v1...nope`, /No revision named nope exists/],
    [`${H}/-/commits?after=x`, /&#34;after=x&#34; is not a page/],
    [`${H}/-/definition/main.go?line=1`, /needs the position clicked/],
    [`${H}/-/definition/main.go?line=2&character=1`, /No identifier is at line 2, character 1/],
    [`${H}/-/definition/docs/guide.txt?line=1&character=1`, /does not support docs\/guide\.txt/],
    [`${H}/-/references/nope.go?line=1&character=1`, /No file named nope\.go/],
  ];
  for (const [path, message] of cases) {
    const answer = await get(path);
    assert.equal(answer.status, 404, `${path}: ${answer.body.slice(0, 300)}`);
    assert.match(answer.body, message, path);
  }
  // A directory asked for as a file (and back) goes to its view.
  assert.equal((await get(`${H}/-/blob/docs`)).headers.get('location'), `${H}/-/tree/docs`);
  assert.equal((await get(`${H}/-/tree/main.go`)).headers.get('location'), `${H}/-/blob/main.go`);
});

test('a restricted repository is not found on every view for a user who may not read it, and shown to one who may', async () => {
  const signIn = async (user: string): Promise<FormBrowser> => {
    const browser = new FormBrowser(url);
    assert.equal((await browser.signIn(user, PASSWORD, '/search')).status, 303);
    return browser;
  };
  const [bob, carol] = [await signIn('bob'), await signIn('carol')];
  const S = `/${SECRET}`;
  const views = [S, `${S}/-/tree/`, `${S}/-/blob/plan.go`, `${S}/-/raw/plan.go`, `${S}/-/commits`, `${S}/-/commit/HEAD`, `${S}/-/compare/HEAD...HEAD`,
    `${S}/-/branches`, `${S}/-/tags`, `${S}/-/contributors`, `${S}/-/definition/plan.go?line=3&character=6`, `${S}/-/references/plan.go?line=3&character=6`, `${S}@main/-/blob/plan.go%3FL3`];
  for (const path of views) {
    for (const [who, browser] of [['carol', carol], ['anonymous', new FormBrowser(url)]] as const) {
      const hidden = await browser.get(path);
      const body = await hidden.text();
      assert.equal(hidden.status, 404, `${who} ${path}`);
      assert.doesNotMatch(body, /secret plan/, `${who} ${path}`);
      assert.match(body, /No repository named github\.com\/acme\/secret is here, or you may not read it\./);
    }
  }
  const shown = await bob.get(`${S}/-/blob/plan.go`);
  assert.equal(shown.status, 200);
  assert.match(await shown.text(), /secret plan/);
});
