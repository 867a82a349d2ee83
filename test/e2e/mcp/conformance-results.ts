/**
 * Reading what `conformance server -o DIR` wrote (one `server-<scenario>-<time>/checks.json` per
 * scenario) and our baseline, and what each scenario of the 0.1.16 active suite needs from a server.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ConformanceCheck {
  readonly id: string;
  readonly status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  readonly errorMessage?: string;
  readonly details?: Record<string, unknown>;
}

/** Any server can pass these: they use no fixture of the suite (reference mcp-auth §4.1). */
export const GENERIC_SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'logging-set-level', 'dns-rebinding-protection'];

/** Needs a session ID; a stateless server gets this one warning and no failure. */
export const SESSION_SCENARIO = { name: 'server-sse-multiple-streams', warning: 'server-sse-multiple-streams-session' };

const METHOD_NOT_FOUND = '-32601: Method not found';
const unknownTool = (name: string): string => `Unknown tool: ${name}.`;

/**
 * The scenarios that call the suite's own everything-server fixtures, each with the words of the
 * failure Quarry must give: our unknown-tool error naming the test tool, or Method not found for
 * the resources, prompts and completions Quarry does not offer.
 */
export const FIXTURE_BOUND: Readonly<Record<string, string>> = {
  'tools-call-simple-text': unknownTool('test_simple_text'),
  'tools-call-image': unknownTool('test_image_content'),
  'tools-call-audio': unknownTool('test_audio_content'),
  'tools-call-embedded-resource': unknownTool('test_embedded_resource'),
  'tools-call-mixed-content': unknownTool('test_multiple_content_types'),
  'tools-call-with-logging': unknownTool('test_tool_with_logging'),
  'tools-call-error': unknownTool('test_error_handling'),
  'tools-call-with-progress': unknownTool('test_tool_with_progress'),
  'tools-call-sampling': unknownTool('test_sampling'),
  'tools-call-elicitation': unknownTool('test_elicitation'),
  'elicitation-sep1034-defaults': unknownTool('test_elicitation_sep1034_defaults'),
  'elicitation-sep1330-enums': unknownTool('test_elicitation_sep1330_enums'),
  'completion-complete': METHOD_NOT_FOUND,
  'resources-list': METHOD_NOT_FOUND,
  'resources-read-text': METHOD_NOT_FOUND,
  'resources-read-binary': METHOD_NOT_FOUND,
  'resources-templates-read': METHOD_NOT_FOUND,
  'resources-subscribe': METHOD_NOT_FOUND,
  'resources-unsubscribe': METHOD_NOT_FOUND,
  'prompts-list': METHOD_NOT_FOUND,
  'prompts-get-simple': METHOD_NOT_FOUND,
  'prompts-get-with-args': METHOD_NOT_FOUND,
  'prompts-get-embedded-resource': METHOD_NOT_FOUND,
  'prompts-get-with-image': METHOD_NOT_FOUND,
};

const RESULT_DIR = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/;

/** Scenario name → its checks, from one run's output dir. */
export function readChecks(outDir: string): Map<string, ConformanceCheck[]> {
  const byScenario = new Map<string, ConformanceCheck[]>();
  for (const entry of readdirSync(outDir)) {
    const scenario = RESULT_DIR.exec(entry)?.[1];
    if (scenario === undefined) continue;
    if (byScenario.has(scenario)) throw new Error(`${outDir} holds two results for ${scenario}: use a fresh output dir per run`);
    byScenario.set(scenario, JSON.parse(readFileSync(join(outDir, entry, 'checks.json'), 'utf8')) as ConformanceCheck[]);
  }
  return byScenario;
}

/** The `server:` entries of an expected-failures file (the flat list form we write). */
export function readBaseline(path: string): string[] {
  const entries: string[] = [];
  let inServer = false;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (/^\S/.test(line)) inServer = line.trim() === 'server:';
    const item = /^\s+-\s+(\S+)/.exec(line)?.[1];
    if (inServer && item !== undefined) entries.push(item);
  }
  return entries;
}

/** The run's closing summary (per-scenario lines, baseline verdict), or the output's end without one. */
export function summaryOf(stdout: string): string {
  const at = stdout.lastIndexOf('=== SUMMARY ===');
  return at === -1 ? stdout.slice(-4000) : stdout.slice(at);
}
