/**
 * History tasks: list_refs, compare_revisions (with paths), commit_search, diff_search and
 * get_contributor_repos, pages followed by cursor, checked against git log, git diff and
 * git for-each-ref on the same mirrors at run time.
 */
import { changedFiles, contributorRepos, diffCommits, listedCommits, listedRefs, nextCall, offeredPathsCall, sectionChanges, suggestions, type ChangedFile } from './answers.js';
import { setsDisagree } from './checks.js';
import type { Source } from './session.js';
import type { Task } from './task.js';
import { PROJECTS, type Project, type Truth } from './truth.js';

/** `git diff --numstat base...head [-- pathspecs]` as `path +a -d` rows (binary files as `path binary`). */
async function numstat(truth: Truth, project: Project, base: string, head: string, pathspecs: readonly string[] = []): Promise<string[]> {
  const rows = await truth.lines(project, ['diff', '--numstat', '--no-renames', `${base}...${head}`, '--', ...pathspecs]);
  return rows.map((r) => {
    const [added, deleted, path] = r.split('\t') as [string, string, string];
    return added === '-' ? `${path} binary` : `${path} +${added} -${deleted}`;
  });
}

function rows(files: readonly ChangedFile[]): string[] {
  return files.map((f) => (f.added === null ? `${f.path} binary` : `${f.path} +${f.added} -${f.deleted}`));
}

/** Whether `short` (a commit id as an answer abbreviates it) names `full`. */
const sameCommit = (short: string, full: string): boolean => full.startsWith(short) && short.length >= 7;

