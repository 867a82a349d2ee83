/**
 * The web app's refusals as pages: not found (also for a repository the viewer may not read, so
 * its name is never confirmed), and credentials that did not authenticate.
 */
import type { AuthFailure } from '../../../auth/principal.js';
import type { Reply } from '../../../http/respond.js';
import { html, type PageContext } from '../kit.js';
import { sendAppPage } from './layout.js';

export function sendNotFound(reply: Reply, context: PageContext, what: string): void {
  sendAppPage(reply, 404, context, {
    title: 'Not found',
    content: html`<h1>Not found</h1><p>${what}</p><p><a href="/search">Search code</a></p>`,
  });
}

export function sendAuthFailure(reply: Reply, failure: AuthFailure): void {
  reply.text(failure.status, `${failure.message}\n`);
}
