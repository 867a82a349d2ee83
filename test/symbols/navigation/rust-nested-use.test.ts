/**
 * Rust use lists as ripgrep and regex-syntax write them: a bare group inside a list
 * (`use crate::{a::{self, X}, {Error, Match}}`), a list directly under `use` (`use {a::B, c::D as E}`),
 * and a module bound by `{self}` whose member is re-exported there (`ast::visit`, ast/mod.rs saying
 * `pub use crate::ast::visitor::{visit, Visitor}`).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { definitionOf } from './nav-helpers.js';
import { createParsedSymbolIndex } from './parsed-index.js';

const REPO = 'github.com/rust-lang/regex';
const at = (line: number, column: number) => ({ line, column });

const index = createParsedSymbolIndex([
  { repo: REPO, path: 'src/lib.rs', content: 'pub struct Error;\npub enum Match { None }\nmod ast;\nmod dir;\n' },
  { repo: REPO, path: 'src/gitignore.rs', content: 'pub struct Glob;\npub struct Error;\n' },
  { repo: REPO, path: 'src/types.rs', content: 'pub struct Glob;\npub enum Match { All }\n' },
  { repo: REPO, path: 'src/ast/mod.rs', content: 'pub use crate::ast::visitor::{visit, Visitor};\npub struct Ast;\nmod visitor;\n' },
  { repo: REPO, path: 'src/ast/visitor.rs', content: 'pub trait Visitor {}\npub fn visit() {}\n' },
  { repo: REPO, path: 'src/hir/visitor.rs', content: 'pub trait Visitor {}\npub fn visit() {}\n' },
  { repo: REPO, path: 'src/dir.rs', content: [
    'use crate::{',
    '    gitignore::{self, Glob},',
    '    types::{self},',
    '    {Error, Match},',
    '};',
    'use {crate::ast::Ast as Tree, crate::types::Glob as TypeGlob};',
    'use crate::ast::{self};',
    'fn f(g: &gitignore::Glob, t: &types::Glob) -> Result<Match, Error> {', // 8
    '    let tree: Tree = Tree;', // 9
    '    let other: TypeGlob = TypeGlob;', // 10
    '    ast::visit()', // 11
    '}',
  ].join('\n') },
]);

const FILE = 'src/dir.rs';

test('a bare group inside a use list binds its names from the list\'s path', () => {
  assert.equal(definitionOf(index, REPO, FILE, 'Match', undefined, at(8, 51)).best, `${REPO} src/lib.rs:2`);
  assert.equal(definitionOf(index, REPO, FILE, 'Error', undefined, at(8, 58)).best, `${REPO} src/lib.rs:1`);
});

test('`self` in a nested list binds the module: gitignore::Glob and types::Glob are told apart', () => {
  assert.equal(definitionOf(index, REPO, FILE, 'Glob', undefined, at(8, 21)).best, `${REPO} src/gitignore.rs:1`);
  assert.equal(definitionOf(index, REPO, FILE, 'Glob', undefined, at(8, 40)).best, `${REPO} src/types.rs:1`);
});

test('a list directly under use binds its paths, renamed ones under their new names', () => {
  assert.equal(definitionOf(index, REPO, FILE, 'Tree', undefined, at(9, 22)).best, `${REPO} src/ast/mod.rs:2`);
  assert.equal(definitionOf(index, REPO, FILE, 'TypeGlob', undefined, at(10, 27)).best, `${REPO} src/types.rs:1`);
});

test('a member of a module bound by {self} follows the module\'s pub use re-export', () => {
  assert.equal(definitionOf(index, REPO, FILE, 'visit', undefined, at(11, 10)).best, `${REPO} src/ast/visitor.rs:2`);
});
