/** Test helpers for src/regex: a seeded PRNG and evaluating a trigram query against a text. */

import { packTrigram, type TrigramQuery } from '../../src/model/trigram.js';

export { seededRandom } from '../helpers/random.js';

/** The trigrams of the text's UTF-8 bytes, as the index would store them. */
export function trigramsOfText(text: string): Set<number> {
  const bytes = Buffer.from(text, 'utf8');
  const out = new Set<number>();
  for (let i = 0; i + 3 <= bytes.length; i++) out.add(packTrigram(bytes[i] as number, bytes[i + 1] as number, bytes[i + 2] as number));
  return out;
}

export function evaluateQuery(query: TrigramQuery, trigrams: ReadonlySet<number>): boolean {
  switch (query.op) {
    case 'all':
      return true;
    case 'none':
      return false;
    case 'tri':
      return trigrams.has(query.trigram);
    case 'and':
    case 'near':
      return query.args.every((arg) => evaluateQuery(arg, trigrams));
    case 'or':
      return query.args.some((arg) => evaluateQuery(arg, trigrams));
  }
}

/** Compiles a planned pattern's JS source the way the JS matcher does. */
export function jsRegExp(spec: { readonly js: string; readonly caseless: boolean }, extraFlags = ''): RegExp {
  return new RegExp(spec.js, `u${spec.caseless ? 'i' : ''}${extraFlags}`);
}
