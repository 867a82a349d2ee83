/**
 * `GET /.api/search/stream`: Sourcegraph's streaming search (reference §3.4) as server-sent events.
 * Matches go out as shards finish; the client's disconnect aborts the search down to the pool.
 */
import { authorize, type SiteAccess } from '../../auth/authorize.js';
import type { Authentication } from '../../auth/principal.js';
import { isQuarryError, publicMessage, type ErrorCode } from '../../errors.js';
import type { Route } from '../../http/routes.js';
import type { StreamWriter } from '../../http/respond.js';
import type { SearchMatch, SearchResponse } from '../../model/result.js';
import type { SearchService } from '../../search/contracts.js';
import { shapeMatches, type FileReader } from './context.js';
import { searchFilters, sseEvent, type MatchShape } from './events.js';
import { parseStreamParams, type StreamParams } from './params.js';

export type SearchOutcome = 'completed' | 'alert' | 'error' | 'cancelled';

export interface StreamSearchDeps {
  readonly search: SearchService;
  /** Site setting `auth.public`, read per request. */
  readonly site: () => SiteAccess;
  readonly onSearchEnd?: (outcome: SearchOutcome) => void;
  /** Files at a commit, for context lines in chunk matches; without it chunks hold matched lines only. */
  readonly readFile?: FileReader;
}

export const STREAM_PATH = '/.api/search/stream';

