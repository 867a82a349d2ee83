/**
 * What crosses between the main thread and the MCP protocol threads: plain clone-safe data. The
 * protocol threads speak MCP through the SDK; every tool still runs on the main thread.
 */
import type { ObjectSchema } from './arguments.js';
import type { EmbeddedFile, Endpoint, ToolAnnotations } from './tool.js';

/** A tool as tools/list shows it: what a protocol thread needs to answer without the tool itself. */
export interface ListedTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: ObjectSchema;
  readonly annotations: ToolAnnotations;
}

export interface ProtocolThreadData {
  readonly version: string;
  readonly listings: Readonly<Record<Endpoint, readonly ListedTool[]>>;
  /** Placed by the table but left out of the listings and refused, for the life of the process (SRC_MCP_DISABLE_DEEPSEARCH_TOOL). */
  readonly disabledTools: readonly string[];
}

export type ToProtocolThread =
  | {
    readonly type: 'request'; readonly id: number; readonly endpoint: Endpoint; readonly method: string; readonly path: string;
    readonly headers: readonly (readonly [string, string])[]; readonly body: Uint8Array;
    /** Hidden and refused for this request (site setting `mcp.tools.disabled`, read when it arrived). */
    readonly disabledTools: readonly string[];
  }
  | { readonly type: 'answer'; readonly id: number; readonly call: number; readonly text: string; readonly isError: boolean; readonly resources?: readonly EmbeddedFile[] }
  | { readonly type: 'abort'; readonly id: number }
  /** A running call's progress, for a client that sent a progress token. */
  | { readonly type: 'progress'; readonly id: number; readonly call: number; readonly progress: number; readonly message: string };

export type FromProtocolThread =
  | {
    readonly type: 'call'; readonly id: number; readonly call: number; readonly name: string; readonly args: unknown;
    /** The client sent a progress token: the main thread may send `progress` messages for this call. */
    readonly progress: boolean;
  }
  | { readonly type: 'response'; readonly id: number; readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: Uint8Array }
  | { readonly type: 'stream-head'; readonly id: number; readonly status: number; readonly headers: Readonly<Record<string, string>> }
  | { readonly type: 'stream-chunk'; readonly id: number; readonly chunk: Uint8Array }
  | { readonly type: 'stream-end'; readonly id: number }
  | { readonly type: 'failed'; readonly id: number; readonly message: string };
