/**
 * The repository pages' test instance: the restricted instance (OPEN public to all, SECRET to the
 * admin and bob) plus a Go repository with history: tags v1 and v2 on main, a `dev` branch, a
 * definition used from another file, a README and a binary file; the site public.
 */
import assert from 'node:assert/strict';
import { BINARY_CONTENT, commitAll, git, initRepo, makeTempDir, removeDir, writeFiles } from '../../git/fixtures.js';
import { startRestrictedInstance, type RestrictedInstance } from '../restricted-instance.js';

export const HISTORY = 'github.com/acme/history';
export const PASSWORD = 'a long enough password';

export const ROUTER_GO = `package main

// Router sends requests to handlers.
type Router struct {
\troutes map[string]string
}

// NewRouter makes an empty Router.
func NewRouter() *Router {
\treturn &Router{routes: map[string]string{}}
}
`;

export const MAIN_V1 = `package main

func main() {
\tr := NewRouter()
\t_ = r
}
`;

export const MAIN_V2 = `package main

func main() {
\tr := NewRouter()
\tother := NewRouter()
\t_, _ = r, other
}
`;

export interface HistoryFixture {
  readonly instance: RestrictedInstance;
  readonly v1: string;
  readonly v2: string;
  readonly dev: string;
  close(): Promise<void>;
}

export async function startHistoryInstance(): Promise<HistoryFixture> {
  const instance = await startRestrictedInstance({ 'main.go': 'package main\n\nfunc Router() {} // open router\n' });
  const source = makeTempDir('quarry-web-history');
  initRepo(source);
  writeFiles(source, { 'README.md': '# History <demo>\n\nA router & its uses.\n', 'router.go': ROUTER_GO, 'main.go': MAIN_V1, 'assets/logo.bin': BINARY_CONTENT });
  const v1 = commitAll(source, 'First router\n\nThe router and a main that uses it.');
  git(source, 'tag', 'v1');
  writeFiles(source, { 'main.go': MAIN_V2, 'docs/guide.txt': 'Read the router.\n' });
  const v2 = commitAll(source, 'Use a second router');
  git(source, 'tag', 'v2');
  git(source, 'checkout', '--quiet', '-b', 'dev');
  writeFiles(source, { 'dev.go': 'package main\n\nfunc devOnly() {}\n' });
  const dev = commitAll(source, 'Work on dev');
  git(source, 'checkout', '--quiet', 'main');
  const added = instance.quarry(['repos', 'add', HISTORY, source]);
  assert.equal(added.status, 0, added.stderr);
  assert.equal(instance.quarry(['index']).status, 0);
  for (const user of ['bob', 'carol']) {
    assert.equal(instance.quarry(['users', 'create', user, '--email', `${user}@example.com`, '--password-stdin'], `${PASSWORD}\n`).status, 0);
  }
  instance.setConfig('{"auth.public": true}');
  return {
    instance, v1, v2, dev,
    async close() {
      await instance.close();
      removeDir(source);
    },
  };
}
