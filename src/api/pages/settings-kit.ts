/**
 * What every Settings page shares: the services they act through, the section menu (admin sections
 * for site admins only), the guards (signed in; site admin, else 403), and form routes that refuse
 * a missing or foreign CSRF token before acting and show a refused action's reason on the page.
 */
import { isCallerFacing, publicMessage } from '../../errors.js';
import type { IdentityProvider } from '../../auth/oauth/service.js';
import type { HttpRequest } from '../../http/request.js';
import type { Reply } from '../../http/respond.js';
import type { Route } from '../../http/routes.js';
import type { AccountService } from '../../model/accounts.js';
import type { OAuthApplicationService } from '../../model/oauth-apps.js';
import { html, pageContext, readForm, redirect, refuseForm, sendPage, type PageContext, type SafeHtml } from './kit.js';
import { signInLocation } from './session-pages.js';

export interface SettingsServices {
  readonly idp: IdentityProvider;
  readonly accounts: AccountService;
  readonly apps: OAuthApplicationService;
}

/** A page context with someone signed in. */
export type SignedIn = PageContext & { readonly user: NonNullable<PageContext['user']> };

interface Section {
  readonly path: string;
  readonly title: string;
  readonly admin: boolean;
}

export const SECTIONS = {
  account: { path: '/settings', title: 'Account', admin: false },
  tokens: { path: '/settings/tokens', title: 'Access tokens', admin: false },
  authorized: { path: '/settings/applications', title: 'Authorized applications', admin: false },
  oauthApps: { path: '/site-admin/oauth-apps', title: 'OAuth applications', admin: true },
  users: { path: '/site-admin/users', title: 'Users', admin: true },
  roles: { path: '/site-admin/roles', title: 'Roles', admin: true },
} as const satisfies Record<string, Section>;

function menu(context: SignedIn, current: Section): SafeHtml {
  const visible = Object.values(SECTIONS).filter((s) => !s.admin || context.user.siteAdmin);
  return html`<nav class="settings" aria-label="Settings">${visible.map((s) => (s === current ? html`<a href="${s.path}" aria-current="page">${s.title}</a>` : html`<a href="${s.path}">${s.title}</a>`))}</nav>`;
}

/** A Settings page: the menu, the section's heading, an optional error, then the content. */
export function sendSettings(reply: Reply, status: number, context: SignedIn, section: Section, content: SafeHtml, problem: string | null = null): void {
  sendPage(reply, status, context, section.title, html`${menu(context, section)}<h1>${section.title}</h1>
${problem === null ? '' : html`<p class="error" role="alert">${problem}</p>`}${content}`);
}

/** The signed-in context, or null after answering (sign-in redirect; 403 on an admin section for others). */
function admitted(request: HttpRequest, reply: Reply, services: SettingsServices, section: Section, returnTo: string): SignedIn | null {
  const context = pageContext(request, services.idp);
  if (context.user === null) {
    redirect(reply, signInLocation(returnTo));
    return null;
  }
  const signedIn = context as SignedIn;
  if (section.admin && !signedIn.user.siteAdmin) {
    sendPage(reply, 403, context, 'Forbidden', html`<h1>Forbidden</h1><p class="error">Only site admins may open ${section.title}.</p>`);
    return null;
  }
  return signedIn;
}

/** Renders the section for a visitor; `problem` (with its status) when an action was refused. */
export type SectionView = (reply: Reply, context: SignedIn, problem?: { status: number; message: string }) => void;

export function viewRoute(services: SettingsServices, section: Section, view: SectionView): Route {
  return {
    method: 'GET', path: section.path, handler(request, reply) {
      const context = admitted(request, reply, services, section, section.path);
      if (context !== null) view(reply, context);
    },
  };
}

/**
 * A form posted to `path` from the section's page. `act` either answers itself or returns null,
 * after which the browser goes back to the section (303). Errors a caller can fix are shown there.
 */
export function actionRoute(services: SettingsServices, section: Section, path: string, view: SectionView, act: (form: URLSearchParams, context: SignedIn, reply: Reply) => 'answered' | null): Route {
  return {
    method: 'POST', path, handler(request, reply) {
      const context = admitted(request, reply, services, section, section.path);
      if (context === null) return;
      const form = readForm(request, context);
      if (form === null) return refuseForm(reply, context);
      try {
        if (act(form, context, reply) === null) redirect(reply, section.path);
      } catch (err) {
        if (!isCallerFacing(err)) throw err;
        view(reply, context, { status: 400, message: publicMessage(err) });
      }
    },
  };
}

export function formatTime(iso: string | null): string {
  return iso === null ? 'never' : iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
}
