/**
 * A V8 CPU profile summed per function: self time (samples in the function itself) and inclusive
 * time (samples anywhere beneath it, a recursive function counted once per sample).
 */
import type { Profiler } from 'node:inspector';

export interface ProfileRow {
  /** Function name with the last two parts of its script path and its line. */
  readonly name: string;
  readonly selfMs: number;
  readonly totalMs: number;
}

export function summarizeProfile(profile: Profiler.Profile): ProfileRow[] {
  const sampledMicros = new Map<number, number>();
  const deltas = profile.timeDeltas ?? [];
  (profile.samples ?? []).forEach((id, i) => sampledMicros.set(id, (sampledMicros.get(id) ?? 0) + (deltas[i] ?? 0)));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parentOf.set(child, n.id);
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  for (const n of profile.nodes) {
    const micros = sampledMicros.get(n.id) ?? 0;
    if (micros === 0) continue;
    self.set(nameOf(n), (self.get(nameOf(n)) ?? 0) + micros);
    const counted = new Set<string>();
    for (let id: number | undefined = n.id; id !== undefined; id = parentOf.get(id)) {
      const name = nameOf(byId.get(id)!);
      if (counted.has(name)) continue;
      counted.add(name);
      total.set(name, (total.get(name) ?? 0) + micros);
    }
  }
  return [...total].map(([name, micros]) => ({ name, selfMs: (self.get(name) ?? 0) / 1000, totalMs: micros / 1000 }))
    .sort((a, b) => b.totalMs - a.totalMs);
}

function nameOf(node: Profiler.ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const script = url.split('/').slice(-2).join('/');
  // A nameless frame without a script is native code called from JavaScript (tree-sitter's parse and query run there).
  if (functionName === '' && script === '') return '(native code)';
  return `${functionName === '' ? '(anonymous)' : functionName}${script === '' ? '' : ` ${script}:${lineNumber + 1}`}`;
}
