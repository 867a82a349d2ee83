/**
 * GNU global and universal-ctags over the fetched projects, answering the same questions as Quarry:
 * global with its `--nearness` ranking and `-r` references, ctags by name (same file, same
 * directory, same project, rest). Neither knows scopes, imports or types.
 */
import { dirname } from 'node:path';
import { ctagsByName } from '../navigation-ctags.js';
import { indexWithGlobal } from '../navigation-global.js';
import { NO_REFERENCES, type DefinitionAnswer, type NavigationUnderTest } from './quarry-nav.js';

/** The projects' own files: no `.git`, nothing beside the project directories. */
function projectFile(projects: readonly string[]): (relativePath: string) => boolean {
  return (path) => path === '' || (projects.includes(path.split('/')[0]!) && !path.split('/').includes('.git'));
}

export function openGlobalPeer(corpus: string, projects: readonly string[]): NavigationUnderTest {
  const index = indexWithGlobal(corpus, projectFile(projects));
  return {
    name: 'GNU global (pygments)',
    async definitionOf(usage): Promise<DefinitionAnswer> {
      const top = index.run(['-d', `--nearness=${usage.project}/${dirname(usage.path)}`, usage.name])[0];
      return top === undefined ? null : { project: top.top, at: { path: top.path, line: top.line } };
    },
    // global tells no resolution apart: every same-named use is claimed.
    async referencesOf(set) {
      return { claimed: index.run(['-r', set.name]).map((r) => `${r.top}/${r.path}:${r.line}`), nameMatches: [] };
    },
    close: async () => index.dispose(),
  };
}

export function openCtagsPeer(corpus: string, projects: readonly string[]): NavigationUnderTest {
  const byName = ctagsByName(corpus, projects);
  return {
    name: 'universal-ctags (by name: file, directory, project, rest)',
    async definitionOf(usage): Promise<DefinitionAnswer> {
      const near = (tag: { top: string; path: string }): number => {
        if (tag.top !== usage.project) return 3;
        if (tag.path === usage.path) return 0;
        return dirname(tag.path) === dirname(usage.path) ? 1 : 2;
      };
      const best = (byName.get(usage.name) ?? []).map((tag, order) => ({ tag, order, near: near(tag) }))
        .sort((a, b) => a.near - b.near || a.order - b.order)[0]?.tag;
      return best === undefined ? null : { project: best.top, at: { path: best.path, line: best.line } };
    },
    // ctags lists definitions only.
    referencesOf: async () => NO_REFERENCES,
    close: async () => undefined,
  };
}
