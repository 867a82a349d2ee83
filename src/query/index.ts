/**
 * Public surface of the query language: parse Sourcegraph query text, print a query canonically,
 * and resolve languages. Everything else in this folder is internal.
 */
export type {
  BasicQuery,
  Filters,
  PatternAnd,
  PatternAtom,
  PatternExpr,
  PatternOr,
  PatternType,
  Query,
  RepoFilter,
  ResultType,
  SelectKind,
  YesNoOnly,
} from './ast.js';
export { languageOfPath, resolveLanguage } from './languages.js';
export { parseQuery, type ParseOptions } from './parse.js';
export { queryToString } from './to-string.js';
