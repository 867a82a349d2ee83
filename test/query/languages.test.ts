import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { languageOfPath, resolveLanguage } from '../../src/query/index.js';

describe('resolveLanguage', () => {
  it('maps names and aliases in any letter case to the canonical name', () => {
    const cases: [string, string][] = [
      ['go', 'Go'], ['golang', 'Go'], ['ts', 'TypeScript'], ['TypeScript', 'TypeScript'], ['js', 'JavaScript'],
      ['javascript', 'JavaScript'], ['python', 'Python'], ['py', 'Python'], ['rust', 'Rust'], ['rs', 'Rust'],
      ['java', 'Java'], ['c', 'C'], ['cpp', 'C++'], ['C++', 'C++'], ['csharp', 'C#'], ['c#', 'C#'], ['ruby', 'Ruby'],
      ['php', 'PHP'], ['shell', 'Shell'], ['bash', 'Shell'], ['sh', 'Shell'], ['markdown', 'Markdown'], ['md', 'Markdown'],
      ['json', 'JSON'], ['yaml', 'YAML'], ['yml', 'YAML'], ['html', 'HTML'], ['css', 'CSS'], ['sql', 'SQL'],
      ['kotlin', 'Kotlin'], ['swift', 'Swift'], ['scala', 'Scala'], ['lua', 'Lua'], ['perl', 'Perl'],
      ['haskell', 'Haskell'], ['makefile', 'Makefile'], ['dockerfile', 'Dockerfile'], ['text', 'Text'],
      ['protocol buffer', 'Protocol Buffer'], ['GOLANG', 'Go'],
    ];
    for (const [name, canonical] of cases) assert.equal(resolveLanguage(name), canonical, name);
  });

  it('returns null for unknown names, including object-prototype keys', () => {
    for (const name of ['klingon', '', 'constructor', '__proto__', 'toString']) assert.equal(resolveLanguage(name), null, name);
  });
});

describe('languageOfPath', () => {
  it('detects by file name before extension', () => {
    const cases: [string, string][] = [
      ['Makefile', 'Makefile'], ['linux/drivers/Kbuild', 'Makefile'], ['arch/Kconfig', 'Kconfig'],
      ['Dockerfile', 'Dockerfile'], ['ci/Dockerfile.dev', 'Dockerfile'], ['CMakeLists.txt', 'CMake'],
      ['go.mod', 'Go Module'], ['BUILD.bazel', 'Starlark'], ['home/.bashrc', 'Shell'],
    ];
    for (const [path, language] of cases) assert.equal(languageOfPath(path), language, path);
  });

  it('detects by extension, case-insensitively', () => {
    const cases: [string, string][] = [
      ['a/b/main.go', 'Go'], ['x.h', 'C'], ['x.c', 'C'], ['x.hpp', 'C++'], ['x.cc', 'C++'], ['index.ts', 'TypeScript'],
      ['types.d.ts', 'TypeScript'], ['App.tsx', 'TSX'], ['x.JS', 'JavaScript'], ['x.py', 'Python'], ['lib.rs', 'Rust'],
      ['README.md', 'Markdown'], ['notes.txt', 'Text'], ['a.yml', 'YAML'], ['x.mk', 'Makefile'], ['x.cs', 'C#'],
    ];
    for (const [path, language] of cases) assert.equal(languageOfPath(path), language, path);
  });

  it('returns null when the name says nothing', () => {
    for (const path of ['LICENSE', '.gitignore', 'a/b/noext', 'x.unknownext', 'dir.go/file']) {
      assert.equal(languageOfPath(path), null, path);
    }
  });
});
