/**
 * `quarry index [NAME...]`: fetch and index repositories (all when none are named), showing
 * progress on a terminal and a one-line summary per repository.
 */
import { createError, errorMessage } from '../errors.js';
import type { IndexOutcome } from '../indexer/index-repository.js';
import { syncRepository } from '../repos/registry.js';
import { createServices } from '../services.js';
import { getRepo, listRepos } from '../store/repos.js';
import { parseFlags, type CliIO, type Command } from './command.js';
import { ENGINE_FLAGS, ENGINE_FLAGS_USAGE, engineConfig } from './engine-flags.js';

const USAGE = `Usage: quarry index [flags] [NAME...]

Indexes the default branch HEAD of each named repository (all repositories when none are named).
Re-indexing after new commits reads only the blobs that changed.

Flags:
${ENGINE_FLAGS_USAGE}
  --no-fetch             index the mirror as it is, without fetching first`;

export const indexCommand: Command = {
  name: 'index',
  summary: 'index repositories (incrementally)',
  usage: USAGE,
  async run(args: string[], io: CliIO): Promise<number> {
    const { flags, positionals } = parseFlags(args, { ...ENGINE_FLAGS, 'no-fetch': 'boolean' });
    const engine = createServices(engineConfig(flags));
    try {
      const names = positionals.length > 0 ? positionals : listRepos(engine.store).map((r) => r.name);
      let failures = 0;
      for (const name of names) {
        if (!getRepo(engine.store, name)) throw createError('REPO_NOT_FOUND', `no such repository: ${name}`);
        try {
          if (!flags['no-fetch']) await syncRepository({ dataDir: engine.config.dataDir, store: engine.store }, name);
          const started = performance.now();
          const outcome = await engine.index(getRepo(engine.store, name)!, progressPrinter(name));
          clearProgress();
          io.out(summary(name, outcome, performance.now() - started));
        } catch (err) {
          clearProgress();
          failures++;
          io.err(`quarry: ${name}: ${errorMessage(err)}`);
        }
      }
      return failures > 0 ? 1 : 0;
    } finally {
      await engine.close();
    }
  },
};

function summary(name: string, outcome: IndexOutcome, ms: number): string {
  const { manifest } = outcome;
  const binary = manifest.skipped.filter((s) => s.reason === 'binary').length;
  const large = manifest.skipped.length - binary;
  const rebuilt = outcome.repaired.length > 0 ? `rebuilt (${outcome.repaired.join('; ')}), ` : '';
  const what = outcome.mode === 'unchanged' ? 'up to date' : `${rebuilt}${outcome.mode} index, ${outcome.blobsRead} blobs read`;
  const s = manifest.symbols;
  const symbols = s ? `; symbols in ${s.files} files (${s.unsupported} unsupported language, ${s.failed} failed, ${s.skipped} too large or minified)` : '; no symbols';
  return `${name}: ${what}; ${manifest.files} files (${(manifest.bytes / 1048576).toFixed(1)} MiB) at ${manifest.commit.slice(0, 12)}, skipped ${binary} binary and ${large} too large${symbols}, in ${(ms / 1000).toFixed(1)}s`;
}

function progressPrinter(name: string): ((done: number, total: number, bytes: number) => void) | undefined {
  if (!process.stderr.isTTY) return undefined;
  let last = 0;
  return (done, total, bytes) => {
    const now = Date.now();
    if (now - last < 100 && done < total) return;
    last = now;
    process.stderr.write(`\r\x1b[K${name}: ${done}/${total} files, ${(bytes / 1048576).toFixed(1)} MiB`);
  };
}

function clearProgress(): void {
  if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
}