export const HISTORY_TASKS: readonly Task[] = [
  {
    id: 'koa-compare-2.0.1', project: 'koa', kind: 'history',
    statement: 'In koa, list the 2.0 tags, then list every file that changed between 2.0.0 and 2.0.1 with its line counts, 10 files at a time.',
    async run(t, truth) {
      const refs = await t.call('list_refs', { repo: 'koa', query: '2.0' }, { repo: 'statement', query: 'statement' });
      const tags = listedRefs(refs.text).map((r) => r.name);
      t.need(['2.0.0', '2.0.1'].every((n) => tags.includes(n)) ? tags : null, refs, 'tags 2.0.0 and 2.0.1 are not both listed');
      const first = await t.call('compare_revisions', { repo: 'koa', base: '2.0.0', head: '2.0.1', first: 10 }, { repo: 'statement', base: refs, head: refs, first: 'statement' });
      const pages = await t.allPages(first);
      const listed = pages.flatMap((p) => rows(changedFiles(p.text)));
      t.check(pages.length >= 2, first, 'one page held every file: nothing to follow');
      const differs = setsDisagree('changed files and counts', listed, await numstat(truth, 'koa', '2.0.0', '2.0.1'));
      t.check(differs === null, pages.at(-1)!, differs ?? '');
      return `${listed.length} changed files over ${pages.length} pages, counts as git diff --numstat 2.0.0...2.0.1`;
    },
  },
  {
    id: 'gin-binding-compare-paths', project: 'gin', kind: 'history',
    statement: 'In gin-gonic/gin, list the v1.9 tags, then show what changed in the .go files of the binding directory between v1.9.0 and v1.9.1.',
    async run(t, truth) {
      const refs = await t.call('list_refs', { repo: 'gin-gonic/gin', query: 'v1.9' }, { repo: 'statement', query: 'statement' });
      const tags = listedRefs(refs.text).map((r) => r.name);
      t.need(['v1.9.0', 'v1.9.1'].every((n) => tags.includes(n)) ? tags : null, refs, 'tags v1.9.0 and v1.9.1 are not both listed');
      const diff = await t.call('compare_revisions', { repo: 'gin-gonic/gin', base: 'v1.9.0', head: 'v1.9.1', paths: ['binding/*.go'] }, { repo: 'statement', base: refs, head: refs, paths: 'statement' });
      t.answered(diff, 'compare the binding .go files only');
      const files = changedFiles(diff.text);
      const gitRows = await numstat(truth, 'gin', 'v1.9.0', 'v1.9.1', [':(glob)binding/*.go']);
      const differs = setsDisagree('binding .go files changed', rows(files), gitRows);
      t.check(differs === null, diff, differs ?? '');
      for (const file of files) {
        const shown = sectionChanges(diff.text, file.path);
        t.check(shown !== null && shown.added.length === file.added && shown.deleted.length === file.deleted, diff, `the hunks of ${file.path} are not all shown (+${shown?.added.length ?? 0} -${shown?.deleted.length ?? 0} of +${file.added} -${file.deleted})`);
      }
      return `${files.length} binding .go files changed, each with all its hunks, as git diff --numstat v1.9.0...v1.9.1 -- binding/*.go`;
    },
  },
  {
    id: 'ripgrep-compare-largest-source', project: 'ripgrep', kind: 'history',
    statement: 'In ripgrep, list the 14.1 tags, compare 14.1.0 with 14.1.1, and show the hunks of the Rust source file (.rs) with the most changed lines.',
    async run(t, truth) {
      const refs = await t.call('list_refs', { repo: 'ripgrep', query: '14.1' }, { repo: 'statement', query: 'statement' });
      const tags = listedRefs(refs.text).map((r) => r.name);
      t.need(['14.1.0', '14.1.1'].every((n) => tags.includes(n)) ? tags : null, refs, 'tags 14.1.0 and 14.1.1 are not both listed');
      const diff = await t.call('compare_revisions', { repo: 'ripgrep', base: '14.1.0', head: '14.1.1' }, { repo: 'statement', base: refs, head: refs });
      const rust = changedFiles(diff.text).filter((f) => f.path.endsWith('.rs') && f.added !== null);
      const largest = t.need([...rust].sort((a, b) => b.added! + b.deleted! - (a.added! + a.deleted!))[0], diff, 'no .rs file listed with counts');
      let shownIn = diff;
      let shown = sectionChanges(diff.text, largest.path);
      if (shown === null) {
        const offer = t.need(offeredPathsCall(diff.text), diff, `the hunks of ${largest.path} are left out and no call to show them is offered`);
        t.need(offer.paths.some((p) => p.replace(/^\//, '') === largest.path) ? offer : null, diff, `the offered paths call does not name ${largest.path}`);
        shownIn = await t.call('compare_revisions', { ...offer, paths: [offer.paths.find((p) => p.replace(/^\//, '') === largest.path)!] }, { repo: diff, base: diff, head: diff, paths: diff });
        shown = t.need(sectionChanges(shownIn.text, largest.path), shownIn, `the hunks of ${largest.path} are still not shown`);
      }
      const gitRows = (await truth.lines('ripgrep', ['diff', '--numstat', '--no-renames', '14.1.0...14.1.1', '--', '*.rs'])).map((r) => r.split('\t'));
      const gitLargest = gitRows.sort((a, b) => Number(b[0]) + Number(b[1]) - Number(a[0]) - Number(a[1]))[0]!;
      t.check(largest.path === gitLargest[2], diff, `git's largest .rs change is ${gitLargest[2]} (+${gitLargest[0]} -${gitLargest[1]})`);
      t.check(shown.added.length === Number(gitLargest[0]) && shown.deleted.length === Number(gitLargest[1]), shownIn, `the hunks shown hold +${shown.added.length} -${shown.deleted.length}; git has +${gitLargest[0]} -${gitLargest[1]}`);
      return `${largest.path} (+${largest.added} -${largest.deleted}) is the largest .rs change, all its hunks shown${shownIn === diff ? '' : ' by the offered paths call'}`;
    },
  },
  {
    id: 'koa-compare-v-tags', project: 'koa', kind: 'history',
    statement: 'In koa, how many files changed between v2.5.0 and v2.6.0?',
    async run(t, truth) {
      const asked = { base: 'v2.5.0', head: 'v2.6.0' };
      const from: Record<'base' | 'head', Source> = { base: 'statement', head: 'statement' };
      let diff = await t.call('compare_revisions', { repo: 'koa', ...asked }, { repo: 'statement', ...from });
      // Each refusal names the revision it could not find; the agent takes the suggestion that is the same version.
      for (let tries = 0; diff.isError && tries < 2; tries++) {
        const missing = (['base', 'head'] as const).find((k) => diff.text.includes(`not found: ${asked[k]}`));
        const wanted = t.need(missing, diff, 'the error names no revision it could not find');
        const offered = suggestions(diff.text);
        asked[wanted] = t.need(offered.find((r) => r.replace(/^v/, '') === asked[wanted].replace(/^v/, '')), diff, `the error offers ${offered.join(', ') || 'no revision'} for ${asked[wanted]}`);
        from[wanted] = diff;
        diff = await t.call('compare_revisions', { repo: 'koa', ...asked }, { repo: 'statement', ...from });
      }
      t.answered(diff, 'compare the two releases');
      const stated = t.need(/^([\d,]+) files? changed/m.exec(diff.text)?.[1], diff, 'no count of changed files');
      const git = await truth.lines('koa', ['diff', '--name-only', '--no-renames', `${asked.base}...${asked.head}`]);
      t.check(Number(stated.replaceAll(',', '')) === git.length, diff, `git diff ${asked.base}...${asked.head} changes ${git.length} files`);
      return `${stated} files changed between ${asked.base} and ${asked.head}, as git diff counts`;
    },
  },
  {
    id: 'requests-cve-commits', project: 'requests', kind: 'history',
    statement: 'In requests, find the commits whose message mentions CVE.',
    async run(t, truth) {
      const first = await t.call('commit_search', { repos: ['requests'], messageTerms: ['CVE'] }, { repos: 'statement', messageTerms: 'statement' });
      t.answered(first, 'search the repository the statement names');
      const pages = await t.allPages(first);
      const listed = pages.flatMap((p) => listedCommits(p.text));
      const git = await truth.lines('requests', ['log', '-i', '-F', '--grep=CVE', '--format=%H', truth.head('requests')]);
      const matched = listed.map((c) => git.find((full) => sameCommit(c.commit, full)) ?? c.commit);
      const differs = setsDisagree('commits mentioning CVE', matched, git);
      t.check(differs === null, pages.at(-1)!, differs ?? '');
      return `${listed.length} commits, as git log -i --grep=CVE`;
    },
  },
  {
    id: 'ripgrep-author-repos', project: 'ripgrep', kind: 'history',
    statement: 'Find the ripgrep repository, the author of its latest commit, and every indexed repository that author has commits in, with the counts.',
    async run(t, truth) {
      const repos = await t.call('list_repos', { query: 'ripgrep' }, { query: 'statement' });
      const name = t.need(/^(\S*ripgrep)\b/m.exec(repos.text)?.[1], repos, 'no repository listed');
      const latest = await t.call('commit_search', { repos: [name] }, { repos: repos });
      t.answered(latest, 'search the repository list_repos named');
      const commit = t.need(listedCommits(latest.text)[0], latest, 'no commit listed');
      const email = t.need(/<([^>]+)>/.exec(commit.author)?.[1], latest, 'the author has no email');
      const contributed = await t.call('get_contributor_repos', { authors: [email] }, { authors: latest });
      const listed = contributedRows(contributed.text);
      const newest = (await truth.lines('ripgrep', ['log', '-1', '--format=%H %ae', truth.head('ripgrep')]))[0]!.split(' ');
      t.check(sameCommit(commit.commit, newest[0]!) && email === newest[1], latest, `git's latest commit is ${newest[0]} by ${newest[1]}`);
      const differs = setsDisagree(`repositories with commits by ${email}`, listed, await authorRows(truth, email));
      t.check(differs === null, contributed, differs ?? '');
      return `${email} made the latest ripgrep commit and has commits in ${listed.join(', ')}`;
    },
  },
  {
    id: 'gin-tree-latest-commit', project: 'gin', kind: 'history',
    statement: 'In gin-gonic/gin, find the latest commit that changed tree.go and read lines 1 to 20 of tree.go as of that commit.',
    async run(t, truth) {
      const commits = await t.call('commit_search', { repos: ['gin-gonic/gin'], files: ['tree.go'] }, { repos: 'statement', files: 'statement' });
      t.answered(commits, 'search the repository the statement names');
      const commit = t.need(listedCommits(commits.text)[0], commits, 'no commit listed');
      const read = await t.call('read_file', { repo: 'gin-gonic/gin', path: 'tree.go', revision: commit.commit, startLine: 1, endLine: 20 },
        { repo: 'statement', path: 'statement', revision: commits, startLine: 'statement', endLine: 'statement' });
      const git = (await truth.lines('gin', ['log', '-1', '--format=%H', truth.head('gin'), '--', '*tree.go*']))[0]!;
      t.check(sameCommit(commit.commit, git), commits, `git log -1 -- tree.go gives ${git}`);
      const gitFile = await truth.fileLines('gin', 'tree.go', git);
      const shown = read.text.split('\n').filter((l) => /^\d+: /.test(l)).map((l) => l.replace(/^\d+: /, ''));
      t.check(!read.isError && shown.length === 20 && shown.every((l, i) => l === gitFile[i]), read, 'lines 1-20 disagree with git show <commit>:tree.go');
      return `latest commit on tree.go ${commit.commit} (${commit.subject}); lines 1-20 as git shows them`;
    },
  },
  {
    id: 'koa-respond-first-added', project: 'koa', kind: 'history',
    statement: 'In koa, find the commit that first added a line with ctx.respond === false, following the pages of the diff search to the oldest.',
    async run(t, truth) {
      const first = await t.call('diff_search', { pattern: 'ctx.respond === false', repos: ['koa'], added: true }, { pattern: 'statement', repos: 'statement', added: 'statement' });
      t.answered(first, 'search the repository\'s history');
      const pages = await t.allPages(first);
      const commits = [...new Set(pages.flatMap((p) => diffCommits(p.text).map((c) => c.commit)))];
      const oldest = t.need(commits.at(-1), pages.at(-1)!, 'no commit listed');
      const touched = await truth.lines('koa', ['log', '-G', 'ctx\\.respond === false', '--format=%H', truth.head('koa')]);
      const adding: string[] = [];
      for (const commit of touched) {
        const diff = await truth.git('koa', ['show', '--format=', '-U0', commit]);
        if (diff.split('\n').some((l) => l.startsWith('+') && !l.startsWith('+++') && l.includes('ctx.respond === false'))) adding.push(commit);
      }
      const matched = commits.map((c) => adding.find((full) => sameCommit(c, full)) ?? c);
      const differs = setsDisagree('commits adding ctx.respond === false', matched, adding);
      t.check(differs === null, pages.at(-1)!, differs ?? '');
      t.check(sameCommit(oldest, adding.at(-1)!), pages.at(-1)!, `git's oldest is ${adding.at(-1)}`);
      return `${commits.length} commits added the line over ${pages.length} page(s); the first was ${oldest}, as git log -G finds`;
    },
  },
  {
    id: 'koa-throw-history-pages', project: 'koa', kind: 'history',
    statement: 'In koa, list every commit that added or removed a line with ctx.throw(, following the pages to the end.',
    async run(t, truth) {
      const first = await t.call('diff_search', { pattern: 'ctx.throw(', repos: ['koa'] }, { pattern: 'statement', repos: 'statement' });
      t.answered(first, 'search the repository\'s history');
      const pages = await t.allPages(first);
      t.check(nextCall(pages.at(-1)!.text) === null, pages.at(-1)!, `still more after ${pages.length} pages`);
      const commits = [...new Set(pages.flatMap((p) => diffCommits(p.text).map((c) => c.commit)))];
      const git = await truth.lines('koa', ['log', '-G', 'ctx\\.throw\\(', '--format=%H', truth.head('koa')]);
      const matched = commits.map((c) => git.find((full) => sameCommit(c, full)) ?? c);
      t.check(pages.length >= 2, first, 'one page held every commit: nothing to follow');
      const differs = setsDisagree('commits changing a ctx.throw( line', matched, git);
      t.check(differs === null, pages.at(-1)!, differs ?? '');
      return `${commits.length} commits over ${pages.length} pages, as git log -G lists them`;
    },
  },
  {
    id: 'koa-typo-commits-pages', project: 'koa', kind: 'history',
    statement: 'Find the koa repository and list every commit whose message mentions typo, following the pages to the end.',
    async run(t, truth) {
      const repos = await t.call('list_repos', { query: 'koa' }, { query: 'statement' });
      const name = t.need(/^(\S*\/koa)\b/m.exec(repos.text)?.[1], repos, 'no koa repository listed');
      const first = await t.call('commit_search', { repos: [name], messageTerms: ['typo'] }, { repos: repos, messageTerms: 'statement' });
      t.answered(first, 'search the repository list_repos named');
      const pages = await t.allPages(first);
      t.check(nextCall(pages.at(-1)!.text) === null, pages.at(-1)!, `still more after ${pages.length} pages`);
      const listed = pages.flatMap((p) => listedCommits(p.text));
      const git = await truth.lines('koa', ['log', '-i', '-F', '--grep=typo', '--format=%H', truth.head('koa')]);
      const matched = listed.map((c) => git.find((full) => sameCommit(c.commit, full)) ?? c.commit);
      t.check(pages.length >= 2, first, 'one page held every commit: nothing to follow');
      const differs = setsDisagree('commits mentioning typo', matched, git);
      t.check(differs === null, pages.at(-1)!, differs ?? '');
      return `${listed.length} commits over ${pages.length} pages, as git log -i --grep=typo`;
    },
  },
  {
    id: 'dependabot-repos-pages', project: 'all', kind: 'history',
    statement: 'Which indexed repositories have commits by dependabot, and how many each? Ask for 1 repository per answer and follow the pages.',
    async run(t, truth) {
      const first = await t.call('get_contributor_repos', { authors: ['dependabot'], limit: 1 }, { authors: 'statement', limit: 'statement' });
      const pages = await t.allPages(first);
      const listed = pages.flatMap((p) => contributedRows(p.text));
      t.check(pages.length >= 2, first, 'one page held every repository: nothing to follow');
      const differs = setsDisagree('repositories with dependabot commits', listed, await authorRows(truth, 'dependabot'));
      t.check(differs === null, pages.at(-1)!, differs ?? '');
      return `${listed.join(', ')} over ${pages.length} pages, as git log --author counts`;
    },
  },
  {
    id: 'ripgrep-refs-pages', project: 'ripgrep', kind: 'history',
    statement: 'How many branches and tags does ripgrep have? List its refs 100 at a time to the end.',
    async run(t, truth) {
      const first = await t.call('list_refs', { repo: 'ripgrep', limit: 100 }, { repo: 'statement', limit: 'statement' });
      const pages = await t.allPages(first);
      const refs = pages.flatMap((p) => listedRefs(p.text));
      t.check(nextCall(pages.at(-1)!.text) === null, pages.at(-1)!, `still more after ${pages.length} pages`);
      const git = await truth.lines('ripgrep', ['for-each-ref', '--format=%(refname)', 'refs/heads', 'refs/tags']);
      const named = refs.map((r) => `refs/${r.kind === 'branch' ? 'heads' : 'tags'}/${r.name}`);
      const differs = setsDisagree('refs', named, git);
      t.check(differs === null, pages.at(-1)!, differs ?? '');
      return `${refs.filter((r) => r.kind === 'branch').length} branches and ${refs.filter((r) => r.kind === 'tag').length} tags over ${pages.length} pages, as git for-each-ref`;
    },
  },
  {
    id: 'requests-simplejson-removed', project: 'requests', kind: 'history',
    statement: 'In requests, find the latest commit that removed a line importing simplejson, and read its message.',
    async run(t, truth) {
      const removed = await t.call('diff_search', { pattern: 'import simplejson', repos: ['requests'], removed: true }, { pattern: 'statement', repos: 'statement', removed: 'statement' });
      t.answered(removed, 'search the repository\'s history');
      const latest = t.need(diffCommits(removed.text)[0], removed, 'no commit listed');
      const message = await t.call('commit_search', { repos: [latest.repo], revisions: [latest.commit] }, { repos: removed, revisions: removed });
      t.answered(message, 'show the commit diff_search named');
      const shown = t.need(listedCommits(message.text)[0], message, `commit_search lists no commit at ${latest.commit}`);
      const touched = await truth.lines('requests', ['log', '-G', 'import simplejson', '--format=%H', truth.head('requests')]);
      let git: string | undefined;
      for (const commit of touched) {
        const diff = await truth.git('requests', ['show', '--format=', '-U0', commit]);
        if (diff.split('\n').some((l) => l.startsWith('-') && !l.startsWith('---') && l.includes('import simplejson'))) {
          git = commit;
          break;
        }
      }
      t.check(git !== undefined && sameCommit(latest.commit, git), removed, `git's latest removal is ${git}`);
      const subject = (await truth.lines('requests', ['log', '-1', '--format=%s', git!]))[0];
      t.check(sameCommit(shown.commit, git!) && shown.subject === subject, message, `git's subject is ${JSON.stringify(subject)}`);
      return `${latest.commit} removed it: "${shown.subject}"`;
    },
  },
];

function contributedRows(text: string): string[] {
  return contributorRepos(text).map((r) => `${r.repo} ${r.commits}`);
}

/** `repo count` for each indexed repository where git log --author (case-insensitive, fixed string) finds commits on the indexed branch. */
async function authorRows(truth: Truth, author: string): Promise<string[]> {
  const out: string[] = [];
  for (const project of Object.keys(PROJECTS) as Project[]) {
    const count = (await truth.lines(project, ['log', '-i', '-F', `--author=${author}`, '--format=%H', truth.head(project)])).length;
    if (count > 0) out.push(`${truth.repo(project)} ${count}`);
  }
  return out;
}
