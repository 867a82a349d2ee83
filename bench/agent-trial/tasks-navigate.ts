/**
 * Navigation tasks: go_to_definition and find_references from a use an earlier search or the
 * statement names, reference pages followed by cursor. Definitions and uses are checked against
 * git grep and the files' lines at the indexed commit.
 */
import { fileHeaders, numberedLines, referenceSummary, referenceWindows, shownRange, type ReferenceWindow } from './answers.js';
import { enclosingDefinition, linesDisagree } from './checks.js';
import type { Answer, TaskRun } from './session.js';
import type { Task } from './task.js';
import type { Project, Truth } from './truth.js';

/** The definition an answer shows first: its path and first numbered line. */
function shownDefinition(t: TaskRun, answer: Answer): { path: string; line: number; text: string } {
  const header = t.need(fileHeaders(answer.text)[0], answer, 'no definition shown');
  const first = t.need(numberedLines(answer.text, header.path)[0], answer, 'the definition shows no lines');
  return { path: header.path, ...first };
}

/** Null when every window's lines are the file's at the indexed commit and hold `word`; else what is wrong. */
async function windowsDisagree(truth: Truth, project: Project, windows: readonly ReferenceWindow[], word: RegExp): Promise<string | null> {
  const files = new Map<string, string[]>();
  for (const w of windows) {
    if (!files.has(w.path)) files.set(w.path, await truth.fileLines(project, w.path));
    const lines = files.get(w.path)!;
    const wrong = w.lines.find((l) => lines[l.line - 1] !== l.text);
    if (wrong) return `${w.path}:${wrong.line} reads ${JSON.stringify(wrong.text)}, git has ${JSON.stringify(lines[wrong.line - 1])}`;
    if (!w.lines.some((l) => word.test(l.text))) return `the window at ${w.path}:${w.lines[0]?.line} (${w.scope}) holds no ${word.source}`;
  }
  return null;
}

