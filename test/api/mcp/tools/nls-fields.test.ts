/**
 * nls_search's content fields: which part of a line (code, comment, string literal) a term
 * occurrence lies in, across the comment and quoting syntax of the indexed languages.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lineFieldAt } from '../../../../src/api/mcp/tools/nls-fields.js';

/** The field of the first occurrence of `word` in `line`. */
function fieldOf(line: string, word: string): string {
  const at = line.indexOf(word);
  assert.ok(at >= 0, `${word} in ${line}`);
  return lineFieldAt(line)(at);
}

test('code, trailing comments and string literals are told apart on one line', () => {
  const line = 'retry(conn, "retry later") // retry once more';
  const fieldAt = lineFieldAt(line);
  assert.deepEqual([0, line.indexOf('retry later'), line.indexOf('retry once')].map(fieldAt), ['code', 'string', 'comment']);
  assert.equal(fieldOf("    timeout = 30  # seconds before giving up", 'seconds'), 'comment');
  assert.equal(fieldOf("    raise ValueError('bad header value')", 'header'), 'string');
  assert.equal(fieldOf('    msg := `multi ${word} template`', 'template'), 'string');
});

test('comment markers inside strings, and hashes that are code, do not open a comment', () => {
  assert.equal(fieldOf('url = "http://example.org/path"; fetch(url)', 'fetch'), 'code');
  assert.equal(fieldOf('#include "parser.h"', 'include'), 'code');
  assert.equal(fieldOf('#[derive(Debug)] struct Glob', 'Glob'), 'code');
  assert.equal(fieldOf('  s = "escaped \\" quote" + rest', 'rest'), 'code');
  assert.equal(fieldOf("let lifetime: &'a str = parse(input);", 'parse'), 'code');
});

test('block comment lines and docstrings are comments throughout', () => {
  assert.equal(fieldOf(' * Returns the parsed header.', 'parsed'), 'comment');
  assert.equal(fieldOf('/* parse the header */', 'header'), 'comment');
  assert.equal(fieldOf('    """Parse the header and return it."""', 'header'), 'comment');
  assert.equal(fieldOf('x = 1 /* inline note */', 'note'), 'comment');
});
