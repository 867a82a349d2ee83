/**
 * Languages for `lang:` (reference §2.7): canonical names as GitHub Linguist spells them, their
 * aliases, and detection from a file path (file name first, then extension). No content sniffing.
 */

/** [canonical name, aliases, extensions (lower case, with dot), exact file names]. */
type LanguageRow = readonly [string, readonly string[], readonly string[], readonly string[]];

const LANGUAGE_ROWS: readonly LanguageRow[] = [
  ['Go', ['golang'], ['.go'], []],
  ['Go Module', ['go.mod', 'gomod'], [], ['go.mod']],
  ['TypeScript', ['ts'], ['.ts', '.cts', '.mts'], []],
  ['TSX', [], ['.tsx'], []],
  ['JavaScript', ['js', 'node', 'jsx'], ['.js', '.cjs', '.mjs', '.jsx'], []],
  ['Python', ['py', 'python3'], ['.py', '.pyi', '.pyw'], []],
  ['Rust', ['rs'], ['.rs'], []],
  ['Java', [], ['.java'], []],
  ['C', [], ['.c', '.h'], []],
  ['C++', ['cpp', 'c++', 'cplusplus', 'cxx'], ['.cc', '.cpp', '.cxx', '.c++', '.hpp', '.hh', '.hxx', '.h++', '.inl', '.ipp'], []],
  ['C#', ['csharp', 'cs', 'c#'], ['.cs'], []],
  ['CUDA', ['cu'], ['.cu', '.cuh'], []],
  ['Objective-C', ['objc', 'objectivec', 'obj-c'], ['.m'], []],
  ['Objective-C++', ['objc++', 'objectivec++', 'obj-c++'], ['.mm'], []],
  ['Ruby', ['rb'], ['.rb', '.rake', '.gemspec'], ['Gemfile', 'Rakefile']],
  ['PHP', [], ['.php'], []],
  ['Shell', ['sh', 'bash', 'zsh', 'shell-script'], ['.sh', '.bash', '.zsh', '.ksh'], ['.bashrc', '.bash_profile', '.zshrc', '.profile']],
  ['PowerShell', ['ps1', 'pwsh', 'posh'], ['.ps1', '.psm1', '.psd1'], []],
  ['Batchfile', ['bat', 'batch', 'cmd'], ['.bat', '.cmd'], []],
  ['Markdown', ['md', 'pandoc'], ['.md', '.markdown', '.mkd'], []],
  ['reStructuredText', ['rst'], ['.rst'], []],
  ['TeX', ['latex'], ['.tex'], []],
  ['Text', ['txt', 'plain text'], ['.txt'], []],
  ['JSON', [], ['.json'], []],
  ['Jsonnet', [], ['.jsonnet', '.libsonnet'], []],
  ['YAML', ['yml'], ['.yml', '.yaml'], []],
  ['TOML', [], ['.toml'], []],
  ['INI', ['dosini'], ['.ini', '.cfg'], []],
  ['XML', ['xsd', 'wsdl'], ['.xml', '.xsd', '.xsl', '.xslt', '.plist'], []],
  ['HTML', ['htm', 'xhtml'], ['.html', '.htm', '.xhtml'], []],
  ['CSS', [], ['.css'], []],
  ['SCSS', [], ['.scss'], []],
  ['Less', [], ['.less'], []],
  ['Vue', [], ['.vue'], []],
  ['Svelte', [], ['.svelte'], []],
  ['SQL', [], ['.sql'], []],
  ['GraphQL', ['gql'], ['.graphql', '.gql'], []],
  ['Protocol Buffer', ['protobuf', 'proto'], ['.proto'], []],
  ['Kotlin', ['kt'], ['.kt', '.kts'], []],
  ['Swift', [], ['.swift'], []],
  ['Scala', [], ['.scala', '.sc'], []],
  ['Groovy', [], ['.groovy', '.gradle'], ['Jenkinsfile']],
  ['Dart', [], ['.dart'], []],
  ['Lua', [], ['.lua'], []],
  ['Perl', ['pl'], ['.pl', '.pm'], []],
  ['Haskell', ['hs'], ['.hs', '.lhs'], []],
  ['OCaml', ['ml'], ['.ml', '.mli'], []],
  ['F#', ['fsharp', 'f#'], ['.fs', '.fsi', '.fsx'], []],
  ['Elixir', ['ex'], ['.ex', '.exs'], []],
  ['Erlang', ['erl'], ['.erl', '.hrl'], []],
  ['Elm', [], ['.elm'], []],
  ['Clojure', ['clj'], ['.clj', '.cljs', '.cljc', '.edn'], []],
  ['Emacs Lisp', ['elisp', 'emacs'], ['.el'], []],
  ['R', [], ['.r'], []],
  ['Julia', ['jl'], ['.jl'], []],
  ['Zig', [], ['.zig'], []],
  ['Nim', [], ['.nim'], []],
  ['Fortran', [], ['.f', '.f90', '.f95', '.for'], []],
  ['Assembly', ['asm', 'nasm'], ['.asm', '.s', '.nasm'], []],
  ['Solidity', ['sol'], ['.sol'], []],
  ['Nix', [], ['.nix'], []],
  ['HCL', ['terraform', 'tf'], ['.tf', '.tfvars', '.hcl'], []],
  ['Vim Script', ['vim', 'viml', 'vimscript'], ['.vim'], ['.vimrc']],
  ['Diff', ['patch'], ['.diff', '.patch'], []],
  ['Makefile', ['make', 'mf', 'bsdmake'], ['.mk', '.mak'], ['Makefile', 'makefile', 'GNUmakefile', 'Kbuild']],
  ['Kconfig', [], [], ['Kconfig']],
  ['Dockerfile', ['docker', 'containerfile'], ['.dockerfile'], ['Dockerfile', 'Containerfile']],
  ['CMake', [], ['.cmake'], ['CMakeLists.txt']],
  ['Starlark', ['bazel', 'bzl'], ['.bzl', '.star'], ['BUILD', 'BUILD.bazel', 'WORKSPACE', 'WORKSPACE.bazel']],
];

const BY_NAME = new Map<string, string>();
const BY_EXTENSION = new Map<string, string>();
const BY_FILENAME = new Map<string, string>();
for (const [name, aliases, extensions, filenames] of LANGUAGE_ROWS) {
  for (const alias of [name, ...aliases]) BY_NAME.set(alias.toLowerCase(), name);
  for (const extension of extensions) BY_EXTENSION.set(extension, name);
  for (const filename of filenames) BY_FILENAME.set(filename, name);
}

/** Canonical name for a language name or alias in any letter case, or null when unknown. */
export function resolveLanguage(name: string): string | null {
  return BY_NAME.get(name.trim().toLowerCase()) ?? null;
}

/** Language of a file from its path (`/` separated), or null when the name says nothing. */
export function languageOfPath(path: string): string | null {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const byName = BY_FILENAME.get(base);
  if (byName !== undefined) return byName;
  if (base.startsWith('Dockerfile.')) return 'Dockerfile';
  const dot = base.lastIndexOf('.');
  // A leading dot marks a hidden file (`.gitignore`), not an extension.
  if (dot <= 0) return null;
  return BY_EXTENSION.get(base.slice(dot).toLowerCase()) ?? null;
}
