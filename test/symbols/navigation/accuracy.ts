/**
 * Scores navigation on the labelled fixtures: top-1 definition accuracy per usage, and reference
 * precision and recall per definition (micro-averaged over lines), for Quarry or any other tool.
 */
import { usageOfReference, type DefinitionSite } from '../../../src/symbols/navigation/model.js';
import { SymbolLookup } from '../../../src/symbols/navigation/lookup.js';
import { findReferences } from '../../../src/symbols/navigation/references.js';
import { Resolver } from '../../../src/symbols/navigation/resolve.js';
import { FAKE_COMMIT } from '../fake-symbol-index.js';
import { lineKey, type LabelledLine, type LabelledSet, type LabelledUsage } from '../../fixtures/navigation-labels.js';
import { createParsedSymbolIndex } from './parsed-index.js';

/** What a tool answers: the top definition of one usage, and the references of one definition. */
export interface NavigationTool {
  definitionOf(usage: LabelledUsage): LabelledLine | null;
  referencesOf(definition: LabelledLine, name: string): readonly LabelledLine[];
}

export interface AccuracyScore {
  readonly usages: number;
  readonly correct: number;
  readonly misses: readonly string[];
  readonly truePositives: number;
  readonly reported: number;
  readonly expected: number;
}

export function precision(s: AccuracyScore): number {
  return s.reported === 0 ? 0 : s.truePositives / s.reported;
}

export function recall(s: AccuracyScore): number {
  return s.expected === 0 ? 0 : s.truePositives / s.expected;
}

export function score(set: LabelledSet, tool: NavigationTool): AccuracyScore {
  let correct = 0;
  const misses: string[] = [];
  for (const usage of set.usages) {
    const found = tool.definitionOf(usage);
    if (found !== null && lineKey(found) === lineKey(usage.definition)) correct++;
    else misses.push(`${usage.name} at ${lineKey(usage)}: expected ${lineKey(usage.definition)}, got ${found === null ? 'nothing' : lineKey(found)}`);
  }
  let truePositives = 0;
  let reported = 0;
  let expected = 0;
  const named = new Map(set.usages.map((u) => [lineKey(u.definition), u.name]));
  for (const [key, lines] of set.references) {
    const wanted = new Set(lines.map(lineKey));
    const definition = set.usages.find((u) => lineKey(u.definition) === key)!.definition;
    const got = new Set(tool.referencesOf(definition, named.get(key)!).map(lineKey));
    expected += wanted.size;
    reported += got.size;
    for (const k of got) if (wanted.has(k)) truePositives++;
  }
  return { usages: set.usages.length, correct, misses, truePositives, reported, expected };
}

/** Quarry's engine over the fixtures parsed by the real extraction. */
export function quarryTool(set: LabelledSet): NavigationTool {
  const index = createParsedSymbolIndex(set.files);
  const resolver = new Resolver(new SymbolLookup(index, () => true));
  const fileOf = (l: LabelledLine) => {
    const symbols = index.fileSymbols(l.repo, l.path);
    return symbols === null ? null : { repo: l.repo, commit: FAKE_COMMIT, path: l.path, symbols };
  };
  const siteOf = (site: DefinitionSite): LabelledLine => ({ repo: site.file.repo, path: site.file.path, line: site.definition.nameRange.startLine + 1 });
  return {
    definitionOf(usage) {
      const origin = fileOf(usage);
      const reference = origin?.symbols.references.find((r) => r.name === usage.name && r.range.startLine === usage.line - 1);
      if (!origin || !reference) return null;
      const best = resolver.resolve(origin, usageOfReference(reference))[0];
      return best === undefined ? null : siteOf(best.site);
    },
    referencesOf(definition, name) {
      const file = fileOf(definition);
      const index = file?.symbols.definitions.findIndex((d) => d.name === name && d.nameRange.startLine === definition.line - 1) ?? -1;
      if (!file || index < 0) return [];
      return findReferences(resolver, { file, index, definition: file.symbols.definitions[index]! }).sites
        .map((r) => ({ repo: r.file.repo, path: r.file.path, line: r.range.startLine + 1 }));
    },
  };
}
