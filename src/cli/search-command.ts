/**
 * `quarry search QUERY`: runs a search in-process, as the server will, and prints matches as
 * text or, with --json, one stream-API match object per line followed by a progress line.
 */
import { toStreamMatch } from '../api/stream/match-json.js';
import type { SearchMatch, SearchResponse } from '../model/result.js';
import { createServices } from '../services.js';
import { parseFlags, usageError, type CliIO, type Command } from './command.js';
import { ENGINE_FLAGS, ENGINE_FLAGS_USAGE, engineConfig } from './engine-flags.js';
import { endpointConfigured } from './remote/endpoint.js';
import { freshEndpoint } from './remote/oauth-login.js';
import { remoteSearch, remoteStreamSearch } from './remote/search.js';

const USAGE = `Usage: quarry search [flags] [--] QUERY

Searches with Sourcegraph's query language: in-process over --data (the default), or on a server
with --remote or --stream (also when SRC_ENDPOINT or ~/src-config.json names one and --data is
not given), like src search. For example:
  quarry search 'repo:quarry lang:typescript createError'
  quarry search -- '-file:test /func\\s+\\w+/ patterntype:regexp'
Put -- before a query that starts with "-".

Flags:
${ENGINE_FLAGS_USAGE}
  --json                 in-process or --stream: one stream-API match object per line, then a
                         progress line; --remote: src search's JSON
  --stats                print search statistics after the matches (in-process)
  --remote               search on the server at SRC_ENDPOINT with SRC_ACCESS_TOKEN (GraphQL)
  --stream               the same through the streaming search API`;

export const searchCommand: Command = {
  name: 'search',
  summary: 'search indexed repositories in-process',
  usage: USAGE,
  async run(args: string[], io: CliIO): Promise<number> {
    const { flags, positionals } = parseFlags(args, { ...ENGINE_FLAGS, json: 'boolean', stats: 'boolean', remote: 'boolean', stream: 'boolean' });
    if (positionals.length === 0) throw usageError('search needs a query (quarry search --help)');
    const query = positionals.join(' ');
    if (flags.stream) return remoteStreamSearch(await freshEndpoint(), query, flags.json === true, io);
    if (flags.remote || (flags.data === undefined && endpointConfigured())) return remoteSearch(await freshEndpoint(), query, flags.json === true, io);
    const engine = createServices(engineConfig(flags));
    try {
      const response = await engine.search.search({ query });
      if (flags.json) printJson(response, io);
      else printText(response, io, flags.stats === true);
      return 0;
    } finally {
      await engine.close();
    }
  },
};

function printJson(response: SearchResponse, io: CliIO): void {
  for (const match of response.matches) io.out(JSON.stringify(toStreamMatch(match)));
  io.out(JSON.stringify({
    type: 'progress', done: true, matchCount: response.matchCount, limitHit: response.limitHit,
    durationMs: Math.round(response.stats.totalMs), skipped: response.skipped, query: response.query, stats: response.stats,
  }));
}

function printText(response: SearchResponse, io: CliIO, withStats: boolean): void {
  for (const match of response.matches) printMatch(match, io);
  const notes = response.skipped.map((s) => `${s.title}${s.suggested ? ` (try ${s.suggested.queryExpression})` : ''}`);
  io.err(`${response.matchCount} ${response.matchCount === 1 ? 'match' : 'matches'} in ${Math.round(response.stats.totalMs)} ms${notes.length ? `; ${notes.join('; ')}` : ''}`);
  if (withStats) io.err(JSON.stringify(response.stats));
}

function printMatch(match: SearchMatch, io: CliIO): void {
  if (match.type === 'repo') {
    io.out(match.repository);
    return;
  }
  if (match.type === 'commit') {
    io.out(`${match.repository} › ${match.oid.slice(0, 10)} ${match.authorDate.slice(0, 10)} ${match.authorName}: ${match.message.split('\n', 1)[0]}`);
    return;
  }
  io.out(`${match.repository} › ${match.path}`);
  for (const line of match.lineMatches) io.out(`  ${line.lineNumber + 1}: ${line.line}`);
}
