/**
 * What a repository page is handed: the request, the viewer, the parsed location and the
 * repository the router found readable. Types only, so the views and their table import no circle.
 */
import type { Authentication } from '../../../auth/principal.js';
import type { HttpRequest } from '../../../http/request.js';
import type { Reply } from '../../../http/respond.js';
import type { RepoInfo } from '../../../model/repos.js';
import type { WebServices } from './services.js';
import type { Viewer } from './viewer.js';
import type { RepoLocation } from './web-paths.js';

export interface RepoViewRequest {
  readonly request: HttpRequest<Authentication>;
  readonly viewer: Viewer;
  readonly location: RepoLocation;
  /** The repository, already known to be readable by the viewer. */
  readonly repo: RepoInfo;
}

export type RepoView = (services: WebServices, view: RepoViewRequest, reply: Reply) => void | Promise<void>;
