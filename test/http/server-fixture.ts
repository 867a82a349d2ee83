/**
 * A real `quarry serve` stack for tests: repositories indexed into a fresh data directory, then
 * startServer on 127.0.0.1 with an ephemeral port; plus a reader for server-sent events.
 */
import { loadConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/main.js';
import { ensureInitialAdmin } from '../../src/store/bootstrap.js';
import type { Store } from '../../src/store/records.js';
import { updateSiteConfig } from '../../src/store/site-config.js';
import { addAndIndex, createEngineFixture } from '../e2e/engine-fixture.js';
import { commitAll, initRepo, makeTempDir, removeDir, writeFiles } from '../git/fixtures.js';

export interface ServerFixture {
  readonly url: string;
  readonly server: RunningServer;
  readonly dataDir: string;
  /** The site admin the first start created. */
  readonly adminToken: string;
  close(): Promise<void>;
}

export interface ServerFixtureOptions {
  readonly threads?: number;
  readonly maxBodyBytes?: number;
  /** The site configuration's first revision, e.g. `{"auth.public": true}` for anonymous callers. */
  readonly siteConfig?: string;
  /** QUARRY_METRICS_TOKEN. */
  readonly metricsToken?: string;
  /** QUARRY_MAIN_THREAD_MS_PER_MINUTE. */
  readonly mainThreadMsPerMinute?: number;
  /** Runs on the store before the server starts (users, tokens, restrictions); the admin exists by then. */
  readonly prepare?: (store: Store) => void;
}

/** repos: name → files. The data directory is indexed in-process (in-thread: the server starts its own workers), then served. */
export async function startServerFixture(repos: Record<string, Record<string, string>>, options: ServerFixtureOptions = {}): Promise<ServerFixture> {
  const sources: string[] = [];
  const fixture = await createEngineFixture({ pool: 'in-thread' });
  for (const [name, files] of Object.entries(repos)) {
    const source = makeTempDir('quarry-serve-src');
    sources.push(source);
    initRepo(source);
    writeFiles(source, files);
    commitAll(source, 'files');
    await addAndIndex(fixture, name, source);
  }
  const admin = ensureInitialAdmin(fixture.engine.store)!;
  if (options.siteConfig !== undefined) updateSiteConfig(fixture.engine.store, 0, options.siteConfig);
  options.prepare?.(fixture.engine.store);
  await fixture.engine.close();
  const env = {
    ...(options.metricsToken === undefined ? {} : { QUARRY_METRICS_TOKEN: options.metricsToken }),
    ...(options.mainThreadMsPerMinute === undefined ? {} : { QUARRY_MAIN_THREAD_MS_PER_MINUTE: String(options.mainThreadMsPerMinute) }),
  };
  const config = loadConfig({ dataDir: fixture.dataDir, threads: options.threads ?? 2, listen: '127.0.0.1:0', ...(options.maxBodyBytes ? { maxBodyBytes: options.maxBodyBytes } : {}) }, env);
  const server = await startServer(config);
  return {
    url: server.url,
    server,
    dataDir: fixture.dataDir,
    adminToken: admin.token,
    async close() {
      await server.stop(1000);
      for (const dir of [...sources, fixture.dataDir]) removeDir(dir);
    },
  };
}

export interface SseEvent {
  readonly name: string;
  readonly data: unknown;
  /** performance.now() when the event's last byte arrived. */
  readonly at: number;
}

/** Reads a whole event stream, keeping the raw text (for framing checks) and arrival times. */
export async function readEvents(response: Response): Promise<{ raw: string; events: SseEvent[] }> {
  const decoder = new TextDecoder();
  const events: SseEvent[] = [];
  let raw = '';
  let pending = '';
  for await (const chunk of response.body!) {
    const text = decoder.decode(chunk, { stream: true });
    raw += text;
    pending += text;
    let end: number;
    while ((end = pending.indexOf('\n\n')) !== -1) {
      const block = pending.slice(0, end);
      pending = pending.slice(end + 2);
      const [eventLine = '', dataLine = ''] = block.split('\n');
      events.push({ name: eventLine.replace(/^event: /, ''), data: JSON.parse(dataLine.replace(/^data: /, '')), at: performance.now() });
    }
  }
  return { raw, events };
}

/** The value of one sample in Prometheus text, or undefined. */
export function metricValue(text: string, sample: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${sample} `));
  return line === undefined ? undefined : Number(line.slice(sample.length + 1));
}
