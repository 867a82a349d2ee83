/**
 * The search page's streamed parts: a data block keeps any text the search sends (a query echoed in
 * an alert, a matched line) inside its script element, and reads back as the same value; content
 * result rows split chunks into shown and hidden rows as the page's "show more" needs.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resultRows } from '../../../src/api/pages/web/result-rows.js';
import { dataBlock } from '../../../src/api/pages/web/search-page-stream.js';

test('a data block cannot be closed early by what it carries, and parses back to the same value', () => {
  const value = { description: 'bad query </script><script>alert(1)</script> <!-- <\u2028', line: '</SCRIPT >' };
  const block = dataBlock('alert', value);
  const open = '<script type="application/json" data-event="alert">';
  assert.ok(block.startsWith(open) && block.endsWith('</script>\n'));
  const inner = block.slice(open.length, -'</script>\n'.length);
  assert.equal(/<\/?script/i.test(inner), false);
  assert.equal(inner.includes('<'), false);
  assert.deepEqual(JSON.parse(inner), value);
});

test('rows: context around matched lines, the rest after the shown matched lines hidden, gaps between chunks marked', () => {
  const at = (line: number, column: number) => ({ line, column });
  const chunks = [
    { content: 'a\nneedle 1\nb', contentStart: at(0, 0), ranges: [{ start: at(1, 0), end: at(1, 6) }] },
    { content: 'c\nneedle 2\nneedle 3\nd', contentStart: at(9, 0), ranges: [{ start: at(10, 0), end: at(10, 6) }, { start: at(11, 0), end: at(11, 6) }] },
  ];
  const { rows, hiddenMatched } = resultRows(chunks, 2);
  assert.deepEqual(rows.map((r) => `${r.number}${r.matched ? '*' : ''}${r.gap ? '|' : ''}${r.hidden ? 'h' : ''}`), ['1', '2*', '3', '10|', '11*', '12*h', '13h']);
  assert.equal(hiddenMatched, 1);
  assert.deepEqual(rows[4]!.ranges, [[0, 6]]);
  // Two shown matched lines already used: a later chunk is hidden whole, its context included.
  const third = resultRows([chunks[0]!, chunks[0]!, { ...chunks[1]!, contentStart: at(20, 0), ranges: [{ start: at(21, 0), end: at(21, 6) }] }], 2);
  assert.deepEqual(third.rows.filter((r) => r.hidden).map((r) => r.number), [21, 22, 23, 24]);
  assert.equal(third.hiddenMatched, 1);
});
