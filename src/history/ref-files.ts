/**
 * A branch's commit read straight from a bare repository's files (a loose ref, else packed-refs),
 * so a search can learn its default tip without starting git. Undefined whenever the files do not
 * say plainly (a symbolic ref, another ref storage): callers then ask git. Reads only.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const OID = /^[0-9a-f]{40}$/;

/** The commit `refs/heads/<branch>` points at, or undefined when the files do not tell. */
export function branchFromFiles(gitDir: string, branch: string): string | undefined {
  const ref = `refs/heads/${branch}`;
  const loose = readOrNull(join(gitDir, ref));
  if (loose !== null) {
    const oid = loose.trim();
    return OID.test(oid) ? oid : undefined;
  }
  const packed = readOrNull(join(gitDir, 'packed-refs'));
  if (packed === null) return undefined;
  for (const line of packed.split('\n')) {
    if (line.length === 41 + ref.length && line.endsWith(` ${ref}`)) {
      const oid = line.slice(0, 40);
      return OID.test(oid) ? oid : undefined;
    }
  }
  return undefined;
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
