/**
 * Turns a model's citations into links that open, and only for what the asking user may read:
 * `[repo/path:10-20]` (as the system prompt asks) and links to `<origin>/<repo>@<commit>/-/blob/…`
 * (as the tools print them) become sources; a citation of a repository the user cannot read, or
 * that does not exist, is left as plain text marked unverified and cites nothing.
 */
import { Citations } from './citations.js';
import type { ResearchTools } from './tools.js';

const BRACKETED = /\[([A-Za-z0-9._-]+(?:\/[^\s:\]]+)+):(\d+)(?:-(\d+))?\](?!\()/g;
const UNVERIFIED = ' (unverified)';

/** Splits `host/org/name/path…` at the repository the user can read: three segments first, then two and four. */
async function splitRepo(tools: ResearchTools, full: string): Promise<{ repo: string; path: string; commit: string } | null> {
  const parts = full.split('/');
  for (const n of [3, 2, 4]) {
    if (parts.length <= n) continue;
    const repo = parts.slice(0, n).join('/');
    const commit = await tools.commitOf(repo);
    if (commit !== null) return { repo, path: parts.slice(n).join('/'), commit };
  }
  return null;
}

export async function resolveCitations(text: string, tools: ResearchTools, origin: string): Promise<{ answer: string; citations: Citations }> {
  const citations = new Citations(origin);
  const replacements = new Map<string, string>();
  for (const m of text.matchAll(BRACKETED)) {
    if (replacements.has(m[0])) continue;
    const start = Number(m[2]);
    const end = Math.max(start, Number(m[3] ?? m[2]));
    const at = await splitRepo(tools, m[1]!);
    replacements.set(m[0], at === null ? `${m[1]}:${m[2]}${m[3] ? `-${m[3]}` : ''}${UNVERIFIED}` : citations.cite(at.repo, at.path, at.commit, start, end));
  }
  let answer = text.replace(BRACKETED, (whole) => replacements.get(whole) ?? whole);
  const escaped = origin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const blob = new RegExp(`\\[([^\\]]*)\\]\\(${escaped}/([^@\\s)]+)@([0-9a-f]{40})/-/blob/([^\\s)?%#]+)(?:(?:\\?|%3F)L(\\d+)(?:-(\\d+))?)?\\)`, 'g');
  const blobs = [...answer.matchAll(blob)];
  for (const m of blobs) {
    const [, label, repo, commit, encodedPath, a, b] = m as unknown as [string, string, string, string, string, string | undefined, string | undefined];
    const readable = (await tools.commitOf(repo)) !== null;
    const path = decodeURIComponent(encodedPath);
    answer = answer.replace(m[0], readable ? citations.cite(repo, path, commit, Number(a ?? 1), Number(b ?? a ?? 1), label) : `${label}${UNVERIFIED}`);
  }
  return { answer, citations };
}
