/**
 * Dates of the `before:`/`after:` filters and the tools' before/after arguments (reference §2.8),
 * read as instants in UTC: relative (`2 weeks ago`, `yesterday`), calendar (`2024-01-31`,
 * `01/31/2024`, `november 2023`, `november 1 2019`), RFC 3339, clock times (`3pm`), Unix seconds.
 */
import { createError } from '../errors.js';

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const UNIT_SECONDS: Readonly<Record<string, number>> = { second: 1, minute: 60, hour: 3600, day: 86400, week: 604800 };

/** Unix seconds; `now` is in milliseconds. Throws INVALID_ARGUMENT naming the accepted forms. */
export function parseDate(input: string, now: number = Date.now()): number {
  const text = input.trim().toLowerCase().replace(/\s+/g, ' ');
  const seconds = parseKnown(text, now);
  if (seconds === null || !Number.isFinite(seconds)) {
    throw createError('INVALID_ARGUMENT', `cannot read "${input}" as a date: use forms such as "2 weeks ago", "yesterday", "2024-01-31", "01/31/2024", "november 2023" or "2024-01-31T12:00:00Z"`, { date: input });
  }
  return seconds;
}

function parseKnown(text: string, now: number): number | null {
  const nowSeconds = Math.floor(now / 1000);
  if (text === 'now') return nowSeconds;
  if (text === 'today') return startOfDay(now);
  if (text === 'yesterday') return startOfDay(now) - 86400;
  if (/^\d{9,}$/.test(text)) return Number(text);
  return relative(text, now) ?? clock(text, now) ?? numeric(text) ?? named(text) ?? iso(text);
}

function relative(text: string, now: number): number | null {
  const m = /^(\d+|an?|one) (second|minute|hour|day|week|month|year)s? ago$/.exec(text);
  if (!m) return null;
  const n = /^\d+$/.test(m[1]!) ? Number(m[1]) : 1;
  const unit = m[2]!;
  if (unit === 'month' || unit === 'year') {
    const d = new Date(now);
    if (unit === 'month') d.setUTCMonth(d.getUTCMonth() - n);
    else d.setUTCFullYear(d.getUTCFullYear() - n);
    return Math.floor(d.getTime() / 1000);
  }
  return Math.floor(now / 1000) - n * UNIT_SECONDS[unit]!;
}

function clock(text: string, now: number): number | null {
  const m = /^(\d{1,2})(?::(\d{2}))? ?(am|pm)$/.exec(text);
  if (!m) return null;
  const [hour12, minute] = [Number(m[1]), Number(m[2] ?? 0)];
  if (hour12 < 1 || hour12 > 12 || minute > 59) return null;
  return startOfDay(now) + ((hour12 % 12) + (m[3] === 'pm' ? 12 : 0)) * 3600 + minute * 60;
}

/** `2024-01-31`, `2024.1.31`, `2024/01/31`, `01/31/2024`, `1/31/2024`. */
function numeric(text: string): number | null {
  let m = /^(\d{4})[-./](\d{1,2})[-./](\d{1,2})$/.exec(text);
  if (m) return utc(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  if (m) return utc(Number(m[3]), Number(m[1]), Number(m[2]));
  return null;
}

/** `november 2023`, `nov 1 2019`, `november 1, 2019`, `1 november 2019`. */
function named(text: string): number | null {
  const month = (word: string): number => {
    const i = MONTHS.findIndex((name) => word.length >= 3 && name.startsWith(word.replace(/\.$/, '')));
    return i + 1;
  };
  let m = /^([a-z]+\.?) (\d{4})$/.exec(text);
  if (m && month(m[1]!) > 0) return utc(Number(m[2]), month(m[1]!), 1);
  m = /^([a-z]+\.?) (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})$/.exec(text);
  if (m && month(m[1]!) > 0) return utc(Number(m[3]), month(m[1]!), Number(m[2]));
  m = /^(\d{1,2}) ([a-z]+\.?),? (\d{4})$/.exec(text);
  if (m && month(m[2]!) > 0) return utc(Number(m[3]), month(m[2]!), Number(m[1]));
  return null;
}

/** RFC 3339 and the ISO 8601 forms around it; no zone means UTC. */
function iso(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[t ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(z|[+-]\d{2}:?\d{2})?$/.exec(text);
  if (!m) return null;
  const base = utc(Number(m[1]), Number(m[2]), Number(m[3]));
  const [hour, minute, second] = [Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
  if (base === null || hour > 23 || minute > 59 || second > 60) return null;
  const zone = m[7] ?? 'z';
  const offset = zone === 'z' ? 0 : (zone.startsWith('-') ? -1 : 1) * (Number(zone.slice(1, 3)) * 3600 + Number(zone.slice(-2)) * 60);
  return base + hour * 3600 + minute * 60 + second - offset;
}

function utc(year: number, month: number, day: number): number | null {
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return null;
  return d.getTime() / 1000;
}

function startOfDay(now: number): number {
  return Math.floor(now / 86_400_000) * 86400;
}
