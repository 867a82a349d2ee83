/** Rust nested use lists (`use a::{b::{C, D as E}, self}`) bind their names to the right module. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { definitionOf } from './nav-helpers.js';
import { createParsedSymbolIndex } from './parsed-index.js';

const REPO = 'git.example.org/shop';

const index = createParsedSymbolIndex([
  { repo: REPO, path: 'src/store/kinds.rs', content: 'pub struct Kind;\npub struct Shape;\n' },
  { repo: REPO, path: 'src/other/kinds.rs', content: 'pub struct Kind;\npub struct Shape;\n' },
  { repo: REPO, path: 'src/store/mod.rs', content: 'pub fn open() {}\n' },
  { repo: REPO, path: 'src/other/mod.rs', content: 'pub fn open() {}\n' },
  { repo: REPO, path: 'src/main.rs', content: [
    'use crate::store::{kinds::{Kind, Shape as Form}, self};',
    'fn main() {',
    '    let k: Kind = Kind;',
    '    let f: Form = Form;',
    '    store::open();',
    '}',
    '',
  ].join('\n') },
]);

test('names of a nested list come from the nested module, renamed ones under their new name', () => {
  assert.deepEqual(definitionOf(index, REPO, 'src/main.rs', 'Kind'), { best: `${REPO} src/store/kinds.rs:1`, also: [] });
  assert.deepEqual(definitionOf(index, REPO, 'src/main.rs', 'Form'), { best: `${REPO} src/store/kinds.rs:2`, also: [] });
});

test('`self` in a list binds the module itself', () => {
  assert.deepEqual(definitionOf(index, REPO, 'src/main.rs', 'store::open'), { best: `${REPO} src/store/mod.rs:1`, also: [] });
});
