/**
 * The web app's services out of the composition root's: the doors' own services, the pool's
 * highlighting, files read from the index for search results' context, and the two git reads only
 * its pages make (one commit's diff, a commit range).
 */
import type { WebServices } from '../api/pages/web/services.js';
import type { IdentityProvider } from '../auth/oauth/service.js';
import { listCommits, readCommitDiffs, type GitBounds } from '../history/diff-git.js';
import { withIndexedFiles } from '../repos/browser.js';
import { gitDirOf } from '../repos/registry.js';
import type { Services } from '../services.js';

const COMMIT_CONTEXT_LINES = 3;
const HIGHLIGHT_DEADLINE_MS = 2_000;
const GIT_BOUNDS: GitBounds = { timeoutMs: 30_000, maxBytes: 64 * 1024 * 1024 };

export function webServices(services: Services, idp: IdentityProvider): WebServices {
  const gitDir = (repo: string): string => gitDirOf({ dataDir: services.config.dataDir, store: services.store }, repo);
  const indexed = withIndexedFiles(services.repos, services.catalog, services.docs);
  return {
    readFile: indexed.readBlob,
    idp, search: services.search, repos: services.repos, history: services.history, diffs: services.diffs, symbols: services.symbols,
    async indexedCommit(repo) {
      return services.catalog.get(repo)?.commit ?? services.repos.resolveRevision(repo, 'HEAD');
    },
    // Colours are a nicety: a file the highlighter cannot finish in time is shown plain, never an error.
    highlight: (path, content, signal) => services.pool.submit('highlight', { path, content }, { signal, deadline: Date.now() + HIGHLIGHT_DEADLINE_MS }).catch(() => null),
    async commitDiff(repo, oid) {
      return (await readCommitDiffs(gitDir(repo), [oid], COMMIT_CONTEXT_LINES, GIT_BOUNDS))[0] ?? null;
    },
    async commitsBetween(repo, base, head, max) {
      return (await listCommits(gitDir(repo), [head, `^${base}`], GIT_BOUNDS)).slice(0, max);
    },
  };
}
