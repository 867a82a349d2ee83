/**
 * The official MCP conformance suite against a real `quarry serve`, on all three MCP endpoints,
 * through a loopback proxy that adds the admin token (the suite cannot send credentials) and
 * passes Host and Origin untouched, so Quarry's DNS-rebinding checks are what the suite probes.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { ENDPOINT_PATHS } from '../../../src/api/mcp/registry.js';
import { makeTempDir, removeDir } from '../../git/fixtures.js';
import { startAuthProxy, type AuthProxy } from './auth-proxy.js';
import { FIXTURE_BOUND, GENERIC_SCENARIOS, readBaseline, readChecks, SESSION_SCENARIO, summaryOf, type ConformanceCheck } from './conformance-results.js';
import { CONFORMANCE, fetchTool, FETCH_TIMEOUT_MS, runTool, stopAllTools, tail, type ToolRun } from './external-tools.js';
import { ENDPOINTS, expectedToolNames, startQuarry, type QuarryFixture } from './quarry-fixture.js';

const BASELINE = fileURLToPath(new URL('../../../../test/e2e/mcp/conformance-baseline.yml', import.meta.url));
const RUN_TIMEOUT_MS = 3 * 60_000;

let quarry: QuarryFixture;
let proxy: AuthProxy;
const outDirs: string[] = [];

async function conformance(url: string, extraArgs: readonly string[]): Promise<{ run: ToolRun; checks: Map<string, ConformanceCheck[]> }> {
  const outDir = makeTempDir('quarry-conformance');
  outDirs.push(outDir);
  const run = await runTool(CONFORMANCE, ['server', '--url', url, '-o', outDir, ...extraArgs], RUN_TIMEOUT_MS);
  return { run, checks: readChecks(outDir) };
}

function statuses(checks: readonly ConformanceCheck[]): string {
  return checks.map((c) => `${c.id}=${c.status}${c.errorMessage ? ` (${c.errorMessage})` : ''}`).join('; ');
}

function pick(details: { hostHeader: string; statusCode: number } | undefined): { hostHeader?: string; statusCode?: number } {
  return { hostHeader: details?.hostHeader, statusCode: details?.statusCode };
}

before(async () => {
  await fetchTool(CONFORMANCE, ['list']);
  quarry = await startQuarry();
  proxy = await startAuthProxy(quarry.url, quarry.adminToken);
}, { timeout: FETCH_TIMEOUT_MS + 60_000 });

after(async () => {
  stopAllTools();
  await proxy?.close();
  await quarry?.dispose();
  for (const dir of outDirs) removeDir(dir);
});

describe('conformance suite 0.1.16, active server scenarios', () => {
  const baseline = readBaseline(BASELINE);
  const fixtureBound = baseline.filter((scenario) => scenario !== SESSION_SCENARIO.name);

  it('baselines only scenarios that need the suite\'s own fixtures or a session', () => {
    assert.ok(baseline.includes(SESSION_SCENARIO.name));
    for (const scenario of fixtureBound) assert.ok(scenario in FIXTURE_BOUND, `${scenario} is baselined but any server can pass it`);
  });

  for (const endpoint of ENDPOINTS) {
    it(`passes on ${ENDPOINT_PATHS[endpoint]} with only baselined failures`, { timeout: RUN_TIMEOUT_MS + 30_000 }, async () => {
      const { run, checks } = await conformance(`${proxy.url}${ENDPOINT_PATHS[endpoint]}`, ['--expected-failures', BASELINE]);
      assert.equal(run.code, 0, `conformance exited ${run.code}:\n${summaryOf(run.stdout)}\n${tail(run.stderr)}`);
      assert.deepEqual([...checks.keys()].sort(), [...GENERIC_SCENARIOS, ...baseline].sort(), 'every active scenario is generic or baselined');

      for (const scenario of GENERIC_SCENARIOS) {
        const found = checks.get(scenario)!;
        assert.ok(found.length > 0 && found.every((c) => c.status === 'SUCCESS'), `${scenario}: ${statuses(found)}`);
      }
      const session = checks.get(SESSION_SCENARIO.name)!;
      assert.deepEqual(session.map((c) => `${c.id}=${c.status}`), [`${SESSION_SCENARIO.warning}=WARNING`], 'stateless: a warning, never a failure');

      for (const scenario of fixtureBound) {
        const found = checks.get(scenario)!;
        const failures = found.filter((c) => c.status === 'FAILURE');
        assert.ok(failures.length > 0 && found.every((c) => c.status !== 'SUCCESS'), `${scenario}: ${statuses(found)}`);
        for (const failure of failures) assert.ok(failure.errorMessage?.includes(FIXTURE_BOUND[scenario]!), `${scenario} must fail only for want of its fixture: ${statuses(found)}`);
      }

      const listed = checks.get('tools-list')![0]!.details as { tools: string[] };
      assert.deepEqual([...listed.tools].sort(), expectedToolNames(endpoint));
      // The proxy must not have rewritten Host: the accepted probe names the proxy's own localhost host.
      const rebinding = new Map(checks.get('dns-rebinding-protection')!.map((c) => [c.id, c.details as { hostHeader: string; statusCode: number }]));
      assert.deepEqual(pick(rebinding.get('localhost-host-rebinding-rejected')), { hostHeader: 'evil.example.com', statusCode: 403 });
      assert.deepEqual(pick(rebinding.get('localhost-host-valid-accepted')), { hostHeader: new URL(proxy.url).host, statusCode: 200 });
    });
  }

  it('is refused without the proxy\'s token: the endpoint demands credentials', { timeout: RUN_TIMEOUT_MS }, async () => {
    const { run, checks } = await conformance(quarry.endpointUrl('core'), ['--scenario', 'server-initialize']);
    assert.equal(run.code, 1);
    const [check] = checks.get('server-initialize')!;
    assert.equal(check!.status, 'FAILURE');
    assert.match(check!.errorMessage ?? '', /invalid_token/);
  });
});
