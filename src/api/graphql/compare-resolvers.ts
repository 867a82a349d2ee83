/**
 * `repository.comparison(base, head)` with its file diffs (hunks, diffStat, offset cursors) and
 * `GitCommit.ancestors`, over the diff service. Parents carry an already visible repository.
 */
import { createError } from '../../errors.js';
import { pageFiles, type Comparison } from '../../history/compare.js';
import type { DiffHunk, FileDiff } from '../../history/diff-model.js';
import type { DiffHistory } from '../../history/diff-service.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type CommitParent, type Resolvers } from './resolver-kit.js';
import type { GraphQLContext, RepoInfo } from './services.js';

interface ComparisonParent { readonly repo: RepoInfo; readonly comparison: Promise<Comparison> }
interface FileDiffsParent { readonly files: readonly FileDiff[]; readonly all: Comparison }

function diffsOf(ctx: GraphQLContext): DiffHistory {
  if (ctx.services.diffs === undefined) throw createError('INTERNAL', 'comparisons are not available on this server');
  return ctx.services.diffs;
}

function pageSize(first: number | null | undefined): number {
  return Math.min(Math.max(first ?? DEFAULT_PAGE_SIZE, 0), MAX_PAGE_SIZE);
}

function hunkBody(hunk: DiffHunk): string {
  let body = '';
  for (const line of hunk.lines) body += `${line.kind}${line.text}\n`;
  return body;
}

function rawDiff(files: readonly FileDiff[]): string {
  return files.map((f) => {
    const header = `--- ${f.oldPath === null ? '/dev/null' : `a/${f.oldPath}`}\n+++ ${f.newPath === null ? '/dev/null' : `b/${f.newPath}`}\n`;
    return header + f.hunks.map((h) => `@@ -${h.oldRange.startLine},${h.oldRange.lines} +${h.newRange.startLine},${h.newRange.lines} @@${h.section ? ` ${h.section}` : ''}\n${hunkBody(h)}`).join('');
  }).join('');
}

export const compareResolvers: Resolvers = {
  Repository: {
    comparison(p: RepoInfo, args: { base?: string | null; head?: string | null }, ctx: GraphQLContext): ComparisonParent {
      const comparison = diffsOf(ctx).compare(p.name, args.base || 'HEAD', args.head || 'HEAD');
      // Resolved lazily by fileDiffs; a rejected comparison must not go unhandled if never read.
      comparison.catch(() => undefined);
      return { repo: p, comparison };
    },
  },
  RepositoryComparison: {
    baseRepository: (p: ComparisonParent) => p.repo,
    headRepository: (p: ComparisonParent) => p.repo,
    async fileDiffs(p: ComparisonParent, args: { first?: number | null; after?: string | null }) {
      const all = await p.comparison;
      const page = pageFiles(all.files, pageSize(args.first), args.after);
      const parent: FileDiffsParent = { files: page.files, all };
      return { parent, totalCount: all.files.length, pageInfo: { endCursor: page.endCursor, hasNextPage: page.hasNextPage } };
    },
  },
  FileDiffConnection: {
    nodes: (p: { parent: FileDiffsParent }) => p.parent.files,
    diffStat: (p: { parent: FileDiffsParent }) => ({ added: p.parent.all.totals.linesAdded, deleted: p.parent.all.totals.linesDeleted }),
    rawDiff: (p: { parent: FileDiffsParent }) => rawDiff(p.parent.files),
  },
  FileDiff: {
    stat: (p: FileDiff) => ({ added: p.added, deleted: p.deleted }),
    internalID: (p: FileDiff) => Buffer.from(`${p.oldPath ?? ''}\0${p.newPath ?? ''}`).toString('base64'),
  },
  FileDiffHunk: {
    oldNoNewlineAt: (p: DiffHunk) => p.oldNoNewlineAtEnd,
    section: (p: DiffHunk) => (p.section === '' ? null : p.section),
    body: (p: DiffHunk) => hunkBody(p),
  },
  GitCommit: {
    async ancestors(p: CommitParent, args: { first?: number | null; path?: string | null; afterCursor?: string | null }, ctx: GraphQLContext) {
      const page = await diffsOf(ctx).ancestors(p.repo.name, p.oid, { first: pageSize(args.first), afterCursor: args.afterCursor ?? null, path: args.path ?? null });
      return {
        nodes: page.oids.map((oid): CommitParent => ({ repo: p.repo, oid })),
        // Sourcegraph leaves totalCount null on paginated connections.
        totalCount: null,
        pageInfo: { endCursor: page.endCursor, hasNextPage: page.hasNextPage },
      };
    },
  },
};
