/**
 * What an MCP tool is: a name, a description, a JSON Schema for its arguments and a run function
 * over plain services. Which endpoints list it is the registry's table. Tools never see HTTP or the SDK.
 */
import type { Principal } from '../../auth/principal.js';
import type { McpServices } from './services.js';
import type { ObjectSchema } from './arguments.js';

export type Endpoint = 'core' | 'all' | 'deepsearch';

/** Per call: who asks (carrying what they may read), where links point, and how long the answer may be. */
export interface ToolContext {
  readonly principal: Principal;
  readonly signal: AbortSignal;
  /** The server's origin as the client reached it, e.g. `http://127.0.0.1:7080`; links start here. */
  readonly origin: string;
  /** The answer budget in tokens (site configuration `mcp.maxAnswerTokens`). */
  readonly maxAnswerTokens: number;
  readonly services: McpServices;
  /** The server log, for failures that are ours (their details never reach the agent). */
  readonly log?: (line: string) => void;
  /** Present when the client sent a progress token: each call becomes a `notifications/progress` (progress must grow). */
  readonly progress?: ProgressReporter;
}

export type ProgressReporter = (progress: number, message: string) => void;

/** MCP tool annotations (hints to clients); a tool declares only what differs from read-only and closed-world. */
export interface ToolAnnotations {
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** What every tool is unless it says otherwise: it reads, and only this instance's repositories. */
export const DEFAULT_ANNOTATIONS: Readonly<ToolAnnotations> = Object.freeze({ readOnlyHint: true, openWorldHint: false });

/** A tool's answer: plain text in the Sourcegraph format; isError marks a tool error the agent can correct. */
export interface ToolAnswer {
  readonly text: string;
  readonly isError?: boolean;
  /** Files the tool made (the evaluator's output.file), sent after the text as embedded resources. */
  readonly resources?: readonly EmbeddedFile[];
}

/** An embedded resource: UTF-8 content as text, anything else base64 in blob. */
export interface EmbeddedFile {
  readonly uri: string;
  readonly mimeType: string;
  readonly text?: string;
  readonly blob?: string;
}

export interface ToolDefinition<Args = Record<string, unknown>> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: ObjectSchema;
  /** Merged over DEFAULT_ANNOTATIONS in tools/list. */
  readonly annotations?: ToolAnnotations;
  /** Arguments arrive already checked against inputSchema. */
  run(args: Args, ctx: ToolContext): Promise<ToolAnswer>;
}

/** A failure the agent caused or can work around (unknown repository, bad revision, bad query). */
export class ToolError extends Error {}
