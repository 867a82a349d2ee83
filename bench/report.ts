/**
 * The run's summary as Markdown tables (printed, and saved as summary.md). Formatting only: every
 * figure arrives computed; the goals are judged in goals.ts.
 */
import type { QueryAgreement, QueryTimings } from './query-bench.js';
import { floorsTable } from './floors.bench.js';
import { csearchRatio, geomean, rgRatio, type Goal } from './goals.js';
import type { IndexResults } from './index-build.js';
import type { Timing } from './timing.js';

export interface SummaryInput {
  readonly title: string;
  readonly context: readonly string[];
  readonly index: IndexResults;
  readonly agreements: readonly QueryAgreement[];
  readonly timings: readonly QueryTimings[];
  readonly floors: readonly Timing[];
  readonly goals: readonly Goal[];
}

const MIB = 1024 * 1024;

function ms(value: number): string {
  return value < 10 ? value.toFixed(2) : value < 1000 ? value.toFixed(1) : value.toFixed(0);
}

function mib(bytes: number): string {
  return (bytes / MIB).toFixed(1);
}

function ratio(value: number): string {
  return `${value.toFixed(2)}x`;
}

function table(header: readonly string[], align: string, rows: readonly (readonly string[])[]): string[] {
  return [`| ${header.join(' | ')} |`, `|${align}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)];
}

function indexTable(r: IndexResults): string[] {
  const { quarryAdd: add, quarryIndex: idx, cindex } = r;
  return table(
    ['step', 'wall (s)', 'vs cindex', 'index size (MiB)', 'vs cindex', 'content (MiB)', 'peak RSS (MiB)'],
    ' --- | ---: | ---: | ---: | ---: | ---: | ---: ',
    [
      ['Quarry `repos add` (mirror clone)', add.wallSeconds.toFixed(2), '', '', '', '', (add.peakRssKiB / 1024).toFixed(0)],
      ['Quarry `index --threads 2`', idx.wallSeconds.toFixed(2), ratio(idx.wallSeconds / cindex.wallSeconds), mib(r.quarrySize.metaBytes), ratio(r.quarrySize.metaBytes / r.cindexBytes), mib(r.quarrySize.contentBytes), (idx.peakRssKiB / 1024).toFixed(0)],
      ['cindex', cindex.wallSeconds.toFixed(2), '1.00x', mib(r.cindexBytes), '1.00x', '(reads the worktree)', (cindex.peakRssKiB / 1024).toFixed(0)],
    ],
  );
}

function agreementTable(agreements: readonly QueryAgreement[]): string[] {
  return table(
    ['query', 'Quarry rows', 'rg rows', 'csearch rows', 'vs rg: compared / set aside (Q, rg)', 'vs csearch: compared / set aside (Q, cs)', 'agree'],
    ' --- | ---: | ---: | ---: | ---: | ---: | --- ',
    agreements.map((a) => {
      const [rg, cs] = a.comparisons;
      const ok = a.comparisons.every((c) => c.onlyQuarry.length === 0 && c.onlyContender.length === 0);
      return [
        a.query.id, String(a.rows.quarry), String(a.rows.rg), String(a.rows.csearch),
        `${rg!.quarryRows} / ${rg!.excludedQuarry}, ${rg!.excludedContender}`,
        `${cs!.quarryRows} / ${cs!.excludedQuarry}, ${cs!.excludedContender}`,
        ok ? 'yes' : '**NO**',
      ];
    }),
  );
}

function timingTable(agreements: readonly QueryAgreement[], timings: readonly QueryTimings[]): string[] {
  const rows = timings.map((t, i) => {
    const a = agreements[i]!;
    return [
      `${a.query.id}: \`${a.quarryQuery}\``, ms(t.quarryWarm.medianMs), ms(t.quarryOneShot.medianMs), ms(t.csearch.medianMs), ms(t.rg.medianMs),
      ratio(csearchRatio(t)), ratio(rgRatio(t)), String(a.rows.quarry), t.quarryWarm.medianMs <= t.csearch.medianMs ? 'pass' : '**FAIL**',
    ];
  });
  rows.push(['**geometric mean**', '', '', '', '', ratio(geomean(timings.map(csearchRatio))), ratio(geomean(timings.map(rgRatio))), '', '']);
  return table(
    ['query', 'Quarry warm (ms)', 'Quarry one-shot (ms)', 'csearch (ms)', 'rg (ms)', 'csearch/Quarry', 'rg/Quarry', 'matching lines', 'warm ≤ csearch'],
    ' --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- ',
    rows,
  );
}

function samplesTable(timings: readonly QueryTimings[]): string[] {
  const cell = (t: Timing): string => `${t.samplesMs.length} (±${t.rmePercent.toFixed(1)}%)`;
  return table(
    ['query', 'Quarry warm', 'Quarry one-shot', 'csearch', 'rg'],
    ' --- | ---: | ---: | ---: | ---: ',
    timings.map((t) => [t.id, cell(t.quarryWarm), cell(t.quarryOneShot), cell(t.csearch), cell(t.rg)]),
  );
}

function statsTable(agreements: readonly QueryAgreement[]): string[] {
  return table(
    ['query', 'candidates', 'docs scanned', 'MiB scanned', 'matcher', 'trigram lookups', 'candidates (ms)', 'verify (ms, summed over shards)', 'total (ms)'],
    ' --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: ',
    agreements.map(({ query, stats: s }) => [
      query.id, String(s.candidates), String(s.docsScanned), mib(s.bytesScanned), s.matchers.join('+'), String(s.trigramLookups),
      ms(s.candidatesMs), ms(s.verifyMs), ms(s.totalMs),
    ]),
  );
}

function goalsTable(goals: readonly Goal[]): string[] {
  return table(['goal', 'measured', 'target', 'result'], ' --- | --- | --- | --- ', goals.map((g) => [g.name, g.measured, g.target, g.pass ? 'pass' : '**FAIL**']));
}

export function summaryMarkdown(input: SummaryInput): string {
  return [
    `# ${input.title}`, '', ...input.context.map((c) => `- ${c}`), '',
    '## Goals', '', ...goalsTable(input.goals), '',
    '## Index build', '', ...indexTable(input.index), '',
    '## Agreement (path, line) before timing', '', ...agreementTable(input.agreements), '',
    'Compared: rows on files both sides searched. Set aside: Quarry rows in files the contender did not search ' +
      '(csearch: files cindex skipped), and contender rows in files Quarry skipped (binary, larger than 1 MiB). ' +
      'Any other difference fails the run before timing.', '',
    '## Query latency (medians)', '', ...timingTable(input.agreements, input.timings), '',
    'Samples per task (relative margin of error of the mean):', '', ...samplesTable(input.timings), '',
    '## Quarry search statistics (first run)', '', ...statsTable(input.agreements), '',
    '## Floors', '', ...floorsTable(input.floors), '',
  ].join('\n');
}
