/**
 * The sources an answer cites: each a file's lines at a commit, as a link that opens them
 * (`<origin>/<repo>@<commit>/-/blob/<path>?L<a>-<b>`), kept once per file and range in the order cited.
 */
import type { Source } from '../model/deepsearch.js';

export function blobLink(origin: string, repo: string, commit: string, path: string, startLine: number, endLine: number): string {
  const encoded = path.split('/').map(encodeURIComponent).join('/');
  const range = startLine === endLine ? `L${startLine}` : `L${startLine}-${endLine}`;
  return `${origin}/${repo}@${commit}/-/blob/${encoded}?${range}`;
}

export class Citations {
  private readonly byKey = new Map<string, Source>();

  constructor(private readonly origin: string) {}

  /** Records the source and returns its Markdown link, labelled `path:a-b` unless a label is given. */
  cite(repo: string, path: string, commit: string, startLine: number, endLine: number, label?: string): string {
    const link = blobLink(this.origin, repo, commit, path, startLine, endLine);
    const shown = label ?? `${path}:${startLine === endLine ? startLine : `${startLine}-${endLine}`}`;
    const key = `${repo}\0${path}\0${startLine}\0${endLine}`;
    if (!this.byKey.has(key)) this.byKey.set(key, { repo, path, commit, startLine, endLine, link, label: `${repo} – ${path}:${startLine}-${endLine}` });
    return `[${escapeLabel(shown)}](${link})`;
  }

  get sources(): Source[] {
    return [...this.byKey.values()];
  }

  /** Distinct files cited, in the order first cited. */
  get files(): string[] {
    return [...new Set(this.sources.map((s) => `${s.repo}/${s.path}`))];
  }
}

function escapeLabel(text: string): string {
  return text.replace(/([[\]\\])/g, '\\$1');
}

const FENCES: Readonly<Record<string, string>> = {
  ts: 'ts', tsx: 'tsx', js: 'js', mjs: 'js', cjs: 'js', jsx: 'jsx', py: 'python', go: 'go', rs: 'rust', java: 'java', c: 'c', h: 'c',
  cc: 'cpp', cpp: 'cpp', hpp: 'cpp', rb: 'ruby', sh: 'sh', md: 'markdown', json: 'json', yml: 'yaml', yaml: 'yaml', kt: 'kotlin', cs: 'csharp',
};

/** A fenced block of numbered lines, its language taken from the file's extension. */
export function quote(path: string, firstLine: number, lines: readonly string[]): string {
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  const body = lines.map((l, i) => `${firstLine + i}: ${l.length > 200 ? `${l.slice(0, 200)} …` : l}`).join('\n');
  const fence = body.includes('```') ? '~~~~' : '```';
  return `${fence}${FENCES[ext] ?? ''}\n${body}\n${fence}`;
}
