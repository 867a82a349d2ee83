/**
 * GraphQL's view of repositories and their git objects, over the registry and the bare mirrors.
 * Reads go through the git CLI with bounds; a repository the caller may not read does not exist.
 */
import { createError, isQuarryError } from '../errors.js';
import { repoPathProblem } from '../git/input.js';
import { listRefs, resolveRevision } from '../git/mirror.js';
import { runGit } from '../git/run.js';
import type { RepoBrowser, RepoInfo, TreeItem } from '../model/repos.js';
import { mirrorDir, type RepoContext } from '../repos/registry.js';
import { repoVisibility } from '../store/repo-permissions.js';
import { getRepo, listRepos } from '../store/repos.js';
import type { RepoRecord } from '../store/records.js';

/** Files larger than this are not returned whole through GraphQL. */
const MAX_BLOB_BYTES = 64 * 1024 * 1024;

export function createRepoBrowser(ctx: RepoContext): RepoBrowser {
  const info = (record: RepoRecord): RepoInfo => ({
    id: record.id,
    name: record.name,
    description: '',
    fork: record.fork,
    archived: record.archived,
    private: !repoVisibility(ctx.store, record.name).public,
    defaultBranch: record.defaultBranch || null,
  });
  const gitDir = (name: string): string => {
    const record = getRepo(ctx.store, name);
    if (!record) throw createError('REPO_NOT_FOUND', `no such repository: ${name}`);
    return mirrorDir(ctx, record);
  };
  return {
    list: (canRead) => listRepos(ctx.store).filter((r) => canRead(r.name)).map(info).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    get: (name, canRead) => {
      const record = canRead(name) ? getRepo(ctx.store, name) : undefined;
      return record ? info(record) : null;
    },
    refs: async (repo) => (await listRefs(gitDir(repo))).map((r) => ({ kind: r.kind, name: r.name, oid: r.oid })),
    async resolveRevision(repo, rev) {
      try {
        return await resolveRevision(gitDir(repo), rev);
      } catch (err) {
        if (isQuarryError(err, 'REVISION_NOT_FOUND')) return null;
        throw err;
      }
    },
    async readCommit(repo, oid) {
      const out = (await runGit(['log', '-1', '--format=%H%x00%an%x00%ae%x00%aI%x00%B', oid, '--'], { gitDir: gitDir(repo) })).toString('utf8');
      const [hash = oid, authorName = '', authorEmail = '', authorDate = '', message = ''] = out.split('\0');
      // git prints the author's own offset; the API speaks RFC 3339 in UTC.
      const utc = new Date(authorDate).toISOString().replace(/\.\d{3}Z$/, 'Z');
      return { oid: hash, authorName, authorEmail, authorDate: utc, message: message.replace(/\n+$/, '') };
    },
    async readBlob(repo, commit, path) {
      const dir = gitDir(repo);
      const entry = await treeEntry(dir, commit, path);
      if (!entry || entry.type !== 'blob') return null;
      return runGit(['cat-file', 'blob', entry.oid], { gitDir: dir, maxBytes: MAX_BLOB_BYTES });
    },
    async listTree(repo, commit, path, recursive) {
      const dir = gitDir(repo);
      const clean = path.replace(/^\/+|\/+$/g, '');
      if (clean !== '') {
        const entry = await treeEntry(dir, commit, clean);
        if (!entry || entry.type !== 'tree') return null;
      }
      const spec = clean === '' ? commit : `${commit}:${clean}`;
      const out = await runGit(['ls-tree', '-z', ...(recursive ? ['-r', '-t'] : []), spec], { gitDir: dir });
      return parseLsTree(out).map((e): TreeItem => ({ path: clean === '' ? e.path : `${clean}/${e.path}`, isDirectory: e.type === 'tree' }));
    },
  };
}

interface LsTreeEntry {
  readonly type: string;
  readonly oid: string;
  readonly path: string;
}

async function treeEntry(gitDir: string, commit: string, path: string): Promise<LsTreeEntry | null> {
  const clean = path.replace(/^\/+|\/+$/g, '');
  // A path no tree can hold names nothing, and must not reach git (`..` leaves the repository).
  if (clean === '' || repoPathProblem(clean) !== null) return null;
  const out = await runGit(['ls-tree', '-z', commit, '--', clean], { gitDir });
  const [entry] = parseLsTree(out);
  return entry && entry.path === clean ? entry : null;
}

/** `<mode> SP <type> SP <oid> TAB <path> NUL` records. */
function parseLsTree(out: Buffer): LsTreeEntry[] {
  return out.toString('utf8').split('\0').filter(Boolean).map((record) => {
    const tab = record.indexOf('\t');
    const [, type = '', oid = ''] = record.slice(0, tab).split(' ');
    return { type, oid, path: record.slice(tab + 1) };
  });
}
