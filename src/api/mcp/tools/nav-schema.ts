/** The argument descriptions go_to_definition and find_references share, in Sourcegraph's words (reference §1.4), and the usage position. */
import type { PropertySchema } from '../arguments.js';

export const REPO_ARG: PropertySchema = { type: 'string', description: 'The name of the repository containing the file. For example, "github.com/burntsushi/ripgrep".' };
export const REVISION_ARG: PropertySchema = { type: 'string', description: 'The revision to look in. If not specified, defaults to the HEAD of the default branch. This can be a commit hash or a branch name.' };
export const LINE_ARG: PropertySchema = { type: 'integer', minimum: 1, description: 'Optional: the 1-based line (as read_file numbers lines) of the occurrence to resolve. With it, the occurrence on that line is resolved, so a parameter or local that shadows another of the same name is told apart.' };
export const COLUMN_ARG: PropertySchema = { type: 'integer', minimum: 1, description: 'Optional, with line: the 1-based column of the occurrence, when the name occurs more than once on the line.' };
