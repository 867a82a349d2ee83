/**
 * Seeded random RE2 patterns over a small alphabet that stresses case folding and UTF-8
 * (KELVIN SIGN, long s, é/É, ß/ẞ, \r, \n), each with a sampler producing text it likely matches.
 */

export interface RandomRegex {
  readonly source: string;
  sample(): string;
}

const ALPHABET = ['a', 'b', 'A', 'B', 'k', 'K', '\u212a', 's', 'S', '\u017f', 'é', 'É', 'ß', 'ẞ', '\n', '\r', ' ', '.', '_', '1', 'x', 'ο'];
const RE2_META = new Set('\\.+*?()|[]{}^$');

const CLASSES: readonly (readonly [string, string])[] = [
  ['[ab]', 'ab'],
  ['[^a]', 'bkK\n'],
  ['[a-c]', 'abc'],
  ['[é-ë]', 'éêë'],
  ['.', 'aé\r'],
  ['\\w', 'a_1K'],
  ['\\W', ' \n.é'],
  ['\\s', ' \n\r'],
  ['\\S', 'aé'],
  ['\\d', '1'],
  ['[[:alpha:]]', 'aB'],
  ['[kK]', 'kK\u212a'],
  ['[sS]', 'sS\u017f'],
  ['\\pL', 'aé\u212a'],
  ['\\p{Greek}', 'ο'],
  ['[^\\n]', 'a\r'],
  ['[ßẞ]', 'ßẞ'],
  ['(?s:.)', '\n'],
];

function escapeChar(c: string): string {
  if (c === '\n') return '\\n';
  if (c === '\r') return '\\r';
  return RE2_META.has(c) ? `\\${c}` : c;
}

export function randomText(random: () => number, maxLength: number): string {
  let out = '';
  const n = Math.floor(random() * (maxLength + 1));
  for (let i = 0; i < n; i++) out += ALPHABET[Math.floor(random() * ALPHABET.length)];
  return out;
}

export function randomRegex(random: () => number): RandomRegex {
  let groups = 0;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const swapCase = (s: string): string => (random() < 0.5 ? s.toUpperCase() : s.toLowerCase());

  function gen(depth: number, fold: boolean): RandomRegex {
    const roll = depth <= 0 ? random() * 0.45 : random();
    if (roll < 0.25) {
      const chars = Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(ALPHABET));
      return { source: chars.map(escapeChar).join(''), sample: () => chars.map((c) => (fold ? swapCase(c) : c)).join('') };
    }
    if (roll < 0.4) {
      const [source, members] = pick(CLASSES);
      return { source, sample: () => pick([...members]) };
    }
    if (roll < 0.45) {
      return { source: pick(['^', '$', '\\b', '\\B', '\\A', '\\z']), sample: () => '' };
    }
    if (roll < 0.6) {
      const parts = Array.from({ length: 2 + Math.floor(random() * 3) }, () => gen(depth - 1, fold));
      return { source: parts.map((p) => p.source).join(''), sample: () => parts.map((p) => p.sample()).join('') };
    }
    if (roll < 0.7) {
      const parts = Array.from({ length: 2 + Math.floor(random() * 2) }, () => gen(depth - 1, fold));
      return { source: `(?:${parts.map((p) => p.source).join('|')})`, sample: () => pick(parts).sample() };
    }
    if (roll < 0.82) {
      const body = gen(depth - 1, fold);
      const [op, min, max] = pick([['*', 0, 3], ['+', 1, 3], ['?', 0, 1], ['{2}', 2, 2], ['{1,3}', 1, 3], ['{0,2}', 0, 2], ['{2,}', 2, 4]] as const);
      const lazy = random() < 0.2 ? '?' : '';
      const sample = (): string => Array.from({ length: min + Math.floor(random() * (max - min + 1)) }, () => body.sample()).join('');
      return { source: `(?:${body.source})${op}${lazy}`, sample };
    }
    if (roll < 0.92) {
      const foldHere = random() < 0.5;
      const open = foldHere ? '(?i:' : pick(['(', '(?:', `(?P<g${groups + 1}>`]);
      if (open.startsWith('(') && !open.startsWith('(?:') && !open.startsWith('(?i')) groups++;
      const body = gen(depth - 1, fold || foldHere);
      return { source: `${open}${body.source})`, sample: body.sample };
    }
    if (roll < 0.96 && groups < 9) {
      const index = ++groups;
      const body = gen(depth - 1, fold);
      return {
        source: `(${body.source})\\${index}`,
        sample: () => {
          const s = body.sample();
          return s + s;
        },
      };
    }
    const body = gen(depth - 1, fold);
    const look = pick(['(?=', '(?!', '(?<=', '(?<!']);
    return { source: `${look}${body.source})`, sample: () => (look === '(?=' ? body.sample() : '') };
  }

  const fold = random() < 0.25;
  const root = gen(3, fold);
  return { source: (fold ? '(?i)' : '') + root.source, sample: root.sample };
}
