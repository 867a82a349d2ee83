/**
 * Repository sources: a local git repository (path or file:// URL) or a remote git URL, checked
 * before anything is cloned. Decides what to clone from; never writes anything.
 */

import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createError, errorMessage, isQuarryError } from '../errors.js';
import { isGitRepository, probeRemote } from '../git/mirror.js';

const REACH_TIMEOUT_MS = 20_000;
const URL_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;
/** Git's remote-helper syntax `<transport>::<address>` (transport.c): `ext::` runs a command, `fd::` reads descriptors. */
const REMOTE_HELPER = /^[A-Za-z0-9][A-Za-z0-9+.-]*::/;
/** URL schemes git serves with its own transports (mirror.ts allows these and no others). */
const ALLOWED_SCHEMES = new Set(['http', 'https', 'ssh', 'git', 'git+ssh', 'ssh+git', 'file']);

type SourceKind = 'path' | 'file-url' | 'remote';

/** Git's own rule: a colon before any slash makes `host:path` an ssh address, not a local path. */
export function sourceKind(source: string): SourceKind {
  if (/^file:\/\//i.test(source)) return 'file-url';
  if (URL_SCHEME.test(source)) return 'remote';
  const colon = source.indexOf(':');
  const slash = source.indexOf('/');
  return colon > 0 && (slash === -1 || colon < slash) ? 'remote' : 'path';
}

/** The source with any password in it replaced, for messages and listings. */
export function redactSource(source: string): string {
  if (!URL_SCHEME.test(source)) return source;
  try {
    const url = new URL(source);
    if (url.password === '') return source;
    url.password = '***';
    return url.toString();
  } catch {
    return source;
  }
}

function invalid(message: string, source: string): never {
  throw createError('REPO_SOURCE_INVALID', message, { source: redactSource(source) });
}

async function checkLocal(path: string, source: string): Promise<void> {
  if ((await stat(path).catch(() => null)) === null) invalid(`no such path: ${path}`, source);
  if (!(await isGitRepository(path))) invalid(`not a git repository: ${path}`, source);
}

/**
 * Refuses sources git would turn into commands or options: a leading "-" (read as an option such
 * as --upload-pack), remote-helper transports, and URL schemes other than git's own transports.
 */
function refuseUnsafe(source: string): void {
  if (source.startsWith('-')) invalid('repository source must not start with "-" (git would read it as an option); prefix a local path with ./', source);
  const helper = REMOTE_HELPER.exec(source)?.[0];
  if (helper !== undefined) {
    invalid(`remote-helper transport "${helper}" refused: it can run commands or read file descriptors; use an http(s), ssh, git or file URL or a local path`, source);
  }
  const scheme = URL_SCHEME.exec(source)?.[0].slice(0, -3).toLowerCase();
  if (scheme !== undefined && !ALLOWED_SCHEMES.has(scheme)) {
    invalid(`URL scheme "${scheme}" refused: use an http(s), ssh, git or file URL or a local path`, source);
  }
}

/**
 * Checks that `source` is a usable repository and returns it in the form to clone from and store:
 * local paths become absolute; URLs are kept as given.
 */
export async function checkSource(source: string, cwd: string = process.cwd()): Promise<string> {
  if (source.trim() === '' || /[\0\n\r]/.test(source)) invalid('repository source must be a path or git URL', source);
  refuseUnsafe(source);
  const kind = sourceKind(source);
  if (kind === 'path') {
    const path = resolve(cwd, source);
    await checkLocal(path, source);
    return path;
  }
  if (kind === 'file-url') {
    let path = '';
    try {
      path = fileURLToPath(source);
    } catch (err) {
      invalid(`invalid file URL ${source}: ${errorMessage(err)}`, source);
    }
    await checkLocal(path, source);
    return source;
  }
  try {
    await probeRemote(source, { timeoutMs: REACH_TIMEOUT_MS });
  } catch (err) {
    const reason = isQuarryError(err, 'GIT_FAILED') ? String(err.details['reason']) : errorMessage(err);
    invalid(`cannot reach ${redactSource(source)}: ${reason.replace(/^fatal: /, '')}`, source);
  }
  return source;
}
