/**
 * A generated repository with awkward content for differential tests: UTF-8, CRLF, long lines,
 * binary files, Latin-1 text, nested directories, empty files and a file over the size limit.
 */
import { commitAll, initRepo, writeFiles } from '../git/fixtures.js';
import { seededRandom } from '../helpers/random.js';

const WORDS = ['alpha', 'Beta', 'GAMMA', 'delta_epsilon', 'foo', 'bar', 'FooBar', 'fooBAR', 'struct', 'func', 'return', 'héllo', 'wörld', 'naïve', '日本語', 'x1', 'y2', 'ERR_CODE', 'err_code', '#include', '{', '}', ';', '(', ')', '=', '==', '->', '"str"', "'c'", '//', '/*', '*/', '0x1F', '42', 'tab\there'];

function line(next: () => number): string {
  const n = Math.floor(next() * 12);
  return Array.from({ length: n }, () => WORDS[Math.floor(next() * WORDS.length)]).join(next() < 0.8 ? ' ' : '');
}

function text(next: () => number, lines: number, eol: string): string {
  return Array.from({ length: lines }, () => line(next)).join(eol) + (next() < 0.7 ? eol : '');
}

/** Builds the corpus in `dir` and commits it; returns the commit oid. */
export function buildCorpus(dir: string, seed = 1, fileCount = 60): string {
  const next = seededRandom(seed);
  initRepo(dir);
  const files: Record<string, string | Buffer> = {};
  for (let i = 0; i < fileCount; i++) {
    const depth = Math.floor(next() * 4);
    const folder = Array.from({ length: depth }, (_, d) => `dir${d}${Math.floor(next() * 3)}`).join('/');
    const ext = ['.go', '.ts', '.c', '.h', '.py', '.md', '.txt', ''][Math.floor(next() * 8)];
    files[`${folder ? `${folder}/` : ''}file${i}${ext}`] = text(next, 1 + Math.floor(next() * 40), next() < 0.2 ? '\r\n' : '\n');
  }
  files['long/line.txt'] = `${'foo bar '.repeat(3000)}needle_at_end\nshort foo line\n`;
  files['empty.txt'] = '';
  files['latin1.txt'] = Buffer.from('caf\xe9 foo\nna\xefve bar\n', 'latin1');
  files['bin/data.bin'] = Buffer.concat([Buffer.from([0, 1, 2, 3]), Buffer.from('foo bar struct func\n')]);
  files['bin/image.png'] = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0x66, 0x6f, 0x6f]);
  files['big/huge.txt'] = 'foo needle huge\n'.repeat(9000);
  files['Makefile'] = 'all:\n\tgcc -o foo foo.c\n';
  files['nested/a/b/c/d/deep.go'] = 'package deep\n\nfunc Deep() string { return "foo" }\n';
  writeFiles(dir, files);
  return commitAll(dir, 'corpus');
}

/** Files the corpus puts over a 64 KiB limit. */
export const CORPUS_MAX_FILE_SIZE = 64 * 1024;

/**
 * Files large enough to get block maps (index/block-map.ts) and under CORPUS_MAX_FILE_SIZE, with words of the corpus planted
 * across 8 KiB block boundaries, and one whose lines hold a literal's parts but never the literal.
 */
export function largeFiles(seed = 2): Record<string, string> {
  const next = seededRandom(seed);
  const planted = ['needle', 'delta_epsilon foo', 'FooBar', 'héllo', 'err_code'];
  let straddling = '';
  for (const word of planted) {
    const boundary = (Math.floor(straddling.length / 8192) + 1) * 8192;
    const pad = boundary - straddling.length - Math.ceil(word.length / 2);
    straddling += `${'.'.repeat(Math.max(0, pad - 1))}\n${word} ${text(next, 30, '\n')}\n`;
  }
  // "need" and "eedle" hold every trigram of "needle", 16 KiB apart: no block holds them together.
  const lines = (prefix: string): string => Array.from({ length: 400 }, (_, i) => `${prefix} ${i} ${'-'.repeat(20)}`).join('\n');
  return {
    'large/generated.c': text(next, 1200, '\n'),
    'large/straddling.txt': straddling,
    'large/parts.txt': `${lines('need')}\n${'filler line\n'.repeat(1400)}${lines('eedle')}\n`,
  };
}

