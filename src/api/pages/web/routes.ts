/**
 * The web app's routes: its hashed assets, the search page, and every other GET path read as a
 * repository location (`/<repo>[@<rev>]/-/<view>/<path>`, web-paths.ts) dispatched to its view.
 * Anything that is not one answers 404, as an unknown path always has.
 */
import type { Authentication } from '../../../auth/principal.js';
import type { HttpRequest } from '../../../http/request.js';
import type { Reply } from '../../../http/respond.js';
import type { Route } from '../../../http/routes.js';
import { pageContext } from '../kit.js';
import { ASSETS_ROOT, webAssets } from './assets.js';
import { sendAuthFailure, sendNotFound } from './not-found.js';
import { REPO_VIEWS } from './repo-views.js';
import { searchPage } from './search-page.js';
import type { WebServices } from './services.js';
import { viewerOf } from './viewer.js';
import { parseRepoPath } from './web-paths.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';

export function webRoutes(services: WebServices): Route<Authentication>[] {
  return [
    {
      method: 'GET',
      path: `${ASSETS_ROOT}*`,
      handler(request, reply) {
        const { base, files } = webAssets();
        const asset = request.path.startsWith(base) ? files.get(request.path.slice(base.length)) : undefined;
        if (asset === undefined) return reply.text(404, `404 page not found: ${request.path}`);
        reply.send(200, asset.body, { 'Content-Type': asset.type, 'Cache-Control': IMMUTABLE, 'X-Content-Type-Options': 'nosniff' });
      },
    },
    {
      method: 'GET',
      path: '/search',
      handler(request, reply) {
        const viewer = viewerOf(request, services.idp);
        if ('status' in viewer) return sendAuthFailure(reply, viewer);
        return searchPage(services, request, viewer, reply);
      },
    },
    // Last in the whole table: every path no other route takes.
    { method: '*', path: '/*', handler: (request, reply) => repositoryPage(services, request, reply) },
  ];
}

async function repositoryPage(services: WebServices, request: HttpRequest<Authentication>, reply: Reply): Promise<void> {
  const notFound = () => {
    // A person's browser gets the page (with the search box), an API client the plain line it always had.
    if (request.method === 'GET' && request.auth.ok && !request.path.startsWith('/.') && (request.headers['accept'] ?? '').includes('text/html')) {
      return sendNotFound(reply, pageContext(request, services.idp), `No page is at ${request.path}.`);
    }
    reply.text(404, `404 page not found: ${request.path}`);
  };
  if (request.method !== 'GET' && request.method !== 'HEAD') return notFound();
  const location = parseRepoPath(request.path);
  // `/.api/…` and the like are the APIs' paths, never a repository's.
  if (location === null || location.repo.startsWith('.')) return notFound();
  const view = REPO_VIEWS[location.view];
  if (view === undefined) return notFound();
  const viewer = viewerOf(request, services.idp);
  if ('status' in viewer) return sendAuthFailure(reply, viewer);
  const repo = services.repos.get(location.repo, viewer.principal.canRead);
  if (repo === null) return sendNotFound(reply, viewer.context, `No repository named ${location.repo} is here, or you may not read it.`);
  await view(services, { request, viewer, location, repo }, reply);
}
