/**
 * The trial's record: per task its outcome and calls, and the summary (tasks passed, calls,
 * tokens, call latency), as Markdown for people and as the JSON figures. Formatting only.
 */
import type { StepRecord } from './session.js';

export interface TaskOutcome {
  readonly id: string;
  readonly project: string;
  readonly kind: string;
  readonly statement: string;
  readonly passed: boolean;
  /** What the final answer was checked to say (passed), or why and where it stopped (failed). */
  readonly result: string;
  readonly failure: { readonly step: number; readonly kind: 'server' | 'wrong answer' } | null;
  /** Whether a step followed a next-page cursor an answer offered. */
  readonly followedCursor: boolean;
  readonly steps: readonly StepRecord[];
}

export interface Summary {
  readonly tasks: number;
  readonly passed: number;
  readonly calls: number;
  readonly errorAnswers: number;
  readonly tokens: number;
  readonly tokensPerTask: number;
  readonly p50Ms: number;
  readonly p90Ms: number;
  readonly maxMs: number;
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

export function summarize(outcomes: readonly TaskOutcome[]): Summary {
  const steps = outcomes.flatMap((o) => o.steps);
  const ms = steps.map((s) => s.ms).sort((a, b) => a - b);
  const tokens = steps.reduce((n, s) => n + s.tokens, 0);
  return {
    tasks: outcomes.length, passed: outcomes.filter((o) => o.passed).length, calls: steps.length,
    errorAnswers: steps.filter((s) => s.isError).length, tokens,
    tokensPerTask: outcomes.length === 0 ? 0 : Math.round(tokens / outcomes.length),
    p50Ms: quantile(ms, 0.5), p90Ms: quantile(ms, 0.9), maxMs: ms.at(-1) ?? 0,
  };
}

const fmt = (n: number): string => n.toLocaleString('en-US');

export function summaryTable(s: Summary): string[] {
  return [
    '| tasks passed | calls | error answers | total tokens | tokens per task | p50 call | p90 call | max call |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    `| ${s.passed}/${s.tasks} | ${s.calls} | ${s.errorAnswers} | ${fmt(s.tokens)} | ${fmt(s.tokensPerTask)} | ${s.p50Ms.toFixed(0)} ms | ${s.p90Ms.toFixed(0)} ms | ${s.maxMs.toFixed(0)} ms |`,
  ];
}

function taskRow(o: TaskOutcome): string {
  const tokens = o.steps.reduce((n, s) => n + s.tokens, 0);
  const tools = o.steps.map((s) => s.tool).join(' → ');
  return `| ${o.id} | ${o.project} | ${o.kind} | ${o.passed ? 'pass' : `**FAIL** (step ${o.failure?.step}, ${o.failure?.kind})`} | ${o.steps.length} | ${fmt(tokens)} | ${tools} |`;
}

function argText(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length > 90 ? `${text.slice(0, 87)}...` : text;
}

function taskDetail(o: TaskOutcome): string[] {
  const out = [`### ${o.id}: ${o.statement}`, '', `${o.passed ? 'Passed' : 'Failed'}: ${o.result}`, '',
    '| step | tool | arguments (source) | error | chars | tokens | ms |', '| ---: | --- | --- | :---: | ---: | ---: | ---: |'];
  for (const s of o.steps) {
    const args = Object.entries(s.args).map(([k, v]) => `${k}=${argText(v)} (${s.sources[k]})`).join('<br>').replaceAll('|', '\\|');
    out.push(`| ${s.step} | ${s.tool} | ${args} | ${s.isError ? 'yes' : ''} | ${fmt(s.chars)} | ${fmt(s.tokens)} | ${s.ms.toFixed(0)} |`);
  }
  return [...out, ''];
}

export function markdown(outcomes: readonly TaskOutcome[], header: readonly string[]): string {
  const s = summarize(outcomes);
  const failed = outcomes.filter((o) => !o.passed);
  const byKind = [...new Set(outcomes.map((o) => o.kind))].map((kind) => {
    const mine = outcomes.filter((o) => o.kind === kind);
    return `${kind} ${mine.filter((o) => o.passed).length}/${mine.length}`;
  });
  return [
    '# Agent trial: multi-step tasks through the MCP SDK client on real repositories', '',
    ...header, '',
    ...summaryTable(s), '',
    `By kind: ${byKind.join(', ')}. Tasks that followed a next-page cursor: ${outcomes.filter((o) => o.followedCursor).length}.`, '',
    '| task | project | kind | outcome | calls | tokens | tools |', '| --- | --- | --- | --- | ---: | ---: | --- |',
    ...outcomes.map(taskRow), '',
    ...(failed.length === 0 ? [] : ['## Failures', '', ...failed.map((o) => `- **${o.id}** (step ${o.failure?.step}, ${o.failure?.kind}): ${o.result}`), '']),
    '## Tasks', '',
    ...outcomes.flatMap(taskDetail),
  ].join('\n');
}
