/**
 * Canonical text of a parsed query, used as cache key, log line and test assertion: equal queries
 * print equally, different ones differently. An S-expression, not meant to be parsed back.
 */
import type { BasicQuery, CommitFilters, Filters, PatternAtom, PatternExpr, Query } from './ast.js';

/**
 * One basic query prints as `(and <filters> <pattern terms>)`, or as its only item; several print as
 * `(union …)`. Filters come in a fixed field order, sorted within a field; defaults are omitted.
 */
export function queryToString(q: Query): string {
  const basics = q.basics.map(basicToString);
  return basics.length === 1 ? basics[0]! : `(union ${basics.join(' ')})`;
}

function basicToString(basic: BasicQuery): string {
  const items = filterStrings(basic.filters);
  const pattern = basic.pattern;
  if (pattern !== null) {
    const terms = pattern.kind === 'and' && items.length > 0 ? pattern.children : [pattern];
    items.push(...terms.map(patternToString));
  }
  return items.length === 1 ? items[0]! : `(and${items.map((item) => ` ${item}`).join('')})`;
}

function filterStrings(filters: Filters): string[] {
  const sorted = (values: string[]): string[] => values.sort();
  const sign = (negated: boolean): string => (negated ? '-' : '');
  return [
    ...sorted(filters.repos.map((repo) =>
      `${sign(repo.negated)}repo:${quote(repo.pattern)}${repo.revs.length > 0 ? `@${revsString(repo.revs)}` : ''}`)),
    ...(filters.revs.length > 0 ? [`rev:${revsString(filters.revs)}`] : []),
    ...sorted(filters.files.map((file) => `${sign(file.negated)}file:${quote(file.pattern)}`)),
    ...sorted(filters.langs.map((lang) => `${sign(lang.negated)}lang:${quote(lang.name)}`)),
    ...(filters.caseSensitive ? ['case:yes'] : []),
    ...sorted(filters.types.map((type) => `type:${type}`)),
    ...(filters.count !== null ? [`count:${filters.count}`] : []),
    ...(filters.timeoutMs !== null ? [`timeout:${filters.timeoutMs}ms`] : []),
    ...(filters.select !== null ? [`select:${quote(filters.select)}`] : []),
    ...(filters.fork !== null ? [`fork:${filters.fork}`] : []),
    ...(filters.archived !== null ? [`archived:${filters.archived}`] : []),
    ...(filters.patternType !== 'keyword' ? [`patterntype:${filters.patternType}`] : []),
    ...commitStrings(filters),
  ];
}

function commitStrings({ commit }: Filters): string[] {
  if (!commit) return [];
  const values = (field: string, list: CommitFilters['authors']): string[] =>
    list.map((v) => `${v.negated ? '-' : ''}${field}:${quote(v.pattern)}`).sort();
  return [
    ...values('author', commit.authors), ...values('committer', commit.committers), ...values('message', commit.messages),
    ...(commit.after !== null ? [`after:${quote(commit.after)}`] : []),
    ...(commit.before !== null ? [`before:${quote(commit.before)}`] : []),
  ];
}

function revsString(revs: readonly string[]): string {
  return revs.map(quote).join(':');
}

function patternToString(expr: PatternExpr): string {
  if (expr.kind === 'atom') return atomToString(expr);
  return `(${expr.kind}${expr.children.map((child) => ` ${patternToString(child)}`).join('')})`;
}

function atomToString(atom: PatternAtom): string {
  // Every `/` becomes `\/`, so the printed form is uniquely decodable even for values containing `\/`.
  const body = atom.regexp ? `/${atom.value.replaceAll('/', '\\/')}/` : JSON.stringify(atom.value);
  const text = atom.field === 'content' ? `content:${body}` : body;
  return atom.negated ? `(not ${text})` : text;
}

/** Bare when unambiguous: no space, quote, paren, `@` or `:` (they delimit revisions). */
function quote(value: string): string {
  return /^[^\s"'()@:]+$/.test(value) ? value : JSON.stringify(value);
}
