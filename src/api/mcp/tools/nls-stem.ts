/**
 * A light Porter-style suffix stripper for nls_search. Its stems are searched as prefixes of code
 * words, so a stem must stay a prefix of every form it stands for ("retry", "retries" → "retr").
 */

/** Stems shorter than this match too much of everything. */
export const MIN_STEM = 3;

/** [suffix, replacement, shortest stem left]: longest suffixes first, the first that applies wins. */
const SUFFIXES: readonly (readonly [string, string, number])[] = [
  ['ications', '', 4], ['ication', '', 4], ['icators', '', 4], ['icator', '', 4],
  ['icates', '', 4], ['icated', '', 4], ['icate', '', 4],
  ['izations', 'iz', 4], ['ization', 'iz', 4], ['izers', 'iz', 4], ['izer', 'iz', 4],
  ['izes', 'iz', 4], ['ized', 'iz', 4], ['izing', 'iz', 4], ['ize', 'iz', 4],
  ['ations', '', 4], ['ation', '', 4], ['ators', '', 4], ['ator', '', 4],
  ['ements', '', 4], ['ement', '', 4], ['ments', '', 4], ['ment', '', 4],
  ['nesses', '', 4], ['ness', '', 4], ['ables', '', 4], ['able', '', 4], ['ible', '', 4],
  ['ities', '', 4], ['ity', '', 4],
  ['ings', '', 3], ['ing', '', 3],
  ['ions', '', 4], ['ion', '', 4],
  ['ates', '', 4], ['ated', '', 4], ['ate', '', 4],
  ['ers', '', 4], ['er', '', 4],
  ['ies', '', 3], ['ied', '', 3],
  ['ly', '', 4],
  ['ed', '', 3],
  ['s', '', 3],
];

/** Letters Porter leaves doubled ("pass", "fill", "buzz"); other doubles come from -ing/-ed ("logg"). */
const KEEP_DOUBLE = new Set(['l', 's', 'z']);

export function stem(word: string): string {
  let out = word.toLowerCase();
  if (out.length <= MIN_STEM || !/^[a-z]+$/.test(out)) return out;
  out = stripSuffix(out);
  // A final "e" or "y" varies between forms (parse/parsing, retry/retries), so it never stays.
  if (/[ey]$/.test(out) && out.length - 1 >= MIN_STEM) out = out.slice(0, -1);
  const last = out[out.length - 1]!;
  if (out.length - 1 >= MIN_STEM && last === out[out.length - 2] && /[^aeiou]/.test(last) && !KEEP_DOUBLE.has(last)) out = out.slice(0, -1);
  return out;
}

/**
 * The term a question word is searched by: its stem, unless stemming cut the word to a short prefix
 * of unrelated words ("settings" → "set", "vary" → "var"): then the word itself, singular.
 */
export function searchStem(word: string): string {
  const stemmed = stem(word);
  return stemmed.length <= MIN_STEM && word.length > MIN_STEM ? word.toLowerCase().replace(/(?<=.{3})s$/, '') : stemmed;
}

function stripSuffix(word: string): string {
  for (const [suffix, replacement, shortest] of SUFFIXES) {
    if (!word.endsWith(suffix)) continue;
    const base = word.slice(0, -suffix.length);
    if (base.length < shortest) continue;
    // "status", "class", "analysis": a final s after u, s or i is part of the word.
    if (suffix === 's' && /[usi]$/.test(base)) return word;
    return base + replacement;
  }
  return word;
}

/**
 * Short forms code uses for common words: a stem here also searches its abbreviation, so
 * "configuration" finds `loadConfig`. Only abbreviations that are whole words in code are listed.
 */
const ABBREVIATIONS: Readonly<Record<string, string>> = {
  configur: 'config',
  authent: 'auth',
  authoriz: 'auth',
  connect: 'conn',
  initializ: 'init',
  environ: 'env',
  argu: 'arg',
  paramet: 'param',
  messag: 'msg',
  repositor: 'repo',
  director: 'dir',
  administr: 'admin',
};

export function abbreviationOf(stemmed: string): string | null {
  return ABBREVIATIONS[stemmed] ?? null;
}
