/**
 * The web app's refusals as pages: not found (also for a repository the viewer may not read, so
 * its name is never confirmed), with links to where the visitor may go next, and credentials that
 * did not authenticate.
 */
import type { AuthFailure } from '../../../auth/principal.js';
import type { Reply } from '../../../http/respond.js';
import { html, type PageContext } from '../kit.js';
import { sendAppPage } from './layout.js';

export interface NextLink {
  readonly href: string;
  readonly text: string;
}

/** `next`: the places nearest to what was asked for (the repository, a search for the name); a code search always follows. */
export function sendNotFound(reply: Reply, context: PageContext, what: string, next: readonly NextLink[] = []): void {
  const links = [...next, { href: '/search', text: 'Search code' }].map((l) => html`<li><a href="${l.href}">${l.text}</a></li>`);
  sendAppPage(reply, 404, context, {
    title: 'Not found',
    content: html`<div class="not-found"><h1>Not found</h1><p>${what}</p><ul class="next">${links}</ul></div>`,
  });
}

export function sendAuthFailure(reply: Reply, failure: AuthFailure): void {
  reply.text(failure.status, `${failure.message}\n`);
}
