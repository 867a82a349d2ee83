/**
 * The deep search pages: `/deepsearch/<token>` (the normal link: its owner and site admins only)
 * and `/deepsearch/shared/<token>` (anyone signed in who has the link), each also as Markdown with
 * `.md`. The viewer is the sign-in session, or else a user:all access token in the Authorization
 * header (agents fetching the `.md`). Anyone else is sent to sign in (the `.md`: 401), and a link
 * they may not open is the same 404 as one that does not exist. No script: a page whose research
 * still runs reloads itself (Refresh header).
 */
import { authorize, type SiteAccess } from '../../auth/authorize.js';
import type { IdentityProvider } from '../../auth/oauth/service.js';
import type { Authentication } from '../../auth/principal.js';
import { conversationMarkdown } from '../../deepsearch/render.js';
import type { DeepSearch, Viewer } from '../../deepsearch/service.js';
import type { HttpRequest } from '../../http/request.js';
import type { Reply } from '../../http/respond.js';
import type { Route } from '../../http/routes.js';
import { html, pageContext, redirect, sendPage, type PageContext } from '../pages/kit.js';
import { signInLocation } from '../pages/session-pages.js';
import { conversationPage, conversationTitle, REFRESH_SECONDS } from './conversation-page.js';

export interface DeepSearchPageDeps {
  readonly deepSearch: DeepSearch;
  readonly idp: IdentityProvider;
  /** Site setting `auth.public`, as the authorization table reads it for a token. */
  readonly site: () => SiteAccess;
}

export const DEEPSEARCH_PAGES_PATH = '/deepsearch/';

const PAGE_PATH = /^\/deepsearch\/(shared\/)?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(\.md)?$/i;

const MARKDOWN_HEADERS = Object.freeze({ 'Content-Type': 'text/markdown; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', Vary: 'Authorization, Cookie' });
const TEXT_HEADERS = Object.freeze({ 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', Vary: 'Authorization, Cookie' });

const NEEDS_SIGN_IN = 'Sign in, or send an access token with the user:all scope, to read deep search conversations.';

type Who = { readonly viewer: Viewer } | { readonly refused: { readonly status: number; readonly body: string; readonly headers: Readonly<Record<string, string>> } } | null;

/** The session's user, else the header token's; a token that fails is refused as the API refuses it. */
function viewerOf(request: HttpRequest<Authentication>, context: PageContext, site: () => SiteAccess): Who {
  if (context.user !== null) return { viewer: { userId: context.user.id, siteAdmin: context.user.siteAdmin } };
  if (request.headers['authorization'] === undefined) return null;
  const decision = authorize(request.auth, 'deepsearch', site);
  if (!decision.ok) return { refused: decision.answer };
  return decision.principal.userId === null ? null : { viewer: { userId: decision.principal.userId, siteAdmin: decision.principal.siteAdmin } };
}

function notFound(reply: Reply, context: PageContext, markdown: boolean): void {
  const message = 'No deep search conversation you can read has this link. A normal link opens only for the person who asked and site admins; ask them for its shared link.';
  if (markdown) return reply.send(404, `${message}\n`, TEXT_HEADERS);
  sendPage(reply, 404, context, 'Not found', html`<h1>Deep search conversation not found</h1><p class="error">${message}</p>`);
}

export function deepSearchPageRoutes(deps: DeepSearchPageDeps): Route<Authentication>[] {
  const handler = (request: HttpRequest<Authentication>, reply: Reply): void => {
    const context = pageContext(request, deps.idp);
    const parsed = PAGE_PATH.exec(request.path);
    const markdown = parsed?.[3] !== undefined;
    if (parsed === null) return notFound(reply, context, request.path.endsWith('.md'));
    const who = viewerOf(request, context, deps.site);
    if (who !== null && 'refused' in who) return reply.send(who.refused.status, who.refused.body, who.refused.headers);
    if (who === null) return markdown ? reply.send(401, `${NEEDS_SIGN_IN}\n`, TEXT_HEADERS) : redirect(reply, signInLocation(request.path));
    const shared = parsed[1] !== undefined;
    const found = deps.deepSearch.conversations.byReadToken(parsed[2]!);
    const byLink = deps.deepSearch.readable(who.viewer, found);
    const conversation = shared ? found : byLink;
    if (conversation === undefined) return notFound(reply, context, markdown);
    if (markdown) return reply.send(200, conversationMarkdown(conversation), MARKDOWN_HEADERS);
    const running = conversation.questions.some((q) => q.status !== 'completed');
    sendPage(reply, 200, context, conversationTitle(conversation), conversationPage(conversation, { shared, canShare: byLink !== undefined, origin: deps.idp.origin(request.headers) }), {
      Vary: 'Authorization, Cookie', ...(running ? { Refresh: String(REFRESH_SECONDS) } : {}),
    });
  };
  return [{ method: 'GET', path: `${DEEPSEARCH_PAGES_PATH}*`, handler }];
}
