/**
 * What an evaluator script's module calls run on the host: each function of sandbox/protocol.ts
 * mapped to its implementation over the tools' services, as the calling principal. A failure the
 * script caused reaches it as its message; one of ours is logged and reaches it as a fixed text.
 * Searches that hit the engine's limit are remembered, so the answer can say so. The caller's
 * read permission is asked once per repository per run (see oncePerRepository).
 */
import { errorMessage, isCallerFacing } from '../../../errors.js';
import type { HostCall, HostFunction } from '../../../sandbox/script-runner.js';
import { ToolError, type ToolContext } from '../tool.js';
import { ScriptArgs } from './evaluator-args.js';
import { commitRows, diffRows } from './evaluator-history.js';
import { definitionValue, referenceRows } from './evaluator-nav.js';
import { keywordRows, nlsRows, symbolRows } from './evaluator-search.js';
import { listSource, readSource } from './evaluator-source.js';

type Handler = (ctx: ToolContext, args: ScriptArgs) => Promise<unknown>;

const HANDLERS: Readonly<Record<HostFunction, Handler>> = {
  'search.keyword': keywordRows,
  'search.nls': nlsRows,
  'search.symbols': symbolRows,
  'search.commits': commitRows,
  'search.diffs': diffRows,
  'nav.definition': definitionValue,
  'nav.references': referenceRows,
  'source.read': readSource,
  'source.list': listSource,
};

export interface ScriptHost {
  readonly call: HostCall;
  /** Calls whose results were cut short (the engine's match limit, a count), in the order made. */
  readonly truncated: string[];
}

export function scriptHost(ctx: ToolContext, log: (line: string) => void): ScriptHost {
  const truncated: string[] = [];
  const run: ToolContext = { ...ctx, principal: { ...ctx.principal, canRead: oncePerRepository(ctx.principal.canRead) } };
  const call: HostCall = async (name, args, signal) => {
    try {
      const value = await HANDLERS[name]({ ...run, signal }, new ScriptArgs(args));
      if (Array.isArray(value) && (value as { truncated?: boolean }).truncated === true) truncated.push(describeCall(name, args));
      return value;
    } catch (err) {
      if (err instanceof ToolError || isCallerFacing(err)) throw new Error(errorMessage(err));
      log(`mcp: evaluator: ${name} failed: ${errorMessage(err)}`);
      throw new Error('internal error; the server log has details');
    }
  };
  return { call, truncated };
}

/**
 * `canRead` remembered per repository for the run: every search asks it of every repository (a
 * store read each for a user who is not a site admin), and a script makes up to a hundred. A run is
 * one request, so a permission changed while it runs applies from the next request, as for any other.
 */
function oncePerRepository(canRead: (repo: string) => boolean): (repo: string) => boolean {
  const known = new Map<string, boolean>();
  return (repo) => {
    let allowed = known.get(repo);
    if (allowed === undefined) known.set(repo, (allowed = canRead(repo)));
    return allowed;
  };
}

/** `search.keyword("foo")`, the first argument shortened: enough to find the call in the script. */
function describeCall(name: HostFunction, args: readonly unknown[]): string {
  const first = args[0];
  const shown = typeof first === 'string' ? JSON.stringify(first.length > 60 ? `${first.slice(0, 57)}...` : first) : first === undefined ? '' : '{…}';
  return `${name}(${shown})`;
}
