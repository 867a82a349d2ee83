/**
 * `quarry index [NAME...]`: fetch and index repositories (all when none are named), showing each
 * phase's progress (progress-display.ts) and a one-line summary per repository.
 */
import { createError, errorMessage } from '../errors.js';
import type { IndexOutcome } from '../indexer/index-repository.js';
import { smallestFirst } from '../indexer/index-queue.js';
import { mirrorDir, syncRepository } from '../repos/registry.js';
import { createServices, type Services } from '../services.js';
import { getRepo, listRepos } from '../store/repos.js';
import { parseFlags, type CliIO, type Command } from './command.js';
import { ENGINE_FLAGS, ENGINE_FLAGS_USAGE, engineConfig } from './engine-flags.js';
import { progressDisplay } from './progress-display.js';

const USAGE = `Usage: quarry index [flags] [NAME...]

Indexes the default branch HEAD of each named repository (all repositories when none are named),
in phases: the text index is published first (search works from then on), then symbol tables
are extracted, then the commit history is indexed. Re-indexing after new commits reads only the
blobs that changed. A run that was interrupted resumes where its last published phase ended.
Several repositories are taken smallest first, and all are made searchable (the text phase)
before any is given its symbols; one repository's failure does not stop the others.

Flags:
${ENGINE_FLAGS_USAGE}
  --no-fetch             index the mirror as it is, without fetching first
  --text-only            publish the text index and stop; symbols stay pending (the next
                         run, or the server's sync, extracts them)`;

export const indexCommand: Command = {
  name: 'index',
  summary: 'index repositories (incrementally)',
  usage: USAGE,
  async run(args: string[], io: CliIO): Promise<number> {
    const { flags, positionals } = parseFlags(args, { ...ENGINE_FLAGS, 'no-fetch': 'boolean', 'text-only': 'boolean' });
    const engine = createServices(engineConfig(flags));
    try {
      const names = positionals.length > 0 ? positionals : listRepos(engine.store).map((r) => r.name);
      for (const name of names) if (!getRepo(engine.store, name)) throw createError('REPO_NOT_FOUND', `no such repository: ${name}`);
      const repos = smallestFirst(names.map((name) => {
        const repo = getRepo(engine.store, name)!;
        return { name, gitDir: mirrorDir({ dataDir: engine.config.dataDir, store: engine.store }, repo) };
      }), engine.catalog);
      const failed = new Set<string>();
      const pass = async (textOnly: boolean, fetch: boolean): Promise<void> => {
        for (const { name } of repos) {
          if (failed.has(name)) continue;
          try {
            if (fetch) await syncRepository({ dataDir: engine.config.dataDir, store: engine.store }, name);
            await indexOne(engine, name, textOnly, io);
          } catch (err) {
            failed.add(name);
            io.err(`quarry: ${name}: ${errorMessage(err)}`);
          }
        }
      };
      // Many repositories: every one is made searchable (text) before any is given its symbols.
      const textFirst = repos.length > 1 && flags['text-only'] !== true;
      await pass(textFirst || flags['text-only'] === true, !flags['no-fetch']);
      if (textFirst) await pass(false, false);
      return failed.size > 0 ? 1 : 0;
    } finally {
      await engine.close();
    }
  },
};

async function indexOne(engine: Services, name: string, textOnly: boolean, io: CliIO): Promise<void> {
  const started = performance.now();
  const display = progressDisplay(name, { isTTY: process.stderr.isTTY === true, write: (text) => process.stderr.write(text) });
  try {
    const outcome = await engine.index(getRepo(engine.store, name)!, { textOnly, onPhase: display.listener });
    io.out(summary(name, outcome, performance.now() - started));
  } finally {
    display.clear();
  }
}

function summary(name: string, outcome: IndexOutcome, ms: number): string {
  const { manifest } = outcome;
  const binary = manifest.skipped.filter((s) => s.reason === 'binary').length;
  const large = manifest.skipped.length - binary;
  const rebuilt = outcome.repaired.length > 0 ? `rebuilt (${outcome.repaired.join('; ')}), ` : '';
  const what = outcome.mode === 'unchanged' ? 'up to date' : `${rebuilt}${outcome.mode} index, ${outcome.blobsRead} blobs read`;
  const s = manifest.symbols;
  const symbols = s
    ? `; symbols in ${s.files} files (${s.unsupported} unsupported language, ${s.failed} failed, ${s.skipped} too large or minified)`
    : manifest.symbolsPending ? '; symbols pending' : '; no symbols';
  return `${name}: ${what}; ${manifest.files} files (${(manifest.bytes / 1048576).toFixed(1)} MiB) at ${manifest.commit.slice(0, 12)}, skipped ${binary} binary and ${large} too large${symbols}, in ${(ms / 1000).toFixed(1)}s`;
}
