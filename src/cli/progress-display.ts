/**
 * Shows an index run's phases on stderr: on a terminal one redrawn bar per phase with rate and
 * ETA; elsewhere (a pipe, a log) plain lines at a phase's start, every few seconds and at its end.
 */
import type { PhaseProgress, ProgressListener } from '../indexer/index-progress.js';

export interface ProgressSink {
  readonly isTTY: boolean;
  write(text: string): void;
}

const BAR_WIDTH = 24;
const REDRAW_MS = 100;
const PLAIN_EVERY_MS = 5000;

export function progressDisplay(name: string, sink: ProgressSink): { readonly listener: ProgressListener; clear(): void } {
  let lastDraw = 0;
  let drawn = false;
  const listener: ProgressListener = (p) => {
    const now = Date.now();
    const starting = p.done === 0 && !p.finished;
    if (!p.finished && !starting && now - lastDraw < (sink.isTTY ? REDRAW_MS : PLAIN_EVERY_MS)) return;
    lastDraw = now;
    if (sink.isTTY) {
      sink.write(`\r\x1b[K${barLine(name, p)}${p.finished ? '\n' : ''}`);
      drawn = !p.finished;
    } else sink.write(`${plainLine(name, p)}\n`);
  };
  return {
    listener,
    clear() {
      if (drawn) sink.write('\r\x1b[K');
      drawn = false;
    },
  };
}

function barLine(name: string, p: PhaseProgress): string {
  const fraction = p.total ? Math.min(p.done / p.total, 1) : p.finished ? 1 : 0;
  const filled = Math.round(fraction * BAR_WIDTH);
  const bar = `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}]`;
  return `${name} ${p.phase.padEnd(7)} ${bar} ${Math.floor(fraction * 100).toString().padStart(3)}% ${counts(p)}, ${rate(p)}, ${eta(p)}`;
}

function plainLine(name: string, p: PhaseProgress): string {
  return `${name}: ${p.finished ? 'done' : p.done === 0 ? 'started' : 'running'}: ${phaseSummary(p)}`;
}

/** One phase in a few words, for `quarry repos list`: "symbols 1200/4000 files (30%), 150 files/s, ETA 18s". */
export function phaseSummary(p: PhaseProgress): string {
  const percent = p.total ? ` (${Math.floor(Math.min(p.done / p.total, 1) * 100)}%)` : '';
  return `${p.phase} ${counts(p)}${percent}, ${rate(p)}, ${eta(p)}`;
}

function counts(p: PhaseProgress): string {
  const mib = p.bytes > 0 ? ` (${(p.bytes / 1048576).toFixed(1)} MiB)` : '';
  return `${p.done}${p.total === null ? '' : `/${p.total}`} ${p.unit}${mib}`;
}

function rate(p: PhaseProgress): string {
  return `${p.rate >= 100 ? Math.round(p.rate) : p.rate.toFixed(1)} ${p.unit}/s`;
}

function eta(p: PhaseProgress): string {
  if (p.finished) return `took ${duration((Date.now() - Date.parse(p.startedAt)) / 1000)}`;
  return p.etaSeconds === null ? 'ETA unknown' : `ETA ${duration(p.etaSeconds)}`;
}

function duration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m${String(s % 60).padStart(2, '0')}s` : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}
