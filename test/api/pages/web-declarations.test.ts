/**
 * The compile-time check of web/*.d.ts against the server modules they declare
 * (web-declarations.ts) can fail: compiled with a declaration file altered in memory, as a
 * hand edit or a change to the server module would leave it, it reports an error; unaltered, none.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const CHECK = `${ROOT}test/api/pages/web-declarations.ts`;
const ROWS = `${ROOT}web/result-rows.d.ts`;
const PATHS = `${ROOT}web/web-paths.d.ts`;

const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ['lib.es2023.d.ts'], types: [], strict: true, noEmit: true, skipLibCheck: true,
};

/** The check's errors with `file`'s text replaced by `edit` of it (the files on disk are not touched). */
function checkErrors(file: string | null, edit: (text: string) => string): string[] {
  const host = ts.createCompilerHost(OPTIONS);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => {
    const text = readFile(name);
    return text !== undefined && file !== null && name === file ? edit(text) : text;
  };
  const program = ts.createProgram([CHECK], OPTIONS, host);
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

function altered(file: string, from: string, to: string): (text: string) => string {
  return (text) => {
    assert.ok(text.includes(from), `${file} no longer holds ${from}`);
    return text.replace(from, to);
  };
}

test('the declarations as committed match the server modules', () => {
  assert.deepEqual(checkErrors(null, (t) => t), []);
});

test('each kind of drift in a declaration file fails the check', () => {
  const drifts: [string, string, string][] = [
    [ROWS, 'readonly hidden: boolean;', 'hidden: boolean;'],
    [ROWS, 'shownMatched: number', 'shownMatched: string'],
    [ROWS, 'readonly gap: boolean;', 'readonly gap: boolean;\n  readonly extra: string;'],
    [ROWS, 'readonly column: number;', ''],
    [PATHS, 'rev?: string | null', 'rev?: string'],
    [PATHS, 'export declare function searchUrl(query: string): string;', 'export declare function searchUrl(query: string): string;\nexport declare function browseUrl(path: string): string;'],
    [PATHS, 'readonly end: number;', 'readonly end?: number;'],
  ];
  for (const [file, from, to] of drifts) {
    assert.notDeepEqual(checkErrors(file, altered(file, from, to)), [], `${file}: ${from} → ${to}`);
  }
});

test('the declaration files say where their types come from', () => {
  for (const file of [ROWS, PATHS]) assert.match(readFileSync(file, 'utf8'), /test\/api\/pages\/web-declarations\.ts/);
});
