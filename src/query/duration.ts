/**
 * Go duration strings (`500ms`, `10s`, `1m30s`, `1.5h`) as used by the `timeout:` filter.
 * Returns null for anything Go's time.ParseDuration would reject, and for negative durations.
 */

const UNIT_MS: ReadonlyMap<string, number> = new Map([
  ['ns', 1e-6], ['us', 1e-3], ['µs', 1e-3], ['μs', 1e-3], ['ms', 1], ['s', 1000], ['m', 60_000], ['h', 3_600_000],
]);
const PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;

/** Milliseconds, possibly fractional; `0` is the only unitless duration Go accepts. */
export function parseGoDurationMs(text: string): number | null {
  const body = text.startsWith('+') ? text.slice(1) : text;
  if (body === '0') return 0;
  if (body === '') return null;
  let total = 0;
  PART.lastIndex = 0;
  while (PART.lastIndex < body.length) {
    const match = PART.exec(body);
    if (!match) return null;
    total += Number(match[1]) * UNIT_MS.get(match[2]!)!;
  }
  // Drops float noise (0.1 * 1000 = 100.00000000000001) below a nanosecond.
  return Math.round(total * 1e6) / 1e6;
}
