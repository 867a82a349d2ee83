/**
 * A file's bytes (`/<repo>@<rev>/-/raw/<path>`): plain text for text, octet-stream otherwise, as a
 * download, never sniffed into anything a browser would run.
 */
import type { Reply } from '../../../http/respond.js';
import { resolveAt, sendPathNotFound, sendRevisionNotFound } from './repo-page.js';
import type { RepoViewRequest } from './repo-view.js';
import type { WebServices } from './services.js';
import { isBinary } from './text-file.js';

export async function rawView(services: WebServices, view: RepoViewRequest, reply: Reply): Promise<void> {
  const at = await resolveAt(services, view);
  if (at === null) return sendRevisionNotFound(reply, view, view.location.rev);
  const path = view.location.path;
  const bytes = path === '' ? null : await services.repos.readBlob(at.repo, at.commit, path);
  if (bytes === null) return sendPathNotFound(reply, view, at, `No file named ${path === '' ? '(none given)' : path} exists`);
  const name = path.slice(path.lastIndexOf('/') + 1);
  reply.send(200, bytes, {
    'Content-Type': isBinary(bytes) ? 'application/octet-stream' : 'text/plain; charset=utf-8',
    'Content-Disposition': `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'Cache-Control': 'no-store',
  });
}
