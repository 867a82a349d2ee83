/**
 * Paths as agents type them, made repo-relative: leading `/` and `./`, and trailing `/`, dropped.
 * The root directory is the empty string. A path no tree can hold is a ToolError saying why.
 */
import { quoteInput, repoPathProblem } from '../../../git/input.js';
import { ToolError } from '../tool.js';

function cleanPath(path: string): string {
  return path.trim().replace(/^(?:\.?\/)+/, '').replace(/\/+$/, '').replace(/^\.$/, '');
}

/** cleanPath, refused when it cannot name a file or directory (`..`, NUL, `a//b`, over 4 KiB). */
export function checkedPath(path: string): string {
  const clean = cleanPath(path);
  const problem = repoPathProblem(clean);
  if (problem !== null) {
    throw new ToolError(`Invalid path ${quoteInput(path)}: it ${problem}. Paths are relative to the repository root, such as "src/main.go"; use list_files to see what exists.`);
  }
  return clean;
}

/** The directory holding `path` ('' for a top-level entry). */
export function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}
