/**
 * Scores navigation on the real-code labels: go_to_definition top-1 (with the usage's line and
 * without it) and find_references precision and recall (of the references claimed, and with the
 * same-named uses listed apart as unresolved), for Quarry, GNU global and ctags, each
 * half of the split apart, per language and per kind of usage. Prints Markdown, records the run,
 * and lists the tuning half's misses (never the held-out half's) with --misses.
 * Run: `bash bench/nav-real/fetch.sh && node dist/bench/nav-real/evaluate.js [--misses] [project…]`.
 */
import { join } from 'node:path';
import { REPO_ROOT } from '../paths.js';
import { writeSideRun } from '../record.js';
import { ctagsInstalled } from '../navigation-ctags.js';
import { globalInstalled } from '../navigation-global.js';
import { CATEGORIES, halfOf, isExternal, lineKey, loadRealLabels, PROJECT_LANGUAGES, type Half, type RealLabels, type RealReferenceSet, type RealUsage } from './labels.js';
import { openCtagsPeer, openGlobalPeer } from './peers.js';
import { openQuarry, type DefinitionAnswer, type NavigationUnderTest } from './quarry-nav.js';

interface UsageResult {
  readonly usage: RealUsage;
  readonly correct: boolean;
  readonly got: string;
}

interface ReferenceResult {
  readonly id: string;
  readonly project: string;
  readonly expected: number;
  readonly reported: number;
  readonly truePositives: number;
  readonly missed: readonly string[];
  readonly extra: readonly string[];
}

interface ToolRun {
  readonly tool: string;
  readonly withLine: readonly UsageResult[];
  readonly withoutLine: readonly UsageResult[];
  /** Scored on the references the tool claims. */
  readonly references: readonly ReferenceResult[] | null;
  /** Scored on those and the same-named uses it lists apart as unresolved. */
  readonly withNameMatches: readonly ReferenceResult[] | null;
}

function describe(answer: DefinitionAnswer): string {
  if (answer === null) return 'nothing';
  if ('external' in answer) return 'external';
  if ('error' in answer) return `error: ${answer.error.slice(0, 120)}`;
  return `${answer.project}/${lineKey(answer.at)}`;
}

/** An external name is answered right by "defined outside" or by no in-project definition at all. */
function judge(usage: RealUsage, answer: DefinitionAnswer): UsageResult {
  const got = describe(answer);
  if (isExternal(usage.definition)) return { usage, correct: answer === null || 'external' in answer, got };
  return { usage, correct: got === `${usage.project}/${lineKey(usage.definition)}`, got };
}

async function runTool(tool: NavigationUnderTest, labels: RealLabels, knowsPositions: boolean, knowsReferences: boolean): Promise<ToolRun> {
  const withLine: UsageResult[] = [];
  const withoutLine: UsageResult[] = [];
  for (const usage of labels.usages) {
    const without = judge(usage, await tool.definitionOf(usage, false));
    withoutLine.push(without);
    withLine.push(knowsPositions ? judge(usage, await tool.definitionOf(usage, true)) : without);
  }
  if (!knowsReferences) return { tool: tool.name, withLine, withoutLine, references: null, withNameMatches: null };
  const references: ReferenceResult[] = [];
  const withNameMatches: ReferenceResult[] = [];
  for (const set of labels.referenceSets) {
    const { claimed, nameMatches } = await tool.referencesOf(set);
    references.push(scoreReferences(set, claimed));
    withNameMatches.push(scoreReferences(set, [...claimed, ...nameMatches]));
  }
  return { tool: tool.name, withLine, withoutLine, references, withNameMatches };
}

function scoreReferences(set: RealReferenceSet, found: readonly string[]): ReferenceResult {
  const wanted = new Set(set.references.map((r) => `${set.project}/${lineKey(r)}`));
  const definitionKey = `${set.project}/${lineKey(set.definition)}`;
  const got = new Set(found.filter((k) => k !== definitionKey));
  const truePositives = [...got].filter((k) => wanted.has(k)).length;
  return {
    id: set.id, project: set.project, expected: wanted.size, reported: got.size, truePositives,
    missed: [...wanted].filter((k) => !got.has(k)), extra: [...got].filter((k) => !wanted.has(k)),
  };
}

const pct = (n: number, d: number): string => (d === 0 ? '–' : `${((100 * n) / d).toFixed(1)}%`);
const top1 = (rs: readonly UsageResult[]): string => `${rs.filter((r) => r.correct).length}/${rs.length} (${pct(rs.filter((r) => r.correct).length, rs.length)})`;

function refFigures(rs: readonly ReferenceResult[] | null): [string, string] {
  if (rs === null) return ['n/a', 'n/a'];
  const tp = rs.reduce((n, r) => n + r.truePositives, 0);
  return [pct(tp, rs.reduce((n, r) => n + r.reported, 0)), pct(tp, rs.reduce((n, r) => n + r.expected, 0))];
}

function inHalf<T>(items: readonly T[], half: Half, id: (t: T) => string): T[] {
  return items.filter((t) => halfOf(id(t)) === half);
}

function summaryTable(runs: readonly ToolRun[]): string[] {
  const out = [
    '| tool | half | top-1 with line | top-1 without line | reference precision | reference recall | with name matches: precision | recall |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const run of runs) {
    for (const half of ['tuning', 'held-out'] as const) {
      const [p, r] = refFigures(run.references === null ? null : inHalf(run.references, half, (x) => x.id));
      const [pn, rn] = refFigures(run.withNameMatches === null ? null : inHalf(run.withNameMatches, half, (x) => x.id));
      out.push(`| ${run.tool} | ${half} | ${top1(inHalf(run.withLine, half, (x) => x.usage.id))} | ${top1(inHalf(run.withoutLine, half, (x) => x.usage.id))} | ${p} | ${r} | ${pn} | ${rn} |`);
    }
  }
  return out;
}

