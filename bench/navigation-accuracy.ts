/**
 * Navigation accuracy on the labelled fixtures (test/fixtures/navigation): top-1 definition
 * accuracy and reference precision/recall for Quarry and for GNU global, printed as a table.
 * Run: `node dist/bench/navigation-accuracy.js` (scripts/bench installs global).
 */
import { loadLabelledSet } from '../test/fixtures/navigation-labels.js';
import { precision, quarryTool, recall, score, type AccuracyScore } from '../test/symbols/navigation/accuracy.js';
import { globalInstalled, openGlobal } from './navigation-global.js';

function pct(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

function row(name: string, s: AccuracyScore): string {
  return `| ${name} | ${s.correct}/${s.usages} (${pct(s.correct / s.usages)}) | ${pct(precision(s))} | ${pct(recall(s))} |`;
}

const set = loadLabelledSet();
const languages = new Set(set.files.map((f) => f.path.slice(f.path.lastIndexOf('.') + 1)));
const rows = [row('Quarry', score(set, quarryTool(set)))];
if (globalInstalled()) {
  const project = openGlobal();
  try {
    rows.push(row('GNU global (pygments)', score(set, project.tool)));
  } finally {
    project.dispose();
  }
} else {
  rows.push('| GNU global | not installed (apt-get install global) | | |');
}
const definitions = set.references.size;
console.log(`Labelled set: ${set.usages.length} usages of ${definitions} definitions in ${set.files.length} files (${[...languages].sort().join(', ')}).\n`);
console.log('| tool | top-1 definition | reference precision | reference recall |');
console.log('|---|---|---|---|');
for (const r of rows) console.log(r);
