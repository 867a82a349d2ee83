/**
 * Words programmers use for the same thing, so a question's words also find the code's: "remove"
 * finds `deleteEntry`, "regular expression" finds `to_regex`. General programming vocabulary, not
 * any one project's; each group is small so a word never drifts into an unrelated meaning.
 */
import { MIN_STEM, searchStem, stem } from './nls-stem.js';

/** Each group's words stand for one another. Plain words: stemmed when the table is built. */
const GROUPS: readonly (readonly string[])[] = [
  ['delete', 'remove', 'erase', 'drop'],
  ['create', 'construct', 'make'],
  ['configuration', 'settings', 'conf', 'cfg'],
  ['authentication', 'login', 'credentials', 'signin'],
  ['error', 'err', 'exception', 'failure'],
  ['start', 'begin', 'launch'],
  ['stop', 'halt', 'shutdown', 'terminate'],
  ['cancel', 'abort', 'unsubscribe'],
  ['wildcard', 'glob', 'fnmatch'],
  ['directory', 'folder'],
  ['temporary', 'tmp', 'temp'],
  ['execute', 'exec', 'invoke'],
  ['send', 'transmit', 'dispatch'],
  ['receive', 'recv'],
  ['display', 'render', 'show'],
  ['parse', 'tokenize', 'lex'],
  ['decode', 'unmarshal', 'deserialize'],
  ['encode', 'marshal', 'serialize'],
  ['convert', 'transform', 'translate'],
  ['validate', 'verify', 'check'],
  ['compare', 'cmp', 'equal'],
  ['search', 'lookup', 'find'],
  ['copy', 'clone', 'duplicate'],
  ['join', 'concat', 'concatenate', 'merge'],
  ['sort', 'order'],
  ['ignore', 'skip', 'exclude'],
  ['limit', 'max', 'maximum', 'cap'],
  ['minimum', 'min'],
  ['length', 'len', 'size'],
  ['number', 'num', 'count'],
  ['string', 'str'],
  ['character', 'char', 'rune'],
  ['integer', 'int'],
  ['boolean', 'bool'],
  ['timeout', 'deadline', 'expire', 'expiry', 'ttl'],
  ['wait', 'sleep', 'await'],
  ['retry', 'attempt', 'backoff'],
  ['cache', 'memoize', 'memo'],
  ['save', 'store', 'persist'],
  ['load', 'open', 'import'],
  ['close', 'dispose', 'release'],
  ['connection', 'conn', 'socket'],
  ['request', 'req'],
  ['response', 'resp', 'reply'],
  ['password', 'passwd', 'secret'],
  ['permission', 'privilege', 'acl', 'access'],
  ['message', 'msg'],
  ['event', 'signal'],
  ['listen', 'listener', 'subscribe', 'observe'],
  ['handler', 'callback', 'hook'],
  ['plugin', 'extension', 'addon', 'middleware'],
  ['route', 'endpoint'],
  ['url', 'uri', 'href', 'link'],
  ['option', 'flag', 'setting'],
  ['argument', 'arg', 'param', 'parameter'],
  ['default', 'fallback'],
  ['template', 'layout'],
  ['format', 'fmt'],
  ['color', 'colour', 'style', 'ansi'],
  ['escape', 'esc', 'quote'],
  ['whitespace', 'space', 'blank', 'trim'],
  ['indent', 'indentation', 'pad', 'align'],
  ['thread', 'worker', 'goroutine'],
  ['async', 'promise', 'future'],
  ['lock', 'mutex', 'semaphore'],
  ['queue', 'backlog'],
  ['schedule', 'scheduler', 'timer'],
  ['update', 'modify', 'patch'],
  ['insert', 'add', 'append', 'push'],
  ['register', 'registry'],
  ['fetch', 'download', 'retrieve'],
  ['upload', 'post'],
  ['encrypt', 'cipher', 'crypto'],
  ['hash', 'digest', 'checksum'],
  ['random', 'rand', 'rng'],
  ['compress', 'gzip', 'deflate', 'zip'],
  ['database', 'db', 'sql'],
  ['memory', 'mem', 'heap'],
  ['allocate', 'alloc', 'malloc'],
  ['free', 'dealloc'],
  ['pointer', 'ptr'],
  ['reference', 'ref'],
  ['index', 'idx'],
  ['position', 'pos', 'offset', 'location'],
  ['previous', 'prev', 'prior', 'last'],
  ['current', 'cur', 'curr'],
  ['source', 'src'],
  ['destination', 'dest', 'dst', 'target'],
  ['object', 'obj'],
  ['document', 'doc'],
  ['command', 'cmd'],
  ['context', 'ctx'],
  ['buffer', 'buf'],
  ['iterator', 'iter', 'iterate'],
  ['value', 'val'],
  ['variable', 'var'],
  ['attribute', 'attr', 'property', 'prop'],
  ['exit', 'quit'],
  ['terminal', 'tty', 'console'],
  ['output', 'stdout'],
  ['input', 'stdin'],
  ['stream', 'pipe'],
  ['process', 'proc', 'subprocess', 'spawn'],
  ['environment', 'env'],
  ['initialize', 'init', 'setup'],
  ['statistics', 'stats', 'metrics'],
  ['information', 'info'],
  ['description', 'desc'],
  ['library', 'lib'],
  ['package', 'pkg', 'module'],
  ['version', 'ver', 'release'],
];

