/**
 * Parses one file into FileSymbols, within bounds: big or minified files are skipped, a parse that
 * throws or overruns its time budget fails. One Parser per thread, reused; never throws.
 */
import Parser from 'tree-sitter';
import type { FileSymbols } from '../model/symbols.js';
import { languageOfPath } from '../query/languages.js';
import { extractSymbols, type CompiledLanguage } from './extract.js';
import { LineStarts } from './line-starts.js';
import { mergeFileSymbols, splitListDirectives } from './list-directives.js';
import { compiledLanguage } from './registry.js';

export const SYMBOLS_MAX_BYTES = 1024 * 1024;
/** A line this long is generated or minified code: no symbols worth the parse. */
export const SYMBOLS_MAX_LINE = 8 * 1024;
const PARSE_TIMEOUT_MICROS = 2_000_000;

export type SymbolOutcome =
  | { readonly status: 'ok'; readonly symbols: FileSymbols }
  | { readonly status: 'unsupported' | 'skipped' | 'failed' };

let parser: Parser | null = null;
const decoder = new TextDecoder();

export function parseFileSymbols(path: string, content: Uint8Array | string): SymbolOutcome {
  const source = prepare(path, content);
  if ('status' in source) return source;
  try {
    const split = source.compiled.spec.listDirectives === true ? splitListDirectives(source.text) : null;
    if (split === null) return { status: 'ok', symbols: extractSymbols(source.compiled, parseTree(source), source.text, source.lines) };
    const main = extractSymbols(source.compiled, parseTree(source, split.main), source.text, source.lines);
    const directives = extractSymbols(source.compiled, parseTree(source, split.directives), source.text, source.lines);
    return { status: 'ok', symbols: mergeFileSymbols(main, directives) };
  } catch {
    parser?.reset();
    return { status: 'failed' };
  }
}

/**
 * The parse alone, nothing extracted: the floor under symbol extraction's cost, for the index
 * benchmark. True when the file was parsed (same gates as parseFileSymbols).
 */
export function parseOnly(path: string, content: Uint8Array | string): boolean {
  const source = prepare(path, content);
  if ('status' in source) return false;
  try {
    parseTree(source);
    return true;
  } catch {
    parser?.reset();
    return false;
  }
}

interface Prepared {
  readonly compiled: CompiledLanguage;
  readonly text: string;
  readonly lines: LineStarts;
}

function prepare(path: string, content: Uint8Array | string): Prepared | { readonly status: 'unsupported' | 'skipped' | 'failed' } {
  const language = languageOfPath(path);
  if (!language) return { status: 'unsupported' };
  let compiled;
  try {
    compiled = compiledLanguage(language);
  } catch {
    return { status: 'failed' };
  }
  if (!compiled) return { status: 'unsupported' };
  if (content.length > SYMBOLS_MAX_BYTES) return { status: 'skipped' };
  const text = typeof content === 'string' ? content : decoder.decode(content);
  const lines = new LineStarts(text);
  if (lines.longestLine > SYMBOLS_MAX_LINE) return { status: 'skipped' };
  return { compiled, text, lines };
}

/** `text`: what to parse in place of the file's text, of the same length and lines. */
function parseTree({ compiled, text: original }: Prepared, text = original): Parser.Tree {
  parser ??= new Parser();
  parser.setLanguage(compiled.grammar as Parser.Language);
  parser.setTimeoutMicros(PARSE_TIMEOUT_MICROS);
  // Names and lines are read from the original text: the blanked one has the same offsets.
  const parsed = compiled.blankMacros ? compiled.blankMacros(text) : text;
  return parser.parse(parsed, null, { bufferSize: text.length * 2 + 2 });
}
