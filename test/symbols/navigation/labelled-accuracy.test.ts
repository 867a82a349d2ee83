/** Quarry's navigation on the hand-labelled fixtures in six languages, parsed by the real extraction. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadLabelledSet } from '../../fixtures/navigation-labels.js';
import { precision, quarryTool, recall, score } from './accuracy.js';

test('the labelled set has at least 50 usages across six languages', () => {
  const set = loadLabelledSet();
  assert.ok(set.usages.length >= 50, `${set.usages.length} usages`);
  const extensions = new Set(set.files.map((f) => f.path.slice(f.path.lastIndexOf('.'))));
  for (const ext of ['.mts', '.py', '.go', '.c', '.java', '.rs']) assert.ok(extensions.has(ext), ext);
});

test('top-1 definition accuracy is at least 90%, reference precision and recall at least 90%', () => {
  const set = loadLabelledSet();
  const result = score(set, quarryTool(set));
  const accuracy = result.correct / result.usages;
  assert.ok(accuracy >= 0.9, `accuracy ${accuracy.toFixed(3)}; misses:\n${result.misses.join('\n')}`);
  assert.ok(precision(result) >= 0.9, `precision ${precision(result).toFixed(3)}`);
  assert.ok(recall(result) >= 0.9, `recall ${recall(result).toFixed(3)}`);
});
