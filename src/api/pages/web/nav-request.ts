/**
 * What the definition and references pages share: the clicked position in a file at a revision,
 * resolved to its definition by the MCP tools' resolver, or a 404 (a page, or JSON for the file
 * view's script) saying what was not found.
 */
import type { Reply } from '../../../http/respond.js';
import type { DefinitionSite } from '../../../symbols/navigation/model.js';
import type { DefinitionAnswer } from '../../../symbols/navigation/definition.js';
import { sendNotFound } from './not-found.js';
import { definitionAt, positionOf, siteUrl, startNavigation, wantsJson, type NavigationStart } from './navigation.js';
import { resolveAt, type RepoAt } from './repo-page.js';
import type { RepoViewRequest } from './repo-view.js';
import type { WebServices } from './services.js';

export interface ResolvedClick {
  readonly at: RepoAt;
  readonly start: NavigationStart;
  readonly name: string;
  readonly answer: DefinitionAnswer;
  readonly position: { readonly line: number; readonly character: number };
}

export async function resolveClick(services: WebServices, view: RepoViewRequest, reply: Reply): Promise<ResolvedClick | null> {
  const json = wantsJson(view.request.headers['accept']);
  const fail = (message: string): null => {
    if (json) reply.json(404, { error: message });
    else sendNotFound(reply, view.viewer.context, message);
    return null;
  };
  const path = view.location.path;
  const at = await resolveAt(services, view);
  if (at === null) return fail(`No revision named ${view.location.rev ?? '(the default branch)'} exists in ${view.repo.name}.`);
  const position = positionOf(view.request.query);
  if (position === null) return fail('Code navigation needs the position clicked: "line" and "character", both 1-based.');
  const bytes = path === '' ? null : await services.repos.readBlob(at.repo, at.commit, path);
  if (bytes === null) return fail(`No file named ${path} exists at ${at.label} in ${at.repo}.`);
  const start = await startNavigation(services, view.viewer.principal.canRead, at, path, bytes);
  if (start === null) return fail(`Code navigation does not support ${path}: its language has no symbol tables, or the file is too large.`);
  const found = definitionAt(start, position.line, position.character);
  if (found === null) return fail(`No identifier is at line ${position.line}, character ${position.character} of ${path}.`);
  if (found.answer === null) return fail(`No definition of ${found.name} was found in the repositories you may read: it may be defined outside them.`);
  return { at, start, name: found.name, answer: found.answer, position };
}

/** A definition as the JSON answers and the pages describe it. */
export interface DefinitionJson {
  readonly repo: string;
  readonly path: string;
  readonly line: number;
  readonly kind: string;
  readonly url: string;
  /** The definition's first line, trimmed: what a hover shows. */
  readonly signature: string;
}

const MAX_SIGNATURE_CHARS = 300;

export async function describeSite(services: WebServices, at: RepoAt, site: DefinitionSite): Promise<DefinitionJson> {
  const bytes = await services.repos.readBlob(site.file.repo, site.file.commit, site.file.path);
  const firstLine = site.definition.range.startLine;
  const text = bytes === null ? '' : (new TextDecoder().decode(bytes).split('\n')[firstLine] ?? '');
  const line = site.definition.nameRange.startLine + 1;
  return {
    repo: site.file.repo, path: site.file.path, line, kind: site.definition.kind, url: siteUrl(at, site.file, line),
    signature: text.trim().slice(0, MAX_SIGNATURE_CHARS),
  };
}
