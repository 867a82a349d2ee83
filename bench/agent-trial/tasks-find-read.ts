/**
 * Find and read tasks: keyword_search, nls_search, list_files, list_refs and read_file, with the
 * server's suggestions for a path or revision the statement names loosely, and search pages
 * followed by cursor. Each checks its final answer against git at run time.
 */
import { fileHeaders, headerPaths, listedEntries, listedRefs, nextCall, numberedLines, sectionLines, suggestions, type NumberedLine } from './answers.js';
import { enclosingDefinition, linesDisagree, setsDisagree } from './checks.js';
import type { Task } from './task.js';
import type { Project, Truth } from './truth.js';

const MAX_FILE_BYTES = 1 << 20;

/** The answer's numbered lines as a file: line N at index N-1, lines not shown empty. */
function asFile(lines: readonly NumberedLine[]): string[] {
  const out: string[] = [];
  for (const { line, text } of lines) out[line - 1] = text;
  return Array.from(out, (l) => l ?? '');
}

/** Files of the indexed commit the engine would search: text files up to the size limit. */
async function searchableFiles(truth: Truth, project: Project): Promise<Set<string>> {
  const rows = await truth.lines(project, ['ls-tree', '-r', '-l', truth.head(project)]);
  return new Set(rows.map((r) => /^\S+ blob \S+\s+(\d+)\t(.+)$/.exec(r)).filter((m) => m !== null && Number(m[1]) <= MAX_FILE_BYTES).map((m) => m![2]!));
}

