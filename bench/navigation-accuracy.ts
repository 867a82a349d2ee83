/**
 * Navigation accuracy on the labelled fixtures (test/fixtures/navigation): top-1 definition
 * accuracy and reference precision/recall for Quarry and GNU global, top-1 definition for ctags
 * (definitions only), printed as one table. Run: `node dist/bench/navigation-accuracy.js`.
 */
import { loadLabelledSet } from '../test/fixtures/navigation-labels.js';
import { precision, quarryTool, recall, score, type AccuracyScore } from '../test/symbols/navigation/accuracy.js';
import { ctagsDefinitions, ctagsInstalled } from './navigation-ctags.js';
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
if (ctagsInstalled()) {
  const ctags = score(set, { definitionOf: ctagsDefinitions(), referencesOf: () => [] });
  rows.push(`| universal-ctags (name only: same file, same directory, rest) | ${ctags.correct}/${ctags.usages} (${pct(ctags.correct / ctags.usages)}) | n/a | n/a |`);
} else {
  rows.push('| universal-ctags | not installed (apt-get install universal-ctags) | | |');
}
const definitions = set.references.size;
console.log(`Labelled set: ${set.usages.length} usages of ${definitions} definitions in ${set.files.length} files (${[...languages].sort().join(', ')}).\n`);
console.log('| tool | top-1 definition | reference precision | reference recall |');
console.log('|---|---|---|---|');
for (const r of rows) console.log(r);
