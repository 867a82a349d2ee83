/**
 * What a file is for, from its path: source code, tests, documentation and changelogs, or a built or
 * vendored copy. nls_search weighs a file by its role, since a question about behaviour is answered
 * by the code that implements it, unless it asks for tests or documentation.
 */

export type FileRole = 'source' | 'test' | 'docs' | 'copy' | 'declarations';

/** Built bundles, source maps and vendored copies. Also written as a query's file: filter, so kept to syntax both read. */
export const COPY_PATHS = /(^|\/)(dist|bundles?|vendor|third_party|node_modules)\/|\.min\.js$|\.map$/i;
const TEST_DIR = /(?:^|\/)(?:tests?|testing|__tests__|specs?|testdata|fixtures?|mocks?|benchmarks?|examples?|samples?)\//i;
const TEST_FILE = /(?:_test\.go|_tests?\.rs|\.(?:test|spec)\.[cm]?[jt]sx?|(?:^|\/)test_[^/]*\.py|_test\.py|Tests?\.(?:java|kt|scala|cs)|\.test)$/i;
/** Documentation, changelogs and manual pages; a query's file: filter too. */
export const DOCS_PATHS = /(^|\/)(docs?|documentation|man|manual)\/|\.(md|markdown|rst|adoc|txt|rdoc|texi|pod|[1-9]|prebuilt)$|(^|\/)(changelog|changes|history|news|readme|authors|contributing|license|copying|faq|guide|install|todo)(\.[^/]*)?$/i;

export function fileRole(path: string): FileRole {
  if (COPY_PATHS.test(path)) return 'copy';
  if (TEST_DIR.test(path) || TEST_FILE.test(path)) return 'test';
  if (DOCS_PATHS.test(path)) return 'docs';
  if (/\.d\.[cm]?ts$/.test(path)) return 'declarations';
  return 'source';
}

/** What the question itself asks for, by its words' stems: tests, or documentation and changelogs. */
export interface RoleIntent {
  readonly tests: boolean;
  readonly docs: boolean;
}

const TEST_WORDS = /^(?:test|spec)/;
const DOCS_WORDS = /^(?:doc|readme|changelog|manual)/;

export function roleIntent(terms: readonly string[]): RoleIntent {
  return { tests: terms.some((t) => TEST_WORDS.test(t)), docs: terms.some((t) => DOCS_WORDS.test(t)) };
}

/**
 * A factor on a file's score: 1 for source code and for the role the question asks for; tests,
 * documentation, type declarations and built copies otherwise below it.
 */
export function rolePrior(role: FileRole, intent: RoleIntent): number {
  switch (role) {
    case 'source': return 1;
    case 'test': return intent.tests ? 1.5 : 0.5;
    case 'docs': return intent.docs ? 1.5 : 0.35;
    case 'declarations': return 0.6;
    case 'copy': return 0.2;
  }
}
