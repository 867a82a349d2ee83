/**
 * Who is looking at a page of the web app: the page context (sign-in, CSRF) and the principal whose
 * repository access every read of the page goes through: the signed-in person (session cookie), a
 * token the request carried, or an anonymous visitor of a public site.
 */
import type { IdentityProvider } from '../../../auth/oauth/service.js';
import type { AuthFailure, Authentication, Principal } from '../../../auth/principal.js';
import type { HttpRequest } from '../../../http/request.js';
import { pageContext, type PageContext } from '../kit.js';

export interface Viewer {
  readonly context: PageContext;
  readonly principal: Principal;
}

export function viewerOf(request: HttpRequest<Authentication>, idp: IdentityProvider): Viewer | AuthFailure {
  const auth = request.auth;
  if (!auth.ok) return auth.failure;
  return { context: pageContext(request, idp), principal: auth.principal };
}
