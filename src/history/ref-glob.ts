/**
 * Shell-style globs over ref names (`*refs/heads/*`, `refs/tags/v1.?`, `refs/heads/[ab]*`), as
 * `git log --glob` reads them, matched in time proportional to name times glob length: a glob is
 * never turned into a backtracking regular expression, where `a*a*a*…` takes exponential time.
 */

type GlobToken = { readonly kind: 'star' } | { readonly kind: 'one' } | { readonly kind: 'set'; readonly test: (c: string) => boolean };

/** A test for names matching `glob` as a whole; a `[` with no closing `]` stands for itself. */
export function compileRefGlob(glob: string): (name: string) => boolean {
  const tokens = tokenize([...glob]);
  return (name) => matches(tokens, [...name]);
}

function tokenize(chars: readonly string[]): GlobToken[] {
  const tokens: GlobToken[] = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === '*') {
      if (tokens[tokens.length - 1]?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (c === '?') {
      tokens.push({ kind: 'one' });
    } else if (c === '[' && chars.indexOf(']', i + 2) > i) {
      const close = chars.indexOf(']', i + 2);
      tokens.push({ kind: 'set', test: bracket(chars.slice(i + 1, close)) });
      i = close;
    } else {
      tokens.push({ kind: 'set', test: (d) => d === c });
    }
  }
  return tokens;
}

/** `[abc]`, `[a-z]`, `[!x]` and `[^x]`. */
function bracket(body: readonly string[]): (c: string) => boolean {
  const negated = body[0] === '!' || body[0] === '^';
  const items = negated ? body.slice(1) : body;
  const ranges: [string, string][] = [];
  for (let i = 0; i < items.length; i++) {
    if (items[i + 1] === '-' && i + 2 < items.length) {
      ranges.push([items[i]!, items[i + 2]!]);
      i += 2;
    } else {
      ranges.push([items[i]!, items[i]!]);
    }
  }
  return (c) => ranges.some(([lo, hi]) => c >= lo && c <= hi) !== negated;
}

/** The greedy wildcard match: on a mismatch, only the last star is widened, so no state is revisited. */
function matches(tokens: readonly GlobToken[], name: readonly string[]): boolean {
  let t = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    const token = tokens[t];
    if (token?.kind === 'star') {
      star = t++;
      resume = n;
    } else if (token !== undefined && (token.kind === 'one' || token.test(name[n]!))) {
      t++;
      n++;
    } else if (star >= 0) {
      t = star + 1;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (tokens[t]?.kind === 'star') t++;
  return t === tokens.length;
}
