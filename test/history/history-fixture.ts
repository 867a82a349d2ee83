/**
 * A generated history for the history index tests, written with `git fast-import`: many small
 * commits over a few dozen files, renames with edits, deletions, a binary file holding a word, a
 * branch merged with an evil merge (changes only the merge makes), a very large diff, Latin-1
 * lines and mixed case. `logG` asks git itself which commits `git log -G` lists.
 */
import { execFileSync } from 'node:child_process';
import { git } from '../git/fixtures.js';

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima', 'mike', 'november'];
/** Words that appear in a few commits only: selective queries. */
export const RARE_WORDS = ['zephyrine', 'quokkaling', 'MixedCaseToken', 'mixedcasetoken'];

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

class Stream {
  readonly parts: Buffer[] = [];
  mark = 0;
  date = 1_600_000_000;

  text(value: string | Buffer): void {
    this.parts.push(typeof value === 'string' ? Buffer.from(value) : value);
  }

  commit(branch: string, message: string, files: readonly [string, string | Buffer | null][], options: { from?: number; merge?: number; renames?: readonly [string, string][] } = {}): number {
    const mark = ++this.mark;
    this.date += 3600;
    this.text(`commit refs/heads/${branch}\nmark :${mark}\ncommitter Dev <dev@example.com> ${this.date} +0000\ndata ${Buffer.byteLength(message)}\n${message}\n`);
    if (options.from !== undefined) this.text(`from :${options.from}\n`);
    if (options.merge !== undefined) this.text(`merge :${options.merge}\n`);
    for (const [from, to] of options.renames ?? []) this.text(`R ${from} ${to}\n`);
    for (const [path, content] of files) {
      if (content === null) {
        this.text(`D ${path}\n`);
        continue;
      }
      const bytes = typeof content === 'string' ? Buffer.from(content) : content;
      this.text(`M 100644 inline ${path}\ndata ${bytes.length}\n`);
      this.text(bytes);
      this.text('\n');
    }
    return mark;
  }
}

/** Writes the history into the bare repository `gitDir` (already initialised); `commits` small commits on main. */
export function writeHistory(gitDir: string, commits: number, seed = 7): void {
  const rand = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
  const files = new Map<string, string[]>();
  const stream = new Stream();
  let last = 0;
  const edit = (i: number): [string, string] => {
    const path = `src/f${Math.floor(rand() * 40)}.txt`;
    const lines = files.get(path) ?? [];
    const line = `${pick(WORDS)} ${pick(WORDS)} ${i}${i % 97 === 5 ? ` ${RARE_WORDS[(i / 97) % RARE_WORDS.length | 0]}` : ''}`;
    if (lines.length > 0 && rand() < 0.4) lines.splice(Math.floor(rand() * lines.length), 1);
    lines.splice(Math.floor(rand() * (lines.length + 1)), 0, line);
    files.set(path, lines);
    return [path, `${lines.join('\n')}\n`];
  };
  for (let i = 1; i <= commits; i++) {
    last = stream.commit('main', `change ${i}`, [edit(i)], last === 0 ? {} : { from: last });
    if (i === Math.floor(commits / 3)) {
      // A rename with an edit: only the changed line is a change, as git shows it with -M.
      const from = [...files.keys()][0]!;
      const content = [...files.get(from)!, 'renamedline quokkaling'];
      files.delete(from);
      files.set('moved/renamed.txt', content);
      last = stream.commit('main', 'rename with edit', [['moved/renamed.txt', `${content.join('\n')}\n`]], { from: last, renames: [[from, 'moved/renamed.txt']] });
    }
  }
  const binary = Buffer.concat([Buffer.from('binaryword zephyrine\0'), Buffer.alloc(64, 1)]);
  last = stream.commit('main', 'binary file', [['data/blob.bin', binary]], { from: last });
  const branch = stream.commit('topic', 'topic work', [['topic.txt', 'branchonly zephyrine\n']], { from: last });
  last = stream.commit('main', 'main meanwhile', [['main-side.txt', 'mainside\n']], { from: last });
  // The merge adds a line of its own: git log -G shows no diff for merges, so it never lists it.
  last = stream.commit('main', 'evil merge', [['topic.txt', 'branchonly zephyrine\nmergeonly evilword\n']], { from: last, merge: branch });
  const big = Array.from({ length: 150_000 }, (_, i) => (i === 120_000 ? 'haystackneedle here' : `filler line ${i} ${WORDS[i % WORDS.length]}`));
  last = stream.commit('main', 'very large diff', [['big/large.txt', `${big.join('\n')}\n`]], { from: last });
  last = stream.commit('main', 'latin-1 bytes', [['legacy/latin1.txt', Buffer.from('caf\xe9 latinword\n\xff\xfe rawbytes\n', 'latin1')]], { from: last });
  stream.commit('main', 'delete the binary', [['data/blob.bin', null]], { from: last });
  execFileSync('git', ['--git-dir', gitDir, 'fast-import', '--quiet'], { input: Buffer.concat(stream.parts), maxBuffer: 1 << 30 });
}

/** Appends `commits` more commits on main through fast-import (an incremental fetch's worth). */
export function appendHistory(gitDir: string, commits: number, word: string): void {
  const tip = git(gitDir, 'rev-parse', 'refs/heads/main');
  const parts: string[] = [];
  for (let i = 1; i <= commits; i++) {
    const message = `appended ${i}`;
    const content = `${word} appended ${i}\n`;
    parts.push(`commit refs/heads/main\nmark :${i}\ncommitter Dev <dev@example.com> ${1_900_000_000 + i * 60} +0000\ndata ${message.length}\n${message}\n`);
    parts.push(i === 1 ? `from ${tip}\n` : `from :${i - 1}\n`);
    parts.push(`M 100644 inline appended/a${i % 5}.txt\ndata ${Buffer.byteLength(content)}\n${content}\n`);
  }
  execFileSync('git', ['--git-dir', gitDir, 'fast-import', '--quiet'], { input: parts.join(''), maxBuffer: 1 << 30 });
}

/**
 * The commits `git log -G<regex>` lists from `rev`, newest first (case-insensitive unless told),
 * in the C locale Quarry runs git in: `.` then matches any byte, a Latin-1 one too.
 */
export function logG(gitDir: string, regex: string, options: { caseSensitive?: boolean; rev?: string } = {}): string[] {
  const out = execFileSync('git', ['--git-dir', gitDir, 'log', '--format=%H', ...(options.caseSensitive ? [] : ['-i']), `-G${regex}`, options.rev ?? 'refs/heads/main', '--'], { encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, LC_ALL: 'C' } });
  return out.split('\n').filter((l) => l !== '');
}