function breakdown(runs: readonly ToolRun[], title: string, keyOf: (u: RealUsage) => string, keys: readonly string[], refKeyOf: ((project: string) => string) | null): string[] {
  const header = runs.flatMap((r) => [`${r.tool} with line (tuning / held-out)`, 'without line']);
  const out = [`| ${title} | n | ${header.join(' | ')} |${refKeyOf === null ? '' : ' Quarry ref P / R |'}`, `|---|---|${header.map(() => '---|').join('')}${refKeyOf === null ? '' : '---|'}`];
  for (const key of keys) {
    const cells = runs.flatMap((run) => [run.withLine, run.withoutLine].map((results) => {
      const mine = results.filter((r) => keyOf(r.usage) === key);
      return (['tuning', 'held-out'] as const).map((h) => top1(inHalf(mine, h, (x) => x.usage.id))).join(' / ');
    }));
    const n = runs[0]!.withLine.filter((r) => keyOf(r.usage) === key).length;
    if (n === 0) continue;
    let refs = '';
    if (refKeyOf !== null) {
      const [p, r] = refFigures(runs[0]!.references?.filter((x) => refKeyOf(x.project) === key) ?? null);
      refs = ` ${p} / ${r} |`;
    }
    out.push(`| ${key} | ${n} | ${cells.join(' | ')} |${refs}`);
  }
  return out;
}

function misses(run: ToolRun): string[] {
  const usageMisses = (results: readonly UsageResult[], how: string): string[] => results.filter((r) => !r.correct && halfOf(r.usage.id) === 'tuning').map((r) => {
    const u = r.usage;
    const want = isExternal(u.definition) ? `external ${u.definition.external}` : `${u.project}/${lineKey(u.definition)}`;
    return `- ${u.id} [${u.category}]${how} ${u.name} at ${u.project}/${u.path}:${u.line}:${u.column}: expected ${want}, got ${r.got}`;
  });
  const withLine = new Set(run.withLine.filter((r) => !r.correct).map((r) => r.usage.id));
  const lines = [...usageMisses(run.withLine, ''), ...usageMisses(run.withoutLine.filter((r) => !withLine.has(r.usage.id)), ' (without line only)')];
  for (const r of run.references ?? []) {
    if (halfOf(r.id) !== 'tuning') continue;
    if (r.missed.length > 0) lines.push(`- ${r.id} missed ${r.missed.length}: ${r.missed.slice(0, 8).join(', ')}`);
    if (r.extra.length > 0) lines.push(`- ${r.id} extra ${r.extra.length}: ${r.extra.slice(0, 8).join(', ')}`);
  }
  for (const r of run.withNameMatches ?? []) {
    if (halfOf(r.id) === 'tuning' && r.extra.length > 0) lines.push(`- ${r.id} extra with name matches ${r.extra.length}: ${r.extra.slice(0, 8).join(', ')}`);
  }
  return lines;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const showMisses = args.includes('--misses');
  const only = args.filter((a) => !a.startsWith('--'));
  const corpus = process.env['QUARRY_NAV_CORPUS'] ?? join(REPO_ROOT, 'bench', 'corpus', 'nav-real');
  const labels = loadRealLabels(corpus, only.length > 0 ? only : undefined);
  const projects = [...new Set([...labels.usages, ...labels.referenceSets].map((l) => l.project))].sort();
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  const runs: ToolRun[] = [];
  const quarry = await openQuarry(corpus, projects, log);
  try {
    runs.push(await runTool(quarry, labels, true, true));
  } finally {
    await quarry.close();
  }
  if (globalInstalled()) {
    const global = openGlobalPeer(corpus, projects);
    try {
      runs.push(await runTool(global, labels, false, true));
    } finally {
      await global.close();
    }
  } else log('GNU global is not installed (apt-get install global): left out');
  if (ctagsInstalled()) runs.push(await runTool(openCtagsPeer(corpus, projects), labels, false, false));
  else log('universal-ctags is not installed: left out');

  const languages = [...new Set(projects.map((p) => PROJECT_LANGUAGES[p]!))].sort();
  const text = [
    `Labelled set: ${labels.usages.length} usages and ${labels.referenceSets.length} reference sets (${labels.referenceSets.reduce((n, s) => n + s.references.length, 0)} references) in ${projects.length} projects (${languages.join(', ')}).`,
    `Halves: ${inHalf(labels.usages, 'tuning', (u) => u.id).length} tuning and ${inHalf(labels.usages, 'held-out', (u) => u.id).length} held-out usages; ${inHalf(labels.referenceSets, 'tuning', (s) => s.id).length} and ${inHalf(labels.referenceSets, 'held-out', (s) => s.id).length} reference sets.`,
    '', ...summaryTable(runs), '',
    ...breakdown(runs, 'language', (u) => PROJECT_LANGUAGES[u.project]!, languages, (p) => PROJECT_LANGUAGES[p]!), '',
    ...breakdown(runs.slice(0, 1), 'kind', (u) => u.category, CATEGORIES, null), '',
  ].join('\n');
  console.log(text);
  if (showMisses) console.log(['Quarry misses on the tuning half:', ...misses(runs[0]!)].join('\n'));
  if (only.length === 0) await writeSideRun('nav-real', text, runs.map((r) => ({ ...r, withLine: r.withLine.map(brief), withoutLine: r.withoutLine.map(brief) })));
}

function brief(r: UsageResult): { id: string; correct: boolean; got: string } {
  return { id: r.usage.id, correct: r.correct, got: r.got };
}

await main();
