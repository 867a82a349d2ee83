/**
 * The generator's own ceiling: the same client and closed loop against the bare constant-reply
 * uWebSockets.js server (bare-uws-server.ts, its own process), so every front-door figure of the run
 * stands beside what this machine and this generator can do at all.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { startClosedLoop, sleep } from './closed-loop.js';
import { createLoadClient, RequestFailed } from './http-client.js';
import { LatencyRecorder, type OperationStats } from './latency.js';

const PHASE = 'bare';
export const BARE_OPERATION = 'bare uWS constant reply (GET /)';

export interface BareServer {
  readonly url: string;
  readonly pid: number;
  stop(): Promise<void>;
}

export async function startBareServer(): Promise<BareServer> {
  const child = spawn(process.execPath, [new URL('./bare-uws-server.js', import.meta.url).pathname], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the bare uWebSockets.js server exited with ${code}`)));
  });
  return {
    url,
    pid: child.pid!,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

export async function measureBareBaseline(connections: number, seconds: number): Promise<OperationStats> {
  const server = await startBareServer();
  const client = createLoadClient(server.url, connections);
  const recorder = new LatencyRecorder();
  try {
    const loop = startClosedLoop(connections, async () => {
      const started = performance.now();
      let outcome = 'ok';
      try {
        const answer = await client.send({ method: 'GET', path: '/', headers: {} }, 10_000);
        if (answer.status !== 200 || answer.body.toString() !== 'ok') outcome = `status ${answer.status}`;
      } catch (error) {
        if (!(error instanceof RequestFailed)) throw error;
        outcome = error.kind;
      }
      recorder.record(PHASE, BARE_OPERATION, performance.now() - started, outcome);
    });
    await sleep(seconds * 1000);
    await loop.stop();
    return recorder.summary(PHASE, seconds)[0]!;
  } finally {
    client.close();
    await server.stop();
  }
}
