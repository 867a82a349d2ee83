/**
 * Argument descriptions several tools share, written once so that tools/list stays short and says
 * each thing the same way. Descriptions only: each tool checks its own arguments.
 */
import type { PropertySchema } from '../arguments.js';

export const REPO_ARG: PropertySchema = { type: 'string', description: 'Repository, e.g. github.com/gorilla/mux.' };
export const REVISION_ARG: PropertySchema = { type: 'string', description: 'Branch, tag or commit (default: default branch).' };
/** The `after` of tools that page with page-cursor.ts (or, for compare_revisions, a file offset). */
export const NEXT_PAGE_ARG: PropertySchema = { type: 'string', description: 'Cursor from the previous answer.' };
export const REPOS_ARG = { type: 'array', items: { type: 'string' }, description: 'Repositories to search, e.g. ["github.com/gorilla/mux"].' } as const satisfies PropertySchema;
export const AFTER_DATE_ARG: PropertySchema = { type: 'string', description: 'Only commits after this date, e.g. "2 weeks ago" or 2024-01-31.' };
export const BEFORE_DATE_ARG: PropertySchema = { type: 'string', description: 'Only commits before this date.' };
