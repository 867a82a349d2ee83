/** The argument descriptions go_to_definition and find_references share, in Sourcegraph's words (reference §1.4). */
import type { PropertySchema } from '../arguments.js';

export const REPO_ARG: PropertySchema = { type: 'string', description: 'The name of the repository containing the file. For example, "github.com/burntsushi/ripgrep".' };
export const REVISION_ARG: PropertySchema = { type: 'string', description: 'The revision to look in. If not specified, defaults to the HEAD of the default branch. This can be a commit hash or a branch name.' };
