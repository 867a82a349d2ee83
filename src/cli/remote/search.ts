/**
 * `quarry search` against a server, as `src search` does it (reference §6.4): one GraphQL request
 * (the exact query src-cli sends), or with --stream the streaming search API.
 */
import type { CliIO } from '../command.js';
import { postGraphQL, streamSearch } from './client.js';
import type { RemoteEndpoint } from './endpoint.js';

/** The query `src search` sends, verbatim in shape (§6.4). */
export const SRC_SEARCH_QUERY = `query ($query: String!) {
  site { buildVersion }
  search(query: $query) {
    results {
      results {
        __typename
        ... on FileMatch {
          repository { name url }
          file { name path url content commit { oid } }
          lineMatches { preview lineNumber offsetAndLengths limitHit }
        }
        ... on CommitSearchResult {
          messagePreview { value highlights { line character length } }
          diffPreview { value highlights { line character length } }
          label { html }
          url
          matches { url body { html text } highlights { character line length } }
          commit { repository { name } oid url subject author { date person { displayName } } }
        }
        ... on Repository { name url externalURLs { serviceType url } label { html } }
      }
      limitHit
      cloning { name }
      missing { name }
      timedout { name }
      resultCount
      elapsedMilliseconds
      alert { title description proposedQueries { description query } }
    }
  }
}`;

interface GraphQLSearch {
  site?: { buildVersion?: string };
  search?: { results?: { results?: Record<string, unknown>[]; limitHit?: boolean; cloning?: unknown[]; missing?: unknown[]; timedout?: unknown[]; resultCount?: number; elapsedMilliseconds?: number; alert?: unknown } };
}

export async function remoteSearch(endpoint: RemoteEndpoint, query: string, json: boolean, io: CliIO): Promise<number> {
  const reply = await postGraphQL(endpoint, SRC_SEARCH_QUERY, { query });
  if (reply.errors?.length) {
    for (const e of reply.errors) io.err(`quarry: ${e.message}`);
    return 1;
  }
  const data = (reply.data ?? {}) as GraphQLSearch;
  const results = data.search?.results ?? {};
  if (json) {
    io.out(JSON.stringify({
      SourcegraphEndpoint: endpoint.url, Query: query, Site: { BuildVersion: data.site?.buildVersion ?? '' },
      Results: results.results ?? [], LimitHit: results.limitHit ?? false, Cloning: results.cloning ?? [], Missing: results.missing ?? [],
      Timedout: results.timedout ?? [], ResultCount: results.resultCount ?? 0, ElapsedMilliseconds: results.elapsedMilliseconds ?? 0, Alert: results.alert ?? null,
    }, null, 2));
    return 0;
  }
  for (const result of results.results ?? []) printResult(result, io);
  io.err(`${results.resultCount ?? 0} results in ${results.elapsedMilliseconds ?? 0} ms${results.limitHit ? ' (limit hit)' : ''}`);
  return 0;
}

function printResult(result: Record<string, unknown>, io: CliIO): void {
  if (result['__typename'] === 'Repository') {
    io.out(String(result['name']));
    return;
  }
  const repository = result['repository'] as { name?: string } | undefined;
  const file = result['file'] as { path?: string } | undefined;
  io.out(`${repository?.name ?? ''} › ${file?.path ?? ''}`);
  for (const line of (result['lineMatches'] as { preview: string; lineNumber: number }[] | undefined) ?? []) io.out(`  ${line.lineNumber + 1}: ${line.preview}`);
}

export async function remoteStreamSearch(endpoint: RemoteEndpoint, query: string, json: boolean, io: CliIO): Promise<number> {
  let failed = false;
  for await (const { event, data } of streamSearch(endpoint, query, -1)) {
    if (event === 'matches') {
      for (const match of data as Record<string, unknown>[]) {
        if (json) io.out(JSON.stringify(match));
        else printStreamMatch(match, io);
      }
    } else if (event === 'alert') {
      if (json) io.out(JSON.stringify(data));
      else io.err(`alert: ${(data as { title?: string }).title ?? ''}`);
    } else if (event === 'error') {
      failed = true;
      io.err(`quarry: ${(data as { message?: string }).message ?? 'search failed'}`);
    } else if (event === 'progress' && (data as { done?: boolean }).done) {
      if (json) io.out(JSON.stringify(data));
      else io.err(`${(data as { matchCount?: number }).matchCount ?? 0} matches in ${(data as { durationMs?: number }).durationMs ?? 0} ms`);
    }
  }
  return failed ? 1 : 0;
}

function printStreamMatch(match: Record<string, unknown>, io: CliIO): void {
  if (match['type'] === 'repo') {
    io.out(String(match['repository']));
    return;
  }
  io.out(`${String(match['repository'])} › ${String(match['path'])}`);
  for (const line of (match['lineMatches'] as { line: string; lineNumber: number }[] | undefined) ?? []) io.out(`  ${line.lineNumber + 1}: ${line.line}`);
}
