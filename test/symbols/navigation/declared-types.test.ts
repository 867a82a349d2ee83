/**
 * Members reached through declared types (Go receivers, fields and embedded structs, Rust impls and
 * parameters, Python annotations and class calls, TypeScript annotations and `new`, Java locals,
 * inherited members and implemented interfaces, Go labels), and find_references keeping same-named uses it cannot resolve apart from the
 * references it claims.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findDefinition, parseSymbolName } from '../../../src/symbols/navigation/definition.js';
import { SymbolLookup } from '../../../src/symbols/navigation/lookup.js';
import { findReferences } from '../../../src/symbols/navigation/references.js';
import { Resolver } from '../../../src/symbols/navigation/resolve.js';
import { FAKE_COMMIT } from '../fake-symbol-index.js';
import { definitionOf, everyone } from './nav-helpers.js';
import { createParsedSymbolIndex } from './parsed-index.js';

const REPO = 'git.example.org/typed';

const index = createParsedSymbolIndex([
  { repo: REPO, path: 'tree/node.go', content: [
    'package tree',
    '',
    'type node struct { children []*node }',
    'type edge struct { to *node }',
    '',
    'func (n *node) grow() int {',
    '\treturn n.prio()',
    '}',
  ].join('\n') },
  { repo: REPO, path: 'tree/prio.go', content: [
    'package tree',
    '',
    'func (n *node) prio() int { return len(n.children) }',
    'func (e *edge) prio() int { return 1 }',
    '',
    'func walk(e *edge) int { return e.to.grow() + e.prio() }',
  ].join('\n') },
  { repo: REPO, path: 'tree/group.go', content: [
    'package tree',
    '',
    'type group struct { base string }',
    '',
    'func (g *group) handle() int { return len(g.base) }',
    '',
    'type engine struct {',
    '\tgroup',
    '\tname string',
    '}',
    '',
    'func serve(e *engine) int { return e.handle() + len(e.base) }',
  ].join('\n') },
  { repo: REPO, path: 'py/formatting.py', content: [
    'class HelpFormatter:',
    '    def write(self, text):',
    '        return text',
    '',
    'class Log:',
    '    def write(self, text):',
    '        return None',
  ].join('\n') },
  { repo: REPO, path: 'py/core.py', content: [
    'from .formatting import HelpFormatter, Log',
    '',
    'class Command:',
    '    def __init__(self, out: HelpFormatter):',
    '        self.log: Log = Log()',
    '        self.out = out',
    '',
    '    def help(self, formatter: HelpFormatter):',
    '        formatter.write("x")',
    '        self.log.write("y")',
    '        made = HelpFormatter()',
    '        made.write("z")',
    '        self.out.write("w")',
    '',
    'def anything(stream):',
    '    stream.write("?")',
  ].join('\n') },
  { repo: REPO, path: 'ts/shapes.ts', content: [
    'export class Shape { area(): number { return 0; } describe(): string { return "shape"; } }',
    'export class Circle extends Shape { area(): number { return 3; } }',
    'export class Square { area(): number { return 4; } }',
  ].join('\n') },
  { repo: REPO, path: 'ts/use.ts', content: [
    "import { Circle, Square } from './shapes';",
    'export function total(c: Circle): number {',
    '  const s = new Square();',
    '  return c.area() + s.area() + c.describe();',
    '}',
  ].join('\n') },
  { repo: REPO, path: 'rs/src/counter.rs', content: [
    'pub struct Counter { total: usize }',
    'pub struct Gauge { total: usize }',
    'impl Counter {',
    '    fn add(&mut self, n: usize) { self.total += n; self.check(); }',
    '    fn check(&self) {}',
    '}',
    'impl Gauge {',
    '    fn check(&self) {}',
    '}',
    'fn bump(c: &mut Counter, g: Gauge) { c.add(1); g.check(); }',
  ].join('\n') },
  { repo: REPO, path: 'java/Connection.java', content: 'public interface Connection {\n  enum Method { GET, POST }\n}\n' },
  { repo: REPO, path: 'java/HttpConnection.java', content: [
    'public class HttpConnection implements Connection {',
    '  static class Request {',
    '    Method method = Method.GET;',
    '  }',
    '}',
  ].join('\n') },
  { repo: REPO, path: 'tree/walk.go', content: [
    'package tree',
    '',
    'func scan(rows [][]int) int {',
    'walk:',
    '\tfor _, row := range rows {',
    '\t\tfor _, v := range row {',
    '\t\t\tif v < 0 {',
    '\t\t\t\tcontinue walk',
    '\t\t\t}',
    '\t\t}',
    '\t}',
    '\treturn 0',
    '}',
  ].join('\n') },
  { repo: REPO, path: 'java/Cycle.java', content: [
    'class P extends Q {',
    '  class N extends Z {',
    '    void f(Q q) { missing(); q.absent(); }',
    '  }',
    '}',
    'class Q extends P {}',
  ].join('\n') },
  { repo: REPO, path: 'java/Base.java', content: 'public class Base {\n  protected String name() { return "b"; }\n}\n' },
  { repo: REPO, path: 'java/Token.java', content: [
    'public class Token extends Base {',
    '  String show(Base other) {',
    '    Base local = other;',
    '    return name() + local.name();',
    '  }',
    '}',
  ].join('\n') },
]);

test('Go: a method call through the receiver or a typed parameter or field finds that type\'s method, in any file of the package', () => {
  assert.equal(definitionOf(index, REPO, 'tree/node.go', 'prio', everyone, { line: 7 }).best, `${REPO} tree/prio.go:3`);
  assert.equal(definitionOf(index, REPO, 'tree/prio.go', 'prio', everyone, { line: 6, column: 50 }).best, `${REPO} tree/prio.go:4`);
  assert.equal(definitionOf(index, REPO, 'tree/prio.go', 'grow', everyone, { line: 6 }).best, `${REPO} tree/node.go:6`);
});

test('Go: a struct embedding another has its methods and fields (promoted)', () => {
  assert.equal(definitionOf(index, REPO, 'tree/group.go', 'handle', everyone, { line: 12 }).best, `${REPO} tree/group.go:5`);
  assert.equal(definitionOf(index, REPO, 'tree/group.go', 'base', everyone, { line: 12, column: 55 }).best, `${REPO} tree/group.go:3`);
});

test('Python: an annotated parameter, an annotated self field, a variable made by a class call, and a field assigned an annotated parameter', () => {
  assert.equal(definitionOf(index, REPO, 'py/core.py', 'write', everyone, { line: 9 }).best, `${REPO} py/formatting.py:2`);
  assert.equal(definitionOf(index, REPO, 'py/core.py', 'write', everyone, { line: 10 }).best, `${REPO} py/formatting.py:6`);
  assert.equal(definitionOf(index, REPO, 'py/core.py', 'write', everyone, { line: 12 }).best, `${REPO} py/formatting.py:2`);
  assert.equal(definitionOf(index, REPO, 'py/core.py', 'write', everyone, { line: 13 }).best, `${REPO} py/formatting.py:2`);
});

test('TypeScript: an annotated parameter, a variable made with new, and a method inherited from the class extended', () => {
  assert.equal(definitionOf(index, REPO, 'ts/use.ts', 'area', everyone, { line: 4, column: 12 }).best, `${REPO} ts/shapes.ts:2`);
  assert.equal(definitionOf(index, REPO, 'ts/use.ts', 'area', everyone, { line: 4, column: 23 }).best, `${REPO} ts/shapes.ts:3`);
  assert.equal(definitionOf(index, REPO, 'ts/use.ts', 'describe', everyone, { line: 4 }).best, `${REPO} ts/shapes.ts:1`);
});

test('Rust: self in an impl method is the impl\'s type; a parameter\'s type finds its impl\'s methods', () => {
  assert.equal(definitionOf(index, REPO, 'rs/src/counter.rs', 'total', everyone, { line: 4 }).best, `${REPO} rs/src/counter.rs:1`);
  assert.equal(definitionOf(index, REPO, 'rs/src/counter.rs', 'check', everyone, { line: 4 }).best, `${REPO} rs/src/counter.rs:5`);
  assert.equal(definitionOf(index, REPO, 'rs/src/counter.rs', 'check', everyone, { line: 10 }).best, `${REPO} rs/src/counter.rs:8`);
  assert.equal(definitionOf(index, REPO, 'rs/src/counter.rs', 'add', everyone, { line: 10 }).best, `${REPO} rs/src/counter.rs:4`);
});

test('Go: a label is found from the continue that names it', () => {
  assert.equal(definitionOf(index, REPO, 'tree/walk.go', 'walk', everyone, { line: 8 }).best, `${REPO} tree/walk.go:4`);
});

test('Java: a nested class sees the types of the interface its outer class implements', () => {
  assert.equal(definitionOf(index, REPO, 'java/HttpConnection.java', 'Method', everyone, { line: 3, column: 5 }).best, `${REPO} java/Connection.java:2`);
});

test('classes that extend each other in a circle answer nothing for a name none defines, without looping', () => {
  assert.equal(definitionOf(index, REPO, 'java/Cycle.java', 'missing', everyone, { line: 3 }).best, null);
  assert.equal(definitionOf(index, REPO, 'java/Cycle.java', 'absent', everyone, { line: 3 }).best, null);
});

test('Java: a typed local, and a superclass method called by its bare name', () => {
  assert.equal(definitionOf(index, REPO, 'java/Token.java', 'name', everyone, { line: 4, column: 12 }).best, `${REPO} java/Base.java:2`);
  assert.equal(definitionOf(index, REPO, 'java/Token.java', 'name', everyone, { line: 4, column: 27 }).best, `${REPO} java/Base.java:2`);
});

/** The references of the definition at path:line, as resolved ones and name matches, and the counts. */
function referencesAt(path: string, name: string, line: number): { resolved: string[]; nameMatches: string[]; total: number; unresolved: number } {
  const resolver = new Resolver(new SymbolLookup(index, everyone));
  const origin = { repo: REPO, commit: FAKE_COMMIT, path, symbols: index.fileSymbols(REPO, path)! };
  const answer = findDefinition(resolver, origin, parseSymbolName(name)!, { line });
  assert.ok(answer !== null);
  const { total, unresolved, sites } = findReferences(resolver, answer.best.site);
  const label = (s: (typeof sites)[number]): string => `${s.file.path}:${s.range.startLine + 1}`;
  return { resolved: sites.filter((s) => s.resolved).map(label), nameMatches: sites.filter((s) => !s.resolved).map(label), total, unresolved };
}

test('references claim the uses that resolve; a receiver of unknown type is a name match, counted and listed after them', () => {
  const write = referencesAt('py/formatting.py', 'write', 2);
  assert.deepEqual(write.resolved, ['py/core.py:9', 'py/core.py:12', 'py/core.py:13']);
  assert.deepEqual(write.nameMatches, ['py/core.py:16']);
  assert.deepEqual([write.total, write.unresolved], [3, 1]);
  // The other class's write: its one typed use is claimed, the untyped one is a name match for it too.
  const logWrite = referencesAt('py/formatting.py', 'write', 6);
  assert.deepEqual(logWrite.resolved, ['py/core.py:10']);
  assert.deepEqual(logWrite.nameMatches, ['py/core.py:16']);
});

test('Go: references of one type\'s method leave out the same-named method of another type', () => {
  const prio = referencesAt('tree/prio.go', 'prio', 3);
  assert.deepEqual(prio.resolved, ['tree/node.go:7']);
  assert.deepEqual(prio.nameMatches, []);
  assert.deepEqual(referencesAt('tree/prio.go', 'prio', 4).resolved, ['tree/prio.go:6']);
});
