/**
 * file:, -file:, lang: and -lang: applied to a candidate set. Path patterns run as one scan over
 * the joined path column; languages are computed once per source and cached.
 */
import type { CompiledMatcher, PatternSpec } from '../matcher/matcher.js';
import type { SegmentSource } from '../index/store.js';
import { languageOfPath } from '../query/languages.js';
import { intersect, type DocSet } from '../index/doc-set.js';
import { docsWithHits, matchPaths } from './path-matches.js';
import type { ShardPlan } from './plan.js';

type Compile = (patterns: readonly PatternSpec[], preference: ShardPlan['matcher']) => CompiledMatcher;

const languageCache = new WeakMap<SegmentSource, (string | null)[]>();

export function filterDocs(candidates: DocSet, plan: ShardPlan, source: SegmentSource, lo: number, hi: number, compile: Compile): DocSet {
  let docs = candidates;
  if (plan.fileInclude.length > 0) {
    const hits = matchPaths(compile(plan.fileInclude, plan.matcher), source, lo, hi);
    for (let p = 0; p < plan.fileInclude.length; p++) docs = intersect(docs, docsWithHits(hits, p));
  }
  if (plan.fileExclude.length > 0) {
    const hits = matchPaths(compile(plan.fileExclude, plan.matcher), source, lo, hi);
    docs = keep(docs, lo, hi, (d) => hits.every((byDoc) => !byDoc.has(d)));
  }
  if (plan.langInclude.length > 0 || plan.langExclude.length > 0) {
    const langs = languagesOf(source);
    docs = keep(docs, lo, hi, (d) => {
      const lang = langs[d] ?? null;
      return plan.langInclude.every((l) => l === lang) && !plan.langExclude.some((l) => l === lang);
    });
  }
  return docs;
}

function keep(docs: DocSet, lo: number, hi: number, accept: (doc: number) => boolean): Uint32Array {
  const out: number[] = [];
  if (docs === null) {
    for (let d = lo; d < hi; d++) if (accept(d)) out.push(d);
  } else {
    for (const d of docs) if (accept(d)) out.push(d);
  }
  return Uint32Array.from(out);
}

function languagesOf(source: SegmentSource): (string | null)[] {
  let langs = languageCache.get(source);
  if (!langs) {
    langs = Array.from({ length: source.docCount }, (_, d) => languageOfPath(source.path(d)));
    languageCache.set(source, langs);
  }
  return langs;
}