/** Phrases that code writes as one word. */
const PHRASES: readonly (readonly [string, readonly string[]])[] = [
  ['regular expression', ['regex', 'regexp']],
  ['command line', ['argv']],
  ['child process', ['subprocess', 'spawn']],
  ['exit code', ['exitcode']],
  ['file system', ['filesystem']],
];

/**
 * Terms match as prefixes, so a short one must not start common words of its own: `cfg` may stand
 * for configuration, but `int` would also find every `interface`. These short forms are safe.
 */
const SHORT_FORMS = new Set(['cfg', 'env', 'ctx', 'err', 'msg', 'buf', 'tmp', 'fmt', 'cmd', 'src', 'dst', 'ptr', 'idx', 'len', 'obj', 'num', 'acl', 'tty', 'uri', 'url', 'esc', 'pkg', 'lib', 'doc', 'rng', 'lex', 'zip', 'max']);
const SHORTEST_TERM = 4;

/** The term a synonym is searched by, or null for a short one that is not a safe short form. */
function termOf(word: string): string | null {
  if (SHORT_FORMS.has(word)) return word;
  const term = searchStem(word);
  return term.length >= SHORTEST_TERM ? term : null;
}

const TABLE: ReadonlyMap<string, readonly string[]> = buildTable();

function buildTable(): Map<string, string[]> {
  const table = new Map<string, string[]>();
  for (const group of GROUPS) {
    const stems = [...new Set(group.map((w) => termOf(w)).filter((t): t is string => t !== null))];
    // Looked up by the term the question word is searched by (nls-terms uses searchStem too).
    for (const key of new Set(group.map((w) => searchStem(w)).filter((k) => k.length >= MIN_STEM))) {
      const known = table.get(key) ?? [];
      table.set(key, [...new Set([...known, ...stems.filter((other) => other !== key && !key.startsWith(other) && !other.startsWith(key))])]);
    }
  }
  return table;
}

/** Stems that mean what this stem means, other than itself. */
export function synonymsOf(stemmed: string): readonly string[] {
  return TABLE.get(stemmed) ?? [];
}

/** The one-word forms of the phrases in a question: the phrase's first word and its length in words. */
export function phraseSynonyms(words: readonly string[]): { readonly at: number; readonly length: number; readonly terms: readonly string[] }[] {
  const lower = words.map((w) => w.toLowerCase());
  const out: { at: number; length: number; terms: readonly string[] }[] = [];
  for (const [phrase, terms] of PHRASES) {
    const parts = phrase.split(' ');
    for (let i = 0; i + parts.length <= lower.length; i++) {
      if (parts.every((p, k) => stem(lower[i + k]!) === stem(p))) out.push({ at: i, length: parts.length, terms });
    }
  }
  return out;
}
