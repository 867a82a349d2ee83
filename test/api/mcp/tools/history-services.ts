/**
 * MCP services for the history tools over real git directories: the commit index in LMDB on disk,
 * diff history over the same directories, the engine pool in this thread; and a helper that follows
 * an answer's cursor to its last page, as an agent would.
 */
import assert from 'node:assert/strict';
import type { McpServices } from '../../../../src/api/mcp/services.js';
import type { ToolDefinition } from '../../../../src/api/mcp/tool.js';
import { createDiffHistory } from '../../../../src/history/diff-service.js';
import { createHistoryService } from '../../../../src/history/history-service.js';
import { createRepoHistory } from '../../../../src/history/repo-history.js';
import { openCommitStore } from '../../../../src/index/commits/commit-store.js';
import type { RepoBrowser, RepoInfo } from '../../../../src/model/repos.js';
import { createInThreadEnginePool } from '../../../../src/pool/in-thread-pool.js';
import { callTool, type CallOptions } from '../tool-context.js';

export interface HistoryServices {
  readonly services: McpServices;
  close(): Promise<void>;
}

/** `repos` maps each repository name to its git directory. */
export function historyServices(repos: Readonly<Record<string, string>>, dataDir: string): HistoryServices {
  const names = Object.keys(repos);
  const pool = createInThreadEnginePool();
  const store = openCommitStore(dataDir);
  const info = (name: string): RepoInfo => ({ id: names.indexOf(name) + 1, name, description: '', fork: false, archived: false, private: false, defaultBranch: 'main' });
  const browser = {
    get: (name: string, canRead: (r: string) => boolean) => (names.includes(name) && canRead(name) ? info(name) : null),
    list: (canRead: (r: string) => boolean) => names.filter(canRead).map(info),
  } as unknown as RepoBrowser;
  const historyRepo = (name: string) => ({ name, id: names.indexOf(name) + 1, gitDir: repos[name]! });
  const history = createRepoHistory(createHistoryService(store, pool), {
    get: (name) => (names.includes(name) ? historyRepo(name) : undefined),
    list: () => names.map(historyRepo),
  });
  const diffs = createDiffHistory((name) => repos[name]!, pool);
  return {
    services: { repos: browser, history, diffs } as unknown as McpServices,
    async close() {
      await pool.close();
      await store.close();
    },
  };
}

export interface Paged {
  /** The ids each page showed, in order. */
  readonly pages: readonly (readonly string[])[];
  readonly texts: readonly string[];
}

const CURSOR = /cursor: "([\w-]+)"/;
const MAX_PAGES = 500;

/** Calls the tool, then again with each answer's cursor until an answer gives none. */
export async function followCursors<Args>(services: McpServices, tool: ToolDefinition<Args>, args: Record<string, unknown>, idsOf: (text: string) => string[], options: CallOptions = {}): Promise<Paged> {
  const pages: string[][] = [];
  const texts: string[] = [];
  let cursor: string | undefined;
  do {
    const answer = await callTool(services, tool, cursor === undefined ? args : { ...args, cursor }, options);
    assert.equal(answer.isError, undefined, answer.text);
    texts.push(answer.text);
    pages.push(idsOf(answer.text));
    cursor = CURSOR.exec(answer.text)?.[1];
    assert.ok(pages.length <= MAX_PAGES, 'the cursors never end');
  } while (cursor !== undefined);
  return { pages, texts };
}

/** Short commit ids of diff_search sections (`# repo – <12 hex> – path`), each commit once, in order. */
export function diffSearchIds(text: string): string[] {
  return [...new Set([...text.matchAll(/^# \S+ \u2013 ([0-9a-f]{12}) \u2013 /gm)].map((m) => m[1]!))];
}

/** Short commit ids of commit_search blocks (`repo <10 hex> date author`), in order. */
export function commitSearchIds(text: string): string[] {
  return [...text.matchAll(/^\S+ ([0-9a-f]{10}) \d{4}-\d{2}-\d{2} /gm)].map((m) => m[1]!);
}

/** A literal as the POSIX extended regular expression `git log -G` reads. */
export function literalERE(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
}