export const FIND_READ_TASKS: readonly Task[] = [
  {
    id: 'koa-body-sent', project: 'koa', kind: 'find',
    statement: 'In koa, find where the response body is sent and read the function that sends it.',
    async run(t, truth) {
      const found = await t.call('nls_search', { query: 'repo:koa response body sent' }, { query: 'statement' });
      const top = t.need(fileHeaders(found.text)[0], found, 'no file listed');
      const sent = t.need(numberedLines(found.text, top.path).find((l) => /\bend\(body\)/.test(l.text)), found, `the first file's chunks (${top.path}) show no line ending the response with the body`);
      const read = await t.call('read_file', { repo: 'koa', path: top.path }, { repo: 'statement', path: found });
      const fn = t.need(enclosingDefinition(asFile(numberedLines(read.text)), sent.line), read, `no function encloses line ${sent.line}`);
      const hits = (await truth.grep('koa', ['-F', '-e', 'end(body)'], ['lib/'])).filter((h) => !h.path.includes('test'));
      const first = hits[0]!;
      const gitFile = await truth.fileLines('koa', first.path);
      const gitFn = enclosingDefinition(gitFile, first.line)!;
      t.check(top.path === first.path && fn.name === gitFn.name && fn.line === gitFn.line, read, `the agent read ${fn.name} at ${top.path}:${fn.line}; git greps the body sent in ${gitFn.name} at ${first.path}:${gitFn.line}`);
      t.check(linesDisagree(read.text, gitFile) === null, read, `read_file disagrees with git: ${linesDisagree(read.text, gitFile)}`);
      return `function ${fn.name} at ${top.path}:${fn.line} sends the body (line ${sent.line}), as git grep finds`;
    },
  },
  {
    id: 'requests-environ-proxies', project: 'requests', kind: 'find',
    statement: 'In requests, find the function that gets proxy settings from the environment, and go to its definition.',
    async run(t, truth) {
      const found = await t.call('nls_search', { query: 'repo:requests proxy settings environment' }, { query: 'statement' });
      const call = t.need(sectionLines(found.text).map((l) => ({ ...l, name: /\b(\w*environ\w*prox\w*)\(/i.exec(l.text)?.[1] })).find((l) => l.name !== undefined && l.path !== null),
        found, 'no function named for both environment and proxies is shown');
      const def = await t.call('go_to_definition', { repo: 'requests', path: call.path!, symbol: call.name!, line: call.line }, { repo: 'statement', path: found, symbol: found, line: found });
      const header = t.need(fileHeaders(def.text)[0], def, 'no definition shown');
      const first = t.need(numberedLines(def.text, header.path)[0], def, 'the definition shows no lines');
      const git = await truth.grep('requests', ['-E', '-e', '^def \\w*environ\\w*prox\\w*\\('], ['*.py']);
      t.check(git.length === 1 && header.path === git[0]!.path && first.line === git[0]!.line, def, `git grep finds ${git.map((g) => `${g.path}:${g.line}`).join(', ')}`);
      t.check(linesDisagree(def.text, await truth.fileLines('requests', header.path)) === null, def, 'the definition\'s lines disagree with git');
      return `${call.name} (called at ${call.path}:${call.line}) is defined at ${header.path}:${first.line}`;
    },
  },
  {
    id: 'requests-merge-setting', project: 'requests', kind: 'read',
    statement: 'In requests, find the definition of merge_setting and read the 40 lines from its def.',
    async run(t, truth) {
      const found = await t.call('keyword_search', { query: 'repo:requests "def merge_setting"' }, { query: 'statement' });
      const top = t.need(fileHeaders(found.text)[0], found, 'no file listed');
      const def = t.need(numberedLines(found.text, top.path).find((l) => l.text.includes('def merge_setting')), found, 'the def line is not shown');
      const read = await t.call('read_file', { repo: 'requests', path: top.path, startLine: def.line, endLine: def.line + 40 },
        { repo: 'statement', path: found, startLine: found, endLine: { sum: [{ value: def.line, from: found }, { value: 40, from: 'statement' }] } });
      const git = (await truth.grep('requests', ['-e', '^def merge_setting(']))[0]!;
      const gitFile = await truth.fileLines('requests', git.path);
      const body = gitFile.slice(git.line - 1, git.line + 40);
      const returned = body.findIndex((l) => /^ {4}return merged_setting$/.test(l));
      t.check(top.path === git.path && def.line === git.line, read, `git has def merge_setting at ${git.path}:${git.line}`);
      t.check(linesDisagree(read.text, gitFile) === null && numberedLines(read.text).length === 41, read, `read_file disagrees with git or is not 41 lines: ${linesDisagree(read.text, gitFile)}`);
      t.check(returned >= 0, read, 'the 40 lines do not reach the function\'s return');
      return `${git.path}:${git.line}-${git.line + 40} read, through the function's return at line ${git.line + returned}`;
    },
  },
  {
    id: 'gin-json-binding', project: 'gin', kind: 'read',
    statement: 'In gin-gonic/gin, list the binding directory and read the file that implements JSON binding, up to its Bind method.',
    async run(t, truth) {
      const listed = await t.call('list_files', { repo: 'gin-gonic/gin', path: 'binding' }, { repo: 'statement', path: 'statement' });
      const entries = listedEntries(listed.text);
      const file = t.need(entries.find((e) => /(^|\/)json\.go$/.test(e)), listed, 'no json.go listed');
      const read = await t.call('read_file', { repo: 'gin-gonic/gin', path: file }, { repo: 'statement', path: listed });
      const bind = t.need(numberedLines(read.text).find((l) => /^func \(\w+\) Bind\(/.test(l.text)), read, 'no Bind method shown');
      const tree = (await truth.lines('gin', ['ls-tree', '--name-only', truth.head('gin'), 'binding/'])).map((p) => p);
      const dirs = new Set(await truth.lines('gin', ['ls-tree', '-d', '--name-only', truth.head('gin'), 'binding/']));
      const wanted = tree.map((p) => (dirs.has(p) ? `${p}/` : p));
      const differs = setsDisagree('binding/ entries', entries, wanted);
      t.check(differs === null, listed, differs ?? '');
      const git = (await truth.grep('gin', ['-e', '^func (jsonBinding) Bind('], ['binding/']))[0]!;
      t.check(file === git.path && bind.line === git.line, read, `git has the JSON Bind method at ${git.path}:${git.line}`);
      const gitFile = await truth.fileLines('gin', file);
      t.check(linesDisagree(read.text, gitFile) === null, read, `read_file disagrees with git: ${linesDisagree(read.text, gitFile)}`);
      return `${entries.length} entries as git ls-tree; jsonBinding.Bind at ${file}:${bind.line}`;
    },
  },
  {
    id: 'ripgrep-searcher-package', project: 'ripgrep', kind: 'read',
    statement: 'In ripgrep, list the crates directory, then the searcher crate, and read its Cargo.toml: what is the package called?',
    async run(t, truth) {
      const crates = await t.call('list_files', { repo: 'ripgrep', path: 'crates' }, { repo: 'statement', path: 'statement' });
      const dir = t.need(listedEntries(crates.text).find((e) => /(^|\/)searcher\/$/.test(e)), crates, 'no searcher directory listed');
      const inside = await t.call('list_files', { repo: 'ripgrep', path: dir.replace(/\/$/, '') }, { repo: 'statement', path: crates });
      const manifest = t.need(listedEntries(inside.text).find((e) => e.endsWith('/Cargo.toml')), inside, 'no Cargo.toml listed');
      const read = await t.call('read_file', { repo: 'ripgrep', path: manifest }, { repo: 'statement', path: inside });
      const name = t.need(numberedLines(read.text).map((l) => /^name = "([^"]+)"/.exec(l.text)?.[1]).find((n) => n !== undefined), read, 'no package name shown');
      const gitDirs = (await truth.lines('ripgrep', ['ls-tree', '-d', '--name-only', truth.head('ripgrep'), 'crates/'])).map((p) => `${p}/`);
      const differs = setsDisagree('crates/ directories', listedEntries(crates.text), gitDirs);
      t.check(differs === null, crates, differs ?? '');
      const gitFile = await truth.fileLines('ripgrep', manifest);
      const gitName = gitFile.map((l) => /^name = "([^"]+)"/.exec(l)?.[1]).find((n) => n !== undefined);
      t.check(name === gitName, read, `git's ${manifest} names the package ${gitName}`);
      return `${manifest} names the package ${name}`;
    },
  },
  {
    id: 'requests-timeout-pages', project: 'requests', kind: 'find',
    statement: 'In requests, list every file that mentions timeout (count:all), following the pages to the end.',
    async run(t, truth) {
      const first = await t.call('keyword_search', { query: 'repo:requests timeout count:all' }, { query: 'statement' });
      const pages = await t.allPages(first);
      const last = pages.at(-1)!;
      t.check(nextCall(last.text) === null, last, `still more after ${pages.length} pages`);
      const listed = pages.flatMap((p) => headerPaths(p.text));
      const searchable = await searchableFiles(truth, 'requests');
      const gitFiles = (await truth.lines('requests', ['grep', '-l', '-I', '-i', '-F', '-e', 'timeout', truth.head('requests')]))
        .map((l) => l.slice(l.indexOf(':') + 1)).filter((p) => searchable.has(p));
      const differs = setsDisagree('files mentioning timeout', listed, gitFiles);
      t.check(pages.length >= 2, first, 'the answer fit one page: nothing to follow');
      t.check(differs === null, last, differs ?? '');
      return `${listed.length} files over ${pages.length} pages, each once, as git grep -il lists them`;
    },
  },
  {
    id: 'gin-html-second-page', project: 'gin', kind: 'find',
    statement: 'In gin-gonic/gin, find the code about rendering HTML templates, and look at the second page of results too.',
    async run(t, truth) {
      const first = await t.call('nls_search', { query: 'repo:gin-gonic/gin rendering HTML templates' }, { query: 'statement' });
      const second = await t.follow(first);
      const one = headerPaths(first.text);
      const two = headerPaths(second.text);
      t.need(two, second, 'the second page lists no files');
      const git = (await truth.grep('gin', ['-e', '^func (r HTML) Render('])).map((h) => h.path);
      const exists = await searchableFiles(truth, 'gin');
      t.check(one.every((p) => !two.includes(p)), second, `files on both pages: ${one.filter((p) => two.includes(p)).join(', ')}`);
      t.check([...one, ...two].every((p) => exists.has(p)), second, 'a listed file is not in the indexed commit');
      t.check(git.length === 1 && one[0] === git[0], first, `the HTML renderer is defined in ${git.join(', ')}; page 1 starts with ${one[0]}`);
      return `page 1 starts with ${one[0]} (where git finds func (r HTML) Render); page 2 adds ${two.length} other files`;
    },
  },
  {
    id: 'requests-sessions-path', project: 'requests', kind: 'read',
    statement: 'In requests, read lines 1 to 30 of sessions.py.',
    async run(t, truth) {
      const guess = await t.call('read_file', { repo: 'requests', path: 'sessions.py', startLine: 1, endLine: 30 }, { repo: 'statement', path: 'statement', startLine: 'statement', endLine: 'statement' });
      let read = guess;
      if (guess.isError) {
        const path = t.need(suggestions(guess.text).find((p) => p.endsWith('/sessions.py')), guess, 'the error suggests no sessions.py path');
        read = await t.call('read_file', { repo: 'requests', path, startLine: 1, endLine: 30 }, { repo: 'statement', path: guess, startLine: 'statement', endLine: 'statement' });
      }
      const gitPaths = (await truth.lines('requests', ['ls-tree', '-r', '--name-only', truth.head('requests')])).filter((p) => p.endsWith('/sessions.py') || p === 'sessions.py');
      const path = read.args['path'] as string;
      t.check(gitPaths.length === 1 && gitPaths[0] === path, read, `git has ${gitPaths.join(', ')}`);
      const gitFile = await truth.fileLines('requests', path);
      t.check(linesDisagree(read.text, gitFile) === null && numberedLines(read.text).length === 30, read, `read_file disagrees with git or is not 30 lines: ${linesDisagree(read.text, gitFile)}`);
      return `${path} lines 1-30 as git has them${guess.isError ? ', by the path the error suggested' : ''}`;
    },
  },
  {
    id: 'gin-version-at-release', project: 'gin', kind: 'read',
    statement: 'In gin, which Version does version.go declare at release 1.9.1?',
    async run(t, truth) {
      const guess = await t.call('read_file', { repo: 'gin', path: 'version.go', revision: '1.9.1' }, { repo: 'statement', path: 'statement', revision: 'statement' });
      let read = guess;
      if (guess.isError) {
        const offered = suggestions(guess.text);
        const revision = t.need(offered.find((r) => r.replace(/^v/, '') === '1.9.1'), guess, `the error offers ${offered.join(', ') || 'no revision'}, none of them 1.9.1`);
        read = await t.call('read_file', { repo: 'gin', path: 'version.go', revision }, { repo: 'statement', path: 'statement', revision: guess });
      }
      const version = t.need(numberedLines(read.text).map((l) => /const Version = "([^"]+)"/.exec(l.text)?.[1]).find((v) => v !== undefined), read, 'no Version constant shown');
      const revision = read.args['revision'] as string;
      const gitFile = await truth.fileLines('gin', 'version.go', revision);
      const gitVersion = gitFile.map((l) => /const Version = "([^"]+)"/.exec(l)?.[1]).find((v) => v !== undefined);
      t.check(version === gitVersion && linesDisagree(read.text, gitFile) === null, read, `git show ${revision}:version.go declares ${gitVersion}`);
      return `version.go at ${revision} declares ${version}${guess.isError ? ' (revision taken from the error\'s suggestions)' : ''}`;
    },
  },
  {
    id: 'koa-newest-tag-version', project: 'koa', kind: 'read',
    statement: 'What is the newest tag of koa, and which version does package.json declare at that tag?',
    async run(t, truth) {
      const refs = await t.call('list_refs', { repo: 'koa' }, { repo: 'statement' });
      const tag = t.need(listedRefs(refs.text).find((r) => r.kind === 'tag'), refs, 'no tag listed on the first page');
      const read = await t.call('read_file', { repo: 'koa', path: 'package.json', revision: tag.name }, { repo: 'statement', path: 'statement', revision: refs });
      const version = t.need(numberedLines(read.text).map((l) => /^ {2}"version": "([^"]+)"/.exec(l.text)?.[1]).find((v) => v !== undefined), read, 'no version shown');
      const newest = (await truth.lines('koa', ['tag', '--sort=-v:refname']))[0];
      const gitVersion = (JSON.parse((await truth.fileLines('koa', 'package.json', newest)).join('\n')) as { version: string }).version;
      t.check(tag.name === newest, refs, `git tag --sort=-v:refname puts ${newest} first`);
      t.check(version === gitVersion, read, `package.json at ${newest} declares ${gitVersion}`);
      return `newest tag ${tag.name}, package.json version ${version}`;
    },
  },
];
