/**
 * The repository pages by the view word of their URL (`tree`, `blob`, …): each reads the
 * repository the router found readable by the viewer, at the revision of the URL. A revision, path
 * or argument the services refuse answers the not-found page with their reason, never a 500.
 */
import { isQuarryError, type ErrorCode } from '../../../errors.js';
import { blobView } from './blob-view.js';
import { commitView } from './commit-view.js';
import { commitsView } from './commits-view.js';
import { compareView } from './compare-view.js';
import { contributorsView } from './contributors-view.js';
import { definitionView } from './definition-view.js';
import { sendNotFound } from './not-found.js';
import { rawView } from './raw-view.js';
import { referencesView } from './references-view.js';
import { branchesView, tagsView } from './refs-view.js';
import type { RepoView } from './repo-view.js';
import { treeView } from './tree-view.js';


/** What a user typed wrong (or a repository emptied meanwhile): a not-found page saying why. */
const REFUSALS: ReadonlySet<ErrorCode> = new Set(['REVISION_NOT_FOUND', 'REPO_NOT_FOUND', 'INVALID_ARGUMENT']);

function refusalsAsNotFound(view: RepoView): RepoView {
  return async (services, request, reply) => {
    try {
      await view(services, request, reply);
    } catch (err) {
      if (!isQuarryError(err) || !REFUSALS.has(err.code)) throw err;
      sendNotFound(reply, request.viewer.context, `${err.message}.`);
    }
  };
}

const VIEWS: Readonly<Record<string, RepoView>> = {
  tree: treeView,
  blob: blobView,
  raw: rawView,
  branches: branchesView,
  tags: tagsView,
  commits: commitsView,
  commit: commitView,
  compare: compareView,
  contributors: contributorsView,
  definition: definitionView,
  references: referencesView,
};

export const REPO_VIEWS: Readonly<Record<string, RepoView>> = Object.fromEntries(Object.entries(VIEWS).map(([word, view]) => [word, refusalsAsNotFound(view)]));
