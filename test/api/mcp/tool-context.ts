/**
 * Tool tests' context: the real MCP services over an engine fixture (LMDB index of real git
 * repositories), called as a given principal with a visibility rule and an answer budget.
 */
import { ANONYMOUS, type Identity } from '../../../src/auth/principal.js';
import type { McpServices } from '../../../src/api/mcp/services.js';
import type { ToolAnswer, ToolContext, ToolDefinition } from '../../../src/api/mcp/tool.js';
import { runTool } from '../../../src/api/mcp/run-tool.js';
import { mcpServices } from '../../../src/server/mcp.js';
import type { EngineFixture } from '../../e2e/engine-fixture.js';

export const TEST_ORIGIN = 'http://quarry.test';

export function mcpServicesOf(fixture: EngineFixture): McpServices {
  return mcpServices(fixture.engine);
}

export interface CallOptions {
  readonly canRead?: (repo: string) => boolean;
  readonly maxAnswerTokens?: number;
  readonly principal?: Identity;
}

/** Runs the call exactly as the server does: arguments checked first, failures mapped to answers. */
export async function callTool<Args>(services: McpServices, tool: ToolDefinition<Args>, args: unknown, options: CallOptions = {}): Promise<ToolAnswer> {
  const ctx: ToolContext = {
    principal: { ...(options.principal ?? ANONYMOUS), canRead: options.canRead ?? (() => true) },
    signal: new AbortController().signal,
    origin: TEST_ORIGIN,
    maxAnswerTokens: options.maxAnswerTokens ?? 8000,
    services,
  };
  return runTool(tool, args, ctx, (line) => {
    throw new Error(`unexpected internal error: ${line}`);
  });
}
