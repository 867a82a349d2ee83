/**
 * `CommitSearchResult` (type:commit matches in `search`) and `Repository.contributors`, over the
 * engine's commit matches and the commit index. Visibility was applied before these run.
 */
import { createError } from '../../errors.js';
import { parseDate } from '../../history/dates.js';
import type { CommitMatch } from '../../model/result.js';
import { escapeHtml, page, repoUrl, type CommitParent, type Resolvers } from './resolver-kit.js';
import type { GraphQLContext, RepoInfo } from './services.js';

export interface CommitResultParent { readonly commitMatch: CommitMatch; readonly repo: RepoInfo }

interface ContributorParent { readonly name: string; readonly email: string; readonly count: number; readonly repo: RepoInfo }

interface ContributorArgs {
  readonly revisionRange?: string | null;
  readonly afterDate?: string | null;
  readonly path?: string | null;
  readonly first?: number | null;
  readonly after?: string | null;
}

export function commitResultOf(match: CommitMatch, repo: RepoInfo): CommitResultParent {
  return { commitMatch: match, repo };
}

const commitUrl = (p: CommitResultParent): string => `${repoUrl(p.repo.name)}/-/commit/${p.commitMatch.oid}`;
const subjectOf = (message: string): string => message.split('\n', 1)[0] ?? '';
const markdown = (text: string) => ({ text, html: `<p>${escapeHtml(text)}</p>` });
// Highlight lines and characters are 1-based (reference §3.3).
const highlights = (ranges: CommitMatch['ranges']) => ranges.map(([line, character, length]) => ({ line: line + 1, character: character + 1, length }));
// A type:diff match shows its hunks (fenced as diff), a type:commit match its message.
const matchBody = (m: CommitMatch) => (m.diffPreview ? `\`\`\`diff\n${m.diffPreview.value}\n\`\`\`` : `\`\`\`COMMIT_EDITOR\n${m.message}\n\`\`\``);
// The fence is line 1 of the body, so the text's own lines start at 2.
const bodyHighlights = (m: CommitMatch) => highlights((m.diffPreview?.ranges ?? m.ranges).map(([line, character, length]) => [line + 1, character, length] as const));

export const commitResolvers: Resolvers = {
  CommitSearchResult: {
    label: (p: CommitResultParent) => markdown(`[${p.repo.name}](${repoUrl(p.repo.name)}) › [${p.commitMatch.authorName}](${commitUrl(p)}): [${subjectOf(p.commitMatch.message)}](${commitUrl(p)})`),
    url: (p: CommitResultParent) => commitUrl(p),
    detail: (p: CommitResultParent) => markdown(`[\`${p.commitMatch.oid.slice(0, 7)}\` ${p.commitMatch.authorDate}](${commitUrl(p)})`),
    matches: (p: CommitResultParent) => [{ url: commitUrl(p), body: markdown(matchBody(p.commitMatch)), highlights: bodyHighlights(p.commitMatch) }],
    commit: (p: CommitResultParent): CommitParent => ({ repo: p.repo, oid: p.commitMatch.oid }),
    refs: () => [],
    sourceRefs: () => [],
    messagePreview: (p: CommitResultParent) => ({ value: p.commitMatch.message, highlights: highlights(p.commitMatch.ranges) }),
    diffPreview: (p: CommitResultParent) => (p.commitMatch.diffPreview ? { value: p.commitMatch.diffPreview.value, highlights: highlights(p.commitMatch.diffPreview.ranges) } : null),
  },
  Repository: {
    async contributors(p: RepoInfo, args: ContributorArgs, ctx: GraphQLContext) {
      const history = ctx.services.history;
      if (!history) throw createError('QUERY_UNSUPPORTED', 'commit history is not available on this server');
      if (args.revisionRange) throw createError('QUERY_UNSUPPORTED', 'contributors(revisionRange:) is not supported; contributors are counted on the default branch');
      const options = {
        ...(args.afterDate ? { after: parseDate(args.afterDate) } : {}),
        ...(args.path ? { path: args.path } : {}),
      };
      const people = await history.contributors(p.name, options, ctx.principal.canRead);
      const rows: ContributorParent[] = people.map((c) => ({ ...c, repo: p }));
      const key = new Map(rows.map((row, i) => [row, String(i).padStart(10, '0')]));
      return page(rows, args.first, args.after, (row) => key.get(row)!);
    },
  },
  RepositoryContributor: {
    person: (p: ContributorParent) => ({ name: p.name, email: p.email, displayName: p.name }),
    count: (p: ContributorParent) => p.count,
    repository: (p: ContributorParent) => p.repo,
  },
};