const SSE_HEADERS = { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' };

/** Errors in what the user asked for: answered with an `alert`, like Sourcegraph's "Unable To Process Query". */
const ALERT_CODES: readonly ErrorCode[] = ['QUERY_SYNTAX', 'QUERY_UNSUPPORTED', 'PATTERN_UNSUPPORTED', 'PATTERN_INVALID', 'REVISION_NOT_FOUND', 'REPO_NOT_FOUND'];

/** Intermediate progress events come at most this often. */
const PROGRESS_INTERVAL_MS = 250;

export function streamSearchRoute(deps: StreamSearchDeps): Route<Authentication> {
  return {
    method: 'GET',
    path: STREAM_PATH,
    async handler(request, reply) {
      const decision = authorize(request.auth, 'stream', deps.site);
      if (!decision.ok) return reply.send(decision.answer.status, decision.answer.body, decision.answer.headers);
      const params = parseStreamParams(request.query);
      if ('error' in params) return reply.text(400, params.error);
      const events = eventQueue(reply.stream(200, SSE_HEADERS));
      const shape: MatchShape = { chunkMatches: params.chunkMatches, maxLineLen: params.maxLineLen, contextLines: params.contextLines };
      const sink: StreamSink = {
        matches: (matches) => void events.sendLater('matches', () => shapeMatches(matches, shape, deps.readFile)),
        send: (name, data) => void events.send(name, data),
      };
      const outcome = await runStream(deps.search, params, decision.principal.canRead, request.signal, sink);
      deps.onSearchEnd?.(outcome);
      void events.send('done', {});
      await events.end();
    },
  };
}

/**
 * Where one search's events go, in order: the stream API's server-sent events, or the search page's
 * HTML (its first results rendered, the rest as data for its script). Matches come as the engine's,
 * so each door shapes them its own way.
 */
export interface StreamSink {
  matches(matches: readonly SearchMatch[]): void;
  send(name: string, data: unknown): void;
}

/** Runs one search, sending its matches as shards find them, then its filters and final progress. */
export async function runStream(search: SearchService, params: StreamParams, canRead: (repo: string) => boolean, signal: AbortSignal, events: StreamSink): Promise<SearchOutcome> {
  const started = performance.now();
  const sent = new Set<string>();
  let streamedCount = 0;
  let lastProgress = 0;
  const sendMatches = (matches: readonly SearchMatch[]): void => {
    const fresh = matches.filter((m) => !sent.has(matchKey(m)));
    const room = params.display < 0 ? fresh.length : Math.max(0, params.display - sent.size);
    for (const m of fresh) sent.add(matchKey(m));
    if (room > 0 && fresh.length > 0) events.matches(fresh.slice(0, room));
  };
  const onMatches = (matches: readonly SearchMatch[]): void => {
    sendMatches(matches);
    streamedCount += matches.reduce((n, m) => n + (m.type === 'repo' ? 1 : m.matchCount), 0);
    const now = performance.now();
    if (lastProgress !== 0 && now - lastProgress < PROGRESS_INTERVAL_MS) return;
    lastProgress = now;
    events.send('progress', { done: false, matchCount: streamedCount, durationMs: Math.round(now - started), skipped: [] });
  };
  let response: SearchResponse;
  try {
    // A select: search ignores onMatches and sends its matches at the end (search/service.ts).
    response = await search.search({ query: params.query, patternType: params.patternType, signal, canRead, onMatches });
  } catch (err) {
    if (signal.aborted) return 'cancelled';
    if (isQuarryError(err) && ALERT_CODES.includes(err.code)) {
      events.send('alert', { title: 'Unable To Process Query', description: publicMessage(err), proposedQueries: [] });
      events.send('progress', { done: true, matchCount: 0, durationMs: Math.round(performance.now() - started), skipped: [] });
      return 'alert';
    }
    // Only what publicMessage allows: a git or index failure may name the data directory.
    events.send('error', { message: publicMessage(err) });
    return 'error';
  }
  sendMatches(response.matches);
  events.send('filters', searchFilters(response.matches, response.limitHit));
  events.send('progress', {
    done: true, repositoriesCount: new Set(response.matches.map((m) => m.repositoryID)).size, matchCount: response.matchCount,
    durationMs: Math.round(performance.now() - started), skipped: response.skipped,
  });
  return 'completed';
}

function matchKey(m: SearchMatch): string {
  if (m.type === 'commit') return `commit\0${m.repositoryID}\0${m.oid}`;
  return m.type === 'repo' ? `repo\0${m.repositoryID}` : `file\0${m.repositoryID}\0${m.commit}\0${m.path}`;
}

interface EventQueue {
  /** Resolves false once the client is gone. */
  send(name: string, data: unknown): Promise<boolean>;
  /** The data made only when the events before it are written (matches reading their context), so the first go out first. */
  sendLater(name: string, make: () => Promise<unknown>): Promise<boolean>;
  /** Writes what is queued with the response's end. */
  end(): Promise<void>;
}

type QueuedEvent = string | (() => Promise<string>);

/**
 * Keeps events in order while each write waits for the socket to drain. Events queued in one turn
 * of the event loop, or while a write is pending, go out together, and the last ones with the
 * response's end: each write is a send to the client (a selective search's events had cost 5-8).
 */
function eventQueue(writer: StreamWriter): EventQueue {
  let chain: Promise<boolean> = Promise.resolve(true);
  let queued: QueuedEvent[] = [];
  let ending = false;
  const takeQueued = async (): Promise<string> => {
    const events = queued;
    queued = [];
    let text = '';
    for (const event of events) text += typeof event === 'string' ? event : await event();
    return text;
  };
  const enqueue = (event: QueuedEvent): Promise<boolean> => {
    // The first event of a batch schedules its write; the rest join it until that write starts.
    // A write waits for the turn of the event loop to end, so what the same turn queues joins it;
    // once the end is asked for, what is queued waits for it, to go out in the same write.
    if (queued.length === 0) chain = chain.then(async (open) => {
      if (open) await new Promise(setImmediate);
      return open && !ending ? writer.write(await takeQueued()) : open;
    });
    queued.push(event);
    return chain;
  };
  return {
    send: (name, data) => enqueue(sseEvent(name, data)),
    sendLater: (name, make) => enqueue(async () => sseEvent(name, await make())),
    end: async () => {
      ending = true;
      const open = await chain;
      if (open) writer.end(await takeQueued());
    },
  };
}
