/**
 * The text of one diff search hit, one section per file so the answer budget can take a commit's
 * files one by one: `# repo – short commit – path`, author, date and subject, the matching hunks
 * cut to the lines around their matches (hunk-window.ts) with numbered lines, and each hunk's
 * match ranges.
 */
import { subjectOf, type CommitHit, type HunkHit } from '../../../history/diff-model.js';
import { matchWindows } from '../../../history/hunk-window.js';
import { fileHeader, truncateLine } from '../format.js';
import { commitUrl, hunkHeader } from './diff-repos.js';

const SHORT_OID = 12;
const MAX_LINE_CHARS = 256;

export function commitSections(origin: string, repo: string, hit: CommitHit): string[] {
  const { commit } = hit;
  const byPath = new Map<string, HunkHit[]>();
  for (const hunk of hit.hunks) {
    const path = hunk.newPath ?? hunk.oldPath ?? '';
    byPath.set(path, [...(byPath.get(path) ?? []), hunk]);
  }
  const about = `${commit.authorName} <${commit.authorEmail}> · ${commit.authorDate} · ${subjectOf(commit.message)}\n${commitUrl(origin, repo, commit.oid)}\n`;
  return [...byPath].map(([path, hunks]) => {
    const renamed = hunks[0]!.oldPath !== null && hunks[0]!.newPath !== null && hunks[0]!.oldPath !== hunks[0]!.newPath ? ` (renamed from ${hunks[0]!.oldPath})` : '';
    return `${fileHeader(repo, `${commit.oid.slice(0, SHORT_OID)} \u2013 ${path}`)}${renamed}\n${about}${hunks.flatMap((hunk) => matchWindows(hunk)).map(hunkText).join('')}`;
  });
}

function hunkText(hit: HunkHit): string {
  let text = `${hunkHeader(hit.hunk)}\n`;
  for (const line of hit.hunk.lines) {
    const number = line.kind === '-' ? line.oldLine : line.newLine;
    text += `${line.kind}${number}: ${truncateLine(line.text, MAX_LINE_CHARS)}\n`;
  }
  const ranges = hit.hits.flatMap((h) => h.ranges.map(([start, end]) => `${h.line.kind}${h.line.kind === '-' ? h.line.oldLine : h.line.newLine}:${start}-${end}`));
  return `${text}matches: ${ranges.join(', ')}\n`;
}
