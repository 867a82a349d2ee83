/**
 * Parses git's unified patch output (`git diff`/`git log -p` with a/ b/ prefixes) into files,
 * hunks and numbered lines. Hunk line counts decide where a hunk ends, so content that looks like
 * a header ("--- x" removed) is never mistaken for one. Pure: no git, no I/O.
 */
import { createError } from '../errors.js';
import type { DiffHunk, DiffLine, FileDiff, FileStatus } from './diff-model.js';

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)$/;

interface FileDraft {
  oldPath: string | null;
  newPath: string | null;
  status: FileStatus;
  binary: boolean;
  hunks: DiffHunk[];
  added: number;
  deleted: number;
}

export function parsePatch(text: string): FileDiff[] {
  const lines = text.split('\n');
  const files: FileDiff[] = [];
  let file: FileDraft | null = null;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.startsWith('diff --git ')) {
      if (file) files.push(file);
      file = startFile(line);
      i++;
      continue;
    }
    if (file === null) {
      i++;
      continue;
    }
    const hunk = HUNK_HEADER.exec(line);
    if (hunk) {
      i = readHunk(lines, i + 1, hunk, file);
      continue;
    }
    readHeaderLine(line, file);
    i++;
  }
  if (file) files.push(file);
  return files;
}

function startFile(line: string): FileDraft {
  const [oldPath, newPath] = headerPaths(line.slice('diff --git '.length));
  return { oldPath, newPath, status: 'modified', binary: false, hunks: [], added: 0, deleted: 0 };
}

function readHeaderLine(line: string, file: FileDraft): void {
  if (line.startsWith('new file mode')) {
    file.status = 'added';
    file.oldPath = null;
  } else if (line.startsWith('deleted file mode')) {
    file.status = 'deleted';
    file.newPath = null;
  } else if (line.startsWith('rename from ')) {
    file.status = 'renamed';
    file.oldPath = unquote(line.slice('rename from '.length));
  } else if (line.startsWith('rename to ')) {
    file.newPath = unquote(line.slice('rename to '.length));
  } else if (line.startsWith('copy from ')) {
    file.status = 'copied';
    file.oldPath = unquote(line.slice('copy from '.length));
  } else if (line.startsWith('copy to ')) {
    file.newPath = unquote(line.slice('copy to '.length));
  } else if (line.startsWith('--- ')) {
    const path = sidePath(line.slice(4), 'a/');
    if (path !== null) file.oldPath = path;
  } else if (line.startsWith('+++ ')) {
    const path = sidePath(line.slice(4), 'b/');
    if (path !== null) file.newPath = path;
  } else if (line.startsWith('Binary files ') || line === 'GIT binary patch') {
    file.binary = true;
  }
}

function readHunk(lines: readonly string[], start: number, header: RegExpExecArray, file: FileDraft): number {
  const oldStart = Number(header[1]);
  const oldCount = header[2] === undefined ? 1 : Number(header[2]);
  const newStart = Number(header[3]);
  const newCount = header[4] === undefined ? 1 : Number(header[4]);
  const body: DiffLine[] = [];
  let oldLeft = oldCount;
  let newLeft = newCount;
  let oldLine = oldStart;
  let newLine = newStart;
  let oldNoNewline = false;
  let newNoNewline = false;
  let i = start;
  while (i < lines.length && (oldLeft > 0 || newLeft > 0 || lines[i]!.startsWith('\\'))) {
    const line = lines[i]!;
    const kind = line[0];
    if (kind === '\\') {
      const last = body.at(-1);
      if (last?.kind !== '+') oldNoNewline = true;
      if (last?.kind !== '-') newNoNewline = true;
    } else if (kind === '+' && newLeft > 0) {
      body.push({ kind: '+', text: line.slice(1), oldLine: null, newLine: newLine++ });
      newLeft--;
      file.added++;
    } else if (kind === '-' && oldLeft > 0) {
      body.push({ kind: '-', text: line.slice(1), oldLine: oldLine++, newLine: null });
      oldLeft--;
      file.deleted++;
    } else if ((kind === ' ' || line === '') && oldLeft > 0 && newLeft > 0) {
      body.push({ kind: ' ', text: line.slice(1), oldLine: oldLine++, newLine: newLine++ });
      oldLeft--;
      newLeft--;
    } else {
      throw createError('GIT_FAILED', `unexpected line in a diff hunk of ${file.newPath ?? file.oldPath ?? '?'}: ${line.slice(0, 80)}`);
    }
    i++;
  }
  file.hunks.push({
    oldRange: { startLine: oldStart, lines: oldCount },
    newRange: { startLine: newStart, lines: newCount },
    section: header[5] ?? '',
    lines: body,
    oldNoNewlineAtEnd: oldNoNewline,
    newNoNewlineAtEnd: newNoNewline,
  });
  return i;
}

/** Paths of `a/X b/Y`; without a rename both sides are the same path, which settles where to split. */
function headerPaths(rest: string): [string | null, string | null] {
  if (rest.startsWith('"')) {
    const [first, after] = readQuoted(rest);
    const second = after.trimStart();
    const other = second.startsWith('"') ? readQuoted(second)[0] : second;
    return [stripPrefix(first, 'a/'), stripPrefix(other, 'b/')];
  }
  if (rest.endsWith('"')) {
    const open = rest.lastIndexOf(' "');
    return [stripPrefix(rest.slice(0, open), 'a/'), stripPrefix(readQuoted(rest.slice(open + 1))[0], 'b/')];
  }
  const half = (rest.length - 1) / 2;
  if (Number.isInteger(half) && rest.slice(2, half) === rest.slice(half + 3) && rest.startsWith('a/') && rest.slice(half, half + 3) === ' b/') {
    const path = rest.slice(2, half);
    return [path, path];
  }
  // A rename with spaces: the rename from/to lines that follow give the real paths.
  const split = rest.indexOf(' b/');
  return [stripPrefix(rest.slice(0, split), 'a/'), stripPrefix(rest.slice(split + 1), 'b/')];
}

/** The path on a `---`/`+++` line, or null for /dev/null. Git ends paths with spaces with a tab. */
function sidePath(value: string, prefix: string): string | null {
  const clean = value.endsWith('\t') ? value.slice(0, -1) : value;
  if (clean === '/dev/null') return null;
  return stripPrefix(unquote(clean), prefix);
}

function stripPrefix(path: string, prefix: string): string {
  return path.startsWith(prefix) ? path.slice(prefix.length) : path;
}

function unquote(value: string): string {
  return value.startsWith('"') ? readQuoted(value)[0] : value;
}

const ESCAPES: Readonly<Record<string, number>> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/** Reads git's C-style quoted path at the start of `text`; returns it and the text after the closing quote. */
function readQuoted(text: string): [string, string] {
  const bytes: number[] = [];
  let i = 1;
  while (i < text.length && text[i] !== '"') {
    if (text[i] === '\\') {
      const next = text[i + 1] ?? '';
      if (/[0-7]/.test(next)) {
        bytes.push(parseInt(text.slice(i + 1, i + 4), 8));
        i += 4;
        continue;
      }
      bytes.push(ESCAPES[next] ?? next.charCodeAt(0));
      i += 2;
      continue;
    }
    const char = String.fromCodePoint(text.codePointAt(i)!);
    bytes.push(...Buffer.from(char, 'utf8'));
    i += char.length;
  }
  return [Buffer.from(bytes).toString('utf8'), text.slice(i + 1)];
}
