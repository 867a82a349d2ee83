/**
 * Rust items reached through `pub use`, on excerpts of ripgrep 14.1.0: the ignore crate imports
 * `globset::{Glob, GlobBuilder}`, which globset's lib.rs re-exports from its glob module, while the
 * ignore crate defines a `Glob` of its own (gitignore.rs). Go to definition lands on the real item.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { definitionOf, everyone } from './nav-helpers.js';
import { createParsedSymbolIndex } from './parsed-index.js';

const REPO = 'github.com/BurntSushi/ripgrep';

const GLOBSET_LIB = [
  'pub use crate::glob::{Glob, GlobBuilder, GlobMatcher};', // 1
  '',
  'mod fnv;',
  'mod glob;',
].join('\n');

const GLOBSET_GLOB = [
  '#[derive(Clone, Debug, Eq)]',
  'pub struct Glob {', // 2
  '    glob: String,',
  '}',
  '',
  '#[derive(Clone, Debug)]',
  'pub struct GlobBuilder<\'a> {', // 7
  '    glob: &\'a str,',
  '}',
  '',
  'pub struct GlobMatcher {', // 11
  '    pat: Glob,',
  '}',
].join('\n');

const IGNORE_GITIGNORE = [
  'use {',
  '    globset::{Candidate, GlobBuilder, GlobSet, GlobSetBuilder},',
  '    regex_automata::util::pool::Pool,',
  '};',
  '',
  '#[derive(Clone, Debug)]',
  'pub struct Glob {', // 7
  '    from: Option<PathBuf>,',
  '}',
].join('\n');

const IGNORE_OVERRIDES = [
  'use globset::Glob;', // 1
  '',
  'fn parse(glob: &str) {',
  '    let parsed = GlobBuilder::new(glob);', // 4
  '    let plain = Glob::new(glob);', // 5
  '}',
].join('\n');

const index = createParsedSymbolIndex([
  { repo: REPO, path: 'crates/globset/src/lib.rs', content: GLOBSET_LIB },
  { repo: REPO, path: 'crates/globset/src/glob.rs', content: GLOBSET_GLOB },
  { repo: REPO, path: 'crates/ignore/src/gitignore.rs', content: IGNORE_GITIGNORE },
  { repo: REPO, path: 'crates/ignore/src/overrides.rs', content: `use globset::GlobBuilder;\n${IGNORE_OVERRIDES}` },
]);

test('a name imported from a workspace crate that re-exports it: the item in the module it comes from', () => {
  assert.equal(definitionOf(index, REPO, 'crates/ignore/src/overrides.rs', 'GlobBuilder', everyone, { line: 5 }).best, `${REPO} crates/globset/src/glob.rs:7`);
});

test('the re-exported item, not the importing crate\'s own same-named type', () => {
  assert.equal(definitionOf(index, REPO, 'crates/ignore/src/overrides.rs', 'Glob', everyone, { line: 6 }).best, `${REPO} crates/globset/src/glob.rs:2`);
});
