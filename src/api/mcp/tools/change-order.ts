/**
 * The order compare_revisions spends its answer on changed files: source code first, then tests,
 * then documentation, and last what is rarely the point of a change: CI and tooling files, lock
 * files, generated, built and vendored copies. Decided from the path alone.
 */
import { fileRole } from './file-role.js';

export type ChangeKind = 'source' | 'test' | 'docs' | 'tooling' | 'lock' | 'generated';

const CI_DIRS = /^(?:\.github|\.circleci|\.gitlab|\.buildkite|\.azure-pipelines|\.woodpecker|\.devcontainer|\.husky)\//;
const CI_FILES = /^(?:\.gitlab-ci\.yml|\.travis\.yml|appveyor\.yml|azure-pipelines\.yml|Jenkinsfile|\.drone\.yml|\.cirrus\.yml|codecov\.yml|renovate\.json|\.pre-commit-config\.yaml)$/;
const LOCK_FILES = /(?:^|\/)(?:package-lock\.json|npm-shrinkwrap\.json|pnpm-lock\.yaml|go\.sum|bun\.lockb|packages\.lock\.json|[^/]*\.lock)$/;
const GENERATED = /(?:^|\/)(?:dist|vendor|vendored|third_party|node_modules|bundles?|generated|__generated__)\/|\.min\.(?:js|css)$|\.map$|\.pb\.go$|_pb2(?:_grpc)?\.py$|\.generated\.[^/]+$|(?:^|\/)zz_generated[^/]*$/;

export function changeKind(path: string): ChangeKind {
  if (LOCK_FILES.test(path)) return 'lock';
  if (GENERATED.test(path)) return 'generated';
  // Files whose name starts with a dot at the top (.gitignore, .eslintrc.json) configure tools, as CI files do.
  if (CI_DIRS.test(path) || CI_FILES.test(path) || /^\.[^/]+$/.test(path)) return 'tooling';
  const role = fileRole(path);
  if (role === 'test' || role === 'docs') return role;
  return role === 'copy' ? 'generated' : 'source';
}

const RANK: Readonly<Record<ChangeKind, number>> = { source: 0, test: 1, docs: 2, tooling: 3, lock: 3, generated: 3 };

/** Shown after a low-priority file's line in the list, saying why it comes last. */
export const KIND_LABEL: Readonly<Partial<Record<ChangeKind, string>>> = { tooling: 'CI or tooling', lock: 'lock file', generated: 'generated or vendored' };

/** The items by rank of their path's kind, in their own order within a rank (a stable sort). */
export function inChangeOrder<T>(items: readonly T[], pathOf: (item: T) => string): T[] {
  return items.map((item) => ({ item, rank: RANK[changeKind(pathOf(item))] })).sort((a, b) => a.rank - b.rank).map((r) => r.item);
}
