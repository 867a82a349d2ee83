/**
 * The search page as one streamed response, from the one search the stream API would run: the head
 * and shell go out at once, the first results as HTML the moment shards find them (their shown
 * lines only: the less there is to lay out, the sooner they are painted), and every later
 * event as an inert JSON data block (`<script type="application/json">`) the page's script reads as
 * the parser adds it (web/search-islands.ts). The browser going away aborts the search.
 */
import type { StreamWriter } from '../../../http/respond.js';
import type { SearchService } from '../../../search/contracts.js';
import { shapeMatches, type FileReader } from '../../stream/context.js';
import type { MatchShape } from '../../stream/events.js';
import type { StreamParams } from '../../stream/params.js';
import { runStream, type StreamSink } from '../../stream/route.js';
import { resultItems, type ResultMarkup } from './search-static.js';

/** The first results are shown as the script shows them: three lines each, "show more" for the rest. */
const FIRST_MARKUP: ResultMarkup = { lines: 3, more: 'button', timed: true };
/** Results of the first batch rendered as HTML; the rest of a large batch go to the script, which paints them a slice per frame. */
const FIRST_HTML = 10;

export interface StreamedPage {
  /** Sent at once: everything up to the open results list. */
  readonly start: string;
  /** Closes the results list and the shell, and loads the scripts (which need the shell whole). */
  readonly shellEnd: string;
  /** Opens the element the data blocks go in; `end` closes it and the page. */
  readonly eventsStart: string;
  readonly end: string;
}

/** `<` escaped, so no JSON text ends its script element early. */
export function dataBlock(name: string, data: unknown): string {
  return `<script type="application/json" data-event="${name}">${JSON.stringify(data).replace(/</g, '\\u003c')}</script>\n`;
}

export interface PageSearch {
  readonly search: SearchService;
  /** For context lines (context.ts). */
  readonly readFile: FileReader;
  readonly canRead: (repo: string) => boolean;
  readonly signal: AbortSignal;
}

export async function streamSearchPage(run: PageSearch, params: StreamParams, writer: StreamWriter, page: StreamedPage): Promise<void> {
  const shape: MatchShape = { chunkMatches: params.chunkMatches, maxLineLen: params.maxLineLen, contextLines: params.contextLines };
  let chain = writer.write(page.start);
  // Parts are made when the parts before them are written (matches read their context lines then), so the first go out first.
  const write = (make: () => string | Promise<string>): void => {
    chain = chain.then(async (open) => (open ? writer.write(await make()) : false));
  };
  let shellOpen = true;
  const closeShell = (results: () => string | Promise<string>): void => {
    shellOpen = false;
    write(async () => `${await results()}${page.shellEnd}${page.eventsStart}`);
  };
  const sink: StreamSink = {
    matches(matches) {
      let rest = matches;
      if (shellOpen) {
        const first = matches.slice(0, FIRST_HTML);
        let shaped: Promise<Record<string, unknown>[]> | null = null;
        const shapedFirst = (): Promise<Record<string, unknown>[]> => (shaped ??= shapeMatches(first, shape, run.readFile));
        closeShell(async () => resultItems(first, await shapedFirst(), shape, FIRST_MARKUP));
        // Their data after them: the lines behind their "show more" buttons, which the HTML leaves out.
        write(async () => dataBlock('rendered', await shapedFirst()));
        rest = matches.slice(FIRST_HTML);
      }
      if (rest.length > 0) write(async () => dataBlock('matches', await shapeMatches(rest, shape, run.readFile)));
    },
    send(name, data) {
      if (shellOpen) closeShell(() => '');
      write(() => dataBlock(name, data));
    },
  };
  await runStream(run.search, params, run.canRead, run.signal, sink);
  sink.send('done', {});
  write(() => page.end);
  await chain;
  writer.end();
}