export const NAVIGATE_TASKS: readonly Task[] = [
  {
    id: 'koa-respond-definition', project: 'koa', kind: 'navigate',
    statement: 'In koa, application.js calls respond(ctx): go to the definition of respond.',
    async run(t, truth) {
      const found = await t.call('keyword_search', { query: 'repo:koa file:application.js respond(ctx)' }, { query: 'statement' });
      const use = t.need(fileHeaders(found.text)[0], found, 'no file listed');
      const def = await t.call('go_to_definition', { repo: 'koa', path: use.path, symbol: 'respond' }, { repo: 'statement', path: found, symbol: 'statement' });
      const shown = shownDefinition(t, def);
      const git = await truth.grep('koa', ['-E', '-e', '^(async )?function respond ?\\('], []);
      t.check(git.length === 1 && shown.path === git[0]!.path && shown.line === git[0]!.line, def, `git grep finds respond defined at ${git.map((g) => `${g.path}:${g.line}`).join(', ')}`);
      t.check(linesDisagree(def.text, await truth.fileLines('koa', shown.path)) === null, def, 'the definition\'s lines disagree with git');
      return `respond is defined at ${shown.path}:${shown.line}`;
    },
  },
  {
    id: 'gin-engine-references', project: 'gin', kind: 'navigate',
    statement: 'In gin-gonic/gin, find the uses of the Engine type declared in gin.go, 20 at a time, and read the second page.',
    async run(t, truth) {
      const first = await t.call('find_references', { repo: 'gin-gonic/gin', path: 'gin.go', symbol: 'Engine', limit: 20 }, { repo: 'statement', path: 'statement', symbol: 'statement', limit: 'statement' });
      const second = await t.follow(first);
      const summary = t.need(referenceSummary(first.text), first, 'no total and definition stated');
      const one = referenceWindows(first.text);
      const two = referenceWindows(second.text);
      t.need(two, second, 'the second page shows no uses');
      const git = await truth.grep('gin', ['-e', '^type Engine struct'], ['*.go']);
      t.check(git.length === 1 && summary.path === git[0]!.path && summary.line === git[0]!.line, first, `git has type Engine struct at ${git.map((g) => `${g.path}:${g.line}`).join(', ')}`);
      // Pages count uses, not lines: a line with two uses may close one page and open the next.
      const [r1, r2] = [shownRange(first.text), shownRange(second.text)];
      t.check(r1 !== null && r2 !== null && r1.from === 1 && r2.from === r1.to + 1 && r2.of === r1.of, second, `pages show uses ${r1?.from}-${r1?.to} of ${r1?.of} and ${r2?.from}-${r2?.to} of ${r2?.of}`);
      const wrong = await windowsDisagree(truth, 'gin', [...one, ...two], /\bEngine\b/);
      t.check(wrong === null, second, wrong ?? '');
      const codeLines = (await truth.grep('gin', ['-w', '-e', 'Engine'], ['*.go'])).filter((h) => !/^\s*\/\//.test(h.text));
      t.check(summary.total <= codeLines.length, first, `${summary.total} uses stated, but only ${codeLines.length} code lines name Engine`);
      return `${summary.total} uses of Engine (gin.go:${summary.line}); pages 1 and 2 show ${one.length} and ${two.length} windows, all on lines naming Engine`;
    },
  },
  {
    id: 'requests-merge-setting-callers', project: 'requests', kind: 'navigate',
    statement: 'In requests, which functions call merge_setting? Start from its def.',
    async run(t, truth) {
      const found = await t.call('keyword_search', { query: 'repo:requests "def merge_setting"' }, { query: 'statement' });
      const at = t.need(fileHeaders(found.text)[0], found, 'no file listed');
      const refs = await t.call('find_references', { repo: 'requests', path: at.path, symbol: 'merge_setting' }, { repo: 'statement', path: found, symbol: 'statement' });
      const summary = t.need(referenceSummary(refs.text), refs, 'no total stated');
      const callers = [...new Set(referenceWindows(refs.text).map((w) => w.scope.replace(/^(?:function|method) (?:\w+\.)?/, '')))].sort();
      const calls = (await truth.grep('requests', ['-e', 'merge_setting('], ['*.py'])).filter((h) => !/^\s*def /.test(h.text));
      const gitCallers = new Set<string>();
      for (const call of calls) gitCallers.add(enclosingDefinition(await truth.fileLines('requests', call.path), call.line)?.name ?? 'file level');
      t.check(summary.total === calls.length, refs, `${summary.total} references stated; git grep finds ${calls.length} calls`);
      t.check(callers.join(',') === [...gitCallers].sort().join(','), refs, `callers shown: ${callers.join(', ')}; git: ${[...gitCallers].sort().join(', ')}`);
      return `${summary.total} calls of merge_setting, in ${callers.join(', ')}, as git grep finds`;
    },
  },
  {
    id: 'ripgrep-searcher-builder', project: 'ripgrep', kind: 'navigate',
    statement: 'In ripgrep, the core crate builds a SearcherBuilder: find where SearcherBuilder is defined.',
    async run(t, truth) {
      const found = await t.call('keyword_search', { query: 'repo:ripgrep file:core SearcherBuilder' }, { query: 'statement' });
      const use = t.need(fileHeaders(found.text)[0], found, 'no file listed');
      const def = await t.call('go_to_definition', { repo: 'ripgrep', path: use.path, symbol: 'SearcherBuilder' }, { repo: 'statement', path: found, symbol: 'statement' });
      const shown = shownDefinition(t, def);
      const git = await truth.grep('ripgrep', ['-E', '-e', '^\\s*pub struct SearcherBuilder\\b'], ['*.rs']);
      t.check(git.length === 1 && shown.path === git[0]!.path && shown.line === git[0]!.line, def, `git grep finds the struct at ${git.map((g) => `${g.path}:${g.line}`).join(', ')}`);
      t.check(linesDisagree(def.text, await truth.fileLines('ripgrep', shown.path)) === null, def, 'the definition\'s lines disagree with git');
      return `from ${use.path}, SearcherBuilder is defined at ${shown.path}:${shown.line}`;
    },
  },
  {
    id: 'gin-context-json', project: 'gin', kind: 'navigate',
    statement: 'In gin-gonic/gin, find a Go call of c.JSON(, go to the JSON method it calls, and list where that method is used.',
    async run(t, truth) {
      const found = await t.call('keyword_search', { query: 'repo:gin-gonic/gin lang:go c.JSON(' }, { query: 'statement' });
      const use = t.need(fileHeaders(found.text)[0], found, 'no file listed');
      const call = t.need(numberedLines(found.text, use.path).find((l) => /^\s*c\.JSON\(/.test(l.text)), found, 'no c.JSON( call shown outside comments');
      const def = await t.call('go_to_definition', { repo: 'gin-gonic/gin', path: use.path, symbol: 'JSON', line: call.line }, { repo: 'statement', path: found, symbol: 'statement', line: found });
      const shown = shownDefinition(t, def);
      const refs = await t.call('find_references', { repo: 'gin-gonic/gin', path: shown.path, symbol: 'JSON', line: shown.line }, { repo: 'statement', path: def, symbol: 'statement', line: def });
      const summary = t.need(referenceSummary(refs.text), refs, 'no total stated');
      const git = await truth.grep('gin', ['-e', '^func (c \\*Context) JSON('], ['*.go']);
      t.check(git.length === 1 && shown.path === git[0]!.path && shown.line === git[0]!.line, def, `git has Context.JSON at ${git.map((g) => `${g.path}:${g.line}`).join(', ')}`);
      t.check(summary.path === shown.path && summary.line === shown.line, refs, `find_references resolved JSON to ${summary.path}:${summary.line}, not the definition shown`);
      const wrong = await windowsDisagree(truth, 'gin', referenceWindows(refs.text), /\.JSON\(/);
      t.check(wrong === null, refs, wrong ?? '');
      return `c.JSON at ${use.path}:${call.line} resolves to ${shown.path}:${shown.line}; ${summary.total} uses, each window on a .JSON( call`;
    },
  },
];
