/**
 * The agent trial (issue 15): a real `quarry serve` over the four real repositories of
 * ../shared/corpora with their full history, an MCP SDK client on /.api/mcp/all doing multi-step
 * tasks as an agent would (arguments only from the task's statement or earlier answers), each final
 * answer checked against git on the same mirrors. Records bench/runs/<run>/agent-trial.{md,json}.
 * Run: `node dist/bench/agent-trial/trial.js [--reuse] [task-id…]`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ENDPOINT_PATHS } from '../../src/api/mcp/registry.js';
import { startServerProcess } from '../../test/e2e/server-process.js';
import { buildInstance, CORPORA, findCorpora } from '../load/instance.js';
import { QUARRY_BIN, REPO_ROOT } from '../paths.js';
import { writeSideRun } from '../record.js';
import { collect, firstLine } from '../tools/process.js';
import { markdown, summarize, summaryTable, type TaskOutcome } from './report.js';
import { ProvenanceError, TaskFailure, TaskRun } from './session.js';
import type { Task } from './task.js';
import { FIND_READ_TASKS } from './tasks-find-read.js';
import { HISTORY_TASKS } from './tasks-history.js';
import { NAVIGATE_TASKS } from './tasks-navigate.js';
import { PROJECTS, Truth, type Project } from './truth.js';

const TASKS: readonly Task[] = [...FIND_READ_TASKS, ...NAVIGATE_TASKS, ...HISTORY_TASKS];
/** Latencies to 0.1 ms in the JSON record. */
const roundMs = (key: string, value: unknown): unknown => (typeof value === 'number' && /ms$/i.test(key) ? Math.round(value * 10) / 10 : value);
const log = (line: string): void => void process.stderr.write(`${line}\n`);

async function runTask(client: Client, task: Task, truth: Truth): Promise<TaskOutcome> {
  const t = new TaskRun(client, task.statement);
  const base = { id: task.id, project: task.project, kind: task.kind, statement: task.statement, steps: t.steps };
  const followed = (): boolean => t.steps.some((s) => Object.values(s.sources).some((v) => v.startsWith('next call')));
  try {
    const result = await task.run(t, truth);
    return { ...base, passed: true, result, failure: null, followedCursor: followed() };
  } catch (error) {
    if (!(error instanceof TaskFailure)) throw error;
    return { ...base, passed: false, result: error.message, failure: { step: error.step, kind: error.kind }, followedCursor: followed() };
  }
}

/** The scratch instance: built afresh, or with --reuse the one a previous run left (a new admin token made for it). */
async function instance(corpora: string, workDir: string, reuse: boolean): Promise<{ dataDir: string; token: string | null }> {
  const dataDir = join(workDir, 'data');
  if (reuse && existsSync(dataDir)) {
    const made = await collect(process.execPath, [QUARRY_BIN, 'tokens', 'create', 'admin', '--note', 'agent trial', '--data', dataDir]);
    return { dataDir, token: /sgp_\S+/.exec(made.stdout.toString('utf8'))?.[0] ?? null };
  }
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  log(`mirroring and indexing ${CORPORA.map((c) => c.repo).join(', ')} from ${corpora} into ${workDir}`);
  const built = await buildInstance(corpora, workDir);
  log(`indexed in ${built.indexSeconds.toFixed(1)} s`);
  return { dataDir: built.dataDir, token: null };
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const only = args.filter((a) => !a.startsWith('--'));
  const corpora = findCorpora();
  if (corpora === null) {
    log(`agent trial: the corpora (${CORPORA.map((c) => c.bundle).join(', ')}) were not found in a shared/corpora folder beside this checkout or its parents (or QUARRY_BENCH_CORPORA). They live beside the project, not in it (../shared/corpora). Nothing was run.`);
    return 2;
  }
  const unknown = only.filter((id) => !TASKS.some((t) => t.id === id));
  if (unknown.length > 0) {
    log(`agent trial: no task ${unknown.join(', ')}; tasks are ${TASKS.map((t) => t.id).join(', ')}`);
    return 2;
  }
  const workDir = process.env['QUARRY_AGENT_TRIAL_DIR'] ?? join(REPO_ROOT, 'bench', 'corpus', 'agent-trial');
  const made = await instance(corpora, workDir, args.includes('--reuse'));
  const server = await startServerProcess(made.dataDir);
  const token = made.token ?? server.adminToken;
  if (token === null) throw new Error(`no admin token: ${server.output()}`);
  const client = new Client({ name: 'quarry-agent-trial', version: '1.0.0' });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}${ENDPOINT_PATHS.all}`), { requestInit: { headers: { Authorization: `token ${token}` } } }));
    const toolsListChars = JSON.stringify(await client.listTools()).length;
    const truth = await Truth.open(workDir, made.dataDir);
    const outcomes: TaskOutcome[] = [];
    for (const task of TASKS.filter((t) => only.length === 0 || only.includes(t.id))) {
      const outcome = await runTask(client, task, truth);
      log(`${outcome.passed ? 'pass' : 'FAIL'} ${task.id} (${outcome.steps.length} calls): ${outcome.result}`);
      outcomes.push(outcome);
    }
    const commit = await firstLine('git', ['-C', REPO_ROOT, 'rev-parse', 'HEAD']);
    const header = [
      `Quarry ${commit}, a real \`quarry serve\` on loopback over ${(Object.keys(PROJECTS) as Project[]).map((p) => `${truth.repo(p)}@${truth.head(p).slice(0, 12)}`).join(', ')} (full history), the MCP SDK client on \`${ENDPOINT_PATHS.all}\` with a site admin's token.`,
      `Tokens are estimated at 4 characters each, as the server sizes its answers. Before the first task the agent read tools/list: ${toolsListChars.toLocaleString('en-US')} characters, about ${Math.ceil(toolsListChars / 4).toLocaleString('en-US')} tokens (not counted below).`,
      'Every argument of every call names its source: the statement, an earlier answer of the same task, or the next call an answer offered; the script refuses a value its claimed source does not hold. Final answers are checked against git on the same mirrors at run time.',
    ];
    const text = markdown(outcomes, header);
    if (only.length === 0) await writeSideRun('agent-trial', text, { commit, toolsListChars, summary: summarize(outcomes), tasks: outcomes }, roundMs);
    process.stdout.write(`${summaryTable(summarize(outcomes)).join('\n')}\n`);
    return 0;
  } catch (error) {
    if (error instanceof ProvenanceError) log(`agent trial: a task script took an argument from nowhere: ${error.message}`);
    throw error;
  } finally {
    await client.close();
    await server.stop();
  }
}

process.exitCode = await main();
