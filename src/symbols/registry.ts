/**
 * The languages with symbol support, keyed by Quarry's canonical language name. Grammars load and
 * the three queries compile as one (one pass over each tree) on first use, once per thread; a
 * grammar that fails to load leaves its language unsupported rather than failing the index.
 */
import { createRequire } from 'node:module';
import Parser from 'tree-sitter';
import { attributeMacroBlanker } from './attribute-macros.js';
import type { CompiledLanguage } from './extract.js';
import type { LanguageSpec } from './language-spec.js';
import { ReferenceTypes } from './reference-tokens.js';
import { c } from './languages/c.js';
import { cpp } from './languages/cpp.js';
import { go } from './languages/go.js';
import { java } from './languages/java.js';
import { javascript } from './languages/javascript.js';
import { python } from './languages/python.js';
import { rust } from './languages/rust.js';
import { tsx, typescript } from './languages/typescript.js';

const SPECS: ReadonlyMap<string, LanguageSpec> = new Map([typescript, tsx, javascript, python, go, rust, java, c, cpp].map((s) => [s.language, s]));

const require = createRequire(import.meta.url);
const compiled = new Map<string, CompiledLanguage | null>();

export function symbolLanguages(): readonly string[] {
  return [...SPECS.keys()];
}

/** The compiled language, or null when Quarry has no symbol support for it. Throws on a broken query. */
export function compiledLanguage(language: string): CompiledLanguage | null {
  const cached = compiled.get(language);
  if (cached !== undefined) return cached;
  const spec = SPECS.get(language);
  const result = spec ? compile(spec) : null;
  compiled.set(language, result);
  return result;
}

function compile(spec: LanguageSpec): CompiledLanguage {
  const module = require(spec.grammar.module) as Record<string, unknown>;
  const grammar = spec.grammar.member ? module[spec.grammar.member] : module;
  const query = new Parser.Query(grammar as Parser.Language, `${spec.definitions}\n${spec.references}\n${spec.imports}`);
  const blankMacros = spec.attributeMacros ? attributeMacroBlanker(spec.attributeMacros) : null;
  return { spec, grammar, query, referenceTypes: new ReferenceTypes(spec.referenceTypes), blankMacros };
}
