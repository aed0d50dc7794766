// The shapes of the tool registry: one table for built-in and MCP tools, called the same way.

import type { ToolUi } from "../client/apps/apps.ts";
import type { Client } from "../client/client.ts";
import type { TaskStatusUpdate } from "../client/tasks/tasks.ts";
import type { TelemetryContext } from "../client/telemetry.ts";
import type { CallToolResult, JsonObject, ToolAnnotations } from "../client/types.ts";
import type { Redactor } from "../common/redact.ts";
import type { Progress } from "../jsonrpc/peer.ts";
import type { ResultFiles } from "./result-files.ts";
import type { HeldTool, PinningMode, ToolPins } from "./tool-pins.ts";

/** Where a registered tool comes from. The registry never parses a name back into these. */
export type ToolOrigin =
  | { kind: "builtin" }
  | { kind: "mcp"; server: string; tool: string };

/** Passed to every handler: cancellation, a time limit and a progress sink. */
/**
 * Who a call is made for — ext-apps specification/2026-01-26/apps.mdx ("Visibility"):
 * - `model` (the default): an agent's tool call, or one an embedder passes on from a model;
 *   a tool whose visibility leaves out "model" (app-only) is refused;
 * - `app`: a server's MCP App (its UI), through the host; a tool whose visibility leaves out
 *   "app" is refused, and with `appServer` so is any tool of another server;
 * - `user`: a person who named the tool (`mcpwire call`): visibility does not apply.
 */
export type ToolCaller = "model" | "app" | "user";

/** What a tool's handler gets besides its arguments: the signal, progress, who calls. */
export interface ToolCallContext {
  /** Who the call is for; default "model" (see ToolCaller). */
  caller?: ToolCaller;
  /** With caller "app": the server whose app asks (apps.mdx: an app calls tools of its own server only). */
  appServer?: string;
  signal?: AbortSignal;
  /** Idle timeout for this call (MCP tools: progress restarts it). */
  timeoutMs?: number;
  onProgress?: (progress: Progress) => void;
  /** MCP tools run as a task (spec 2025-11-25 basic/utilities/tasks): each status change of the task. */
  onTaskStatus?: (update: TaskStatusUpdate) => void;
  /** MCP tools, with the client's telemetry on: the OpenTelemetry Context the call's spans are children of (the Runner's tool span). */
  traceContext?: TelemetryContext;
}

/** What a handler may return: an MCP CallToolResult, or any JSON value from a built-in. */
export type ToolOutput = CallToolResult | unknown;

/** A built-in tool: its name, description, input schema, toolset and handler. */
export interface ToolDefinition {
  /** Registered name, valid as an LLM function name ([A-Za-z0-9_-], at most 64 characters). */
  name: string;
  /** Group the tool belongs to; toolsets are enabled and disabled as a whole. Default "builtin". */
  toolset?: string;
  description?: string;
  /** JSON Schema of the arguments object. Default `{ type: "object" }`. */
  inputSchema?: JsonObject;
  handler: (args: JsonObject, context: ToolCallContext) => ToolOutput | Promise<ToolOutput>;
}

/** A registered tool as the registry reports it. */
export interface RegisteredTool {
  name: string;
  toolset: string;
  description: string;
  inputSchema: JsonObject;
  origin: ToolOrigin;
  /** MCP tools: the hints the server listed (readOnlyHint, destructiveHint, …) — untrusted, spec 2025-11-25 server/tools. */
  annotations?: ToolAnnotations;
  /**
   * MCP tools with MCP Apps metadata (`_meta.ui`): their UI resource and visibility. A tool
   * whose visibility lacks "model" is app-only: callable by name, never in list() (registry/visibility.ts).
   */
  ui?: ToolUi;
}

/** The schema an LLM function-calling API takes. */
export interface LlmToolSchema {
  name: string;
  description: string;
  parameters: JsonObject;
}

/** One toolset as `registry.toolsets()` reports it: its name, whether it is on, its tools. */
export interface ToolsetInfo {
  name: string;
  enabled: boolean;
  tools: number;
}

/** Names added and removed by one re-registration (a list_changed, a reconnect, a park). */
export interface ToolsChange {
  server: string;
  added: string[];
  removed: string[];
}

/** Events of a ToolRegistry; listen with `registry.on(type, listener)`. */
export interface RegistryEvents {
  toolschange: ToolsChange;
  /**
   * A tool was skipped (collision), a filter matched nothing, a re-list failed, a listener threw, …
   * `error` is what a throwing listener threw.
   */
  warning: { message: string; error?: unknown };
  /** enableToolset / disableToolset changed a toolset's state (what list() offers changed). */
  toolsetchange: { toolset: string; enabled: boolean };
  /**
   * A listed tool does not match its pin (McpServerOptions.pinning): held back from list() and
   * dispatch (`offered: false`, pinning `hold`), or offered with a warning (`offered: true`, `warn`).
   * Said once per definition; `name` is its registered name.
   */
  toolheld: HeldTool & { name: string; offered: boolean };
}

/** The name of an event of a ToolRegistry. */
export type RegistryEventType = keyof RegistryEvents;

/** Options of a ToolRegistry: result formatting and the result files. */
export interface ToolRegistryOptions {
  /** Cap of the text in a dispatch() string; head and tail are kept. Default 100,000 characters. */
  maxResultChars?: number;
  /**
   * Where dispatch() saves a result over the cap (whole) and binary blocks (images, audio,
   * blobs), for every tool without its own setting (McpToolEntry.resultFiles). Default: none.
   */
  resultFiles?: ResultFiles;
}

/**
 * What the registry needs of a client: a Client, or anything shaped like one. Without
 * `serverCapabilities` a tool that must run as a task is taken for one the server cannot run.
 */
export type McpToolClient = Pick<Client, "listTools" | "callTool" | "on"> & Partial<Pick<Client, "serverCapabilities" | "era">>;

/**
 * Which tools run as tasks (config key `tasks`) — spec 2025-11-25 basic/utilities/tasks
 * ("Tool-Level Negotiation"): `auto` (default) runs a tool whose execution.taskSupport is
 * "required" as a task and an "optional" one directly; `always` runs both as tasks; `never`
 * runs none as a task, so "required" tools are not registered. Only when the server declares
 * tasks.requests.tools.call; on the 2026-07-28 wire the server decides (`never` turns the
 * tasks extension off).
 */
export type TaskMode = "auto" | "always" | "never";

/** One MCP tool as registerMcpServer hands it to ToolRegistry.replaceServerTools. */
export interface McpToolEntry {
  /** Registered name, already fitted (see naming.ts). */
  name: string;
  /** The server's own name of the tool. */
  tool: string;
  toolset: string;
  description: string;
  inputSchema: JsonObject;
  /** The tool's annotations as the server listed them (hosts use readOnlyHint to decide what to confirm). */
  annotations?: ToolAnnotations;
  /** The tool's MCP Apps metadata; an app-only tool is registered but left out of list(). */
  ui?: ToolUi;
  handler: ToolDefinition["handler"];
  /** The error texts of this tool (call()'s ToolCallError, dispatch's `{"error": …}`) pass through it. */
  redactor?: Redactor;
  /** Where dispatch() saves this tool's long results and binary blocks; false: nowhere. Default: the registry's. */
  resultFiles?: ResultFiles | false;
}

/** The handle registerMcpServer returns; the server manager keeps one per server. */
export interface McpServerRegistration {
  readonly server: string;
  /** Registered names of this server's tools now in the registry, in listing order. */
  names(): string[];
  /** Lists the server's tools again and re-registers by difference. Rejects when listing fails (the old tools stay). */
  refresh(): Promise<ToolsChange>;
  /** Swaps the client (after a reconnect) and re-lists by difference; calls from now on go to the new client. */
  replaceClient(client: McpToolClient): Promise<ToolsChange>;
  /** Removes every tool of this server and stops listening for list changes. Idempotent. */
  unregister(): ToolsChange;
}

/** Options of registerMcpServer: which tools, how they are named, timeouts, and which run as tasks. */
export interface McpServerOptions {
  /** Exact names or `*` globs on the server's original tool names; wins over exclude. `[]` registers nothing. */
  include?: string[];
  exclude?: string[];
  /** Name format with `{server}` and `{tool}`; default `mcp_{server}_{tool}`. */
  naming?: string;
  /** Default idle timeout of this server's tool calls (ms); a task's whole life when the call runs as one. */
  timeoutMs?: number;
  /** Which tools run as tasks; default `auto`. See TaskMode. */
  tasks?: TaskMode;
  /**
   * The host's redactor: the error texts of this server's tools and the registry's warnings
   * about it pass through it, so a server that quotes the credentials it was sent does not
   * put them in front of a model or a log.
   */
  redactor?: Redactor;
  /** Where dispatch() saves this server's long results and binary blocks; false: nowhere. Default: the registry's. */
  resultFiles?: ResultFiles | false;
  /**
   * Pin this server's tool definitions (trust on first use, see ToolPins): `source` is the
   * command line or URL the pins are kept for; `mode` `hold` (default) keeps a new or changed
   * tool out of list() and dispatch until accepted, `warn` offers it with a warning.
   */
  pinning?: { pins: ToolPins; source: string; mode?: Exclude<PinningMode, "off"> };
}

/** A tool held back by its pin: the registry refuses a call of it with this message (ToolCallError "tool-held"). */
export interface HeldEntry {
  /** Registered name. */
  name: string;
  /** The server's own name of the tool. */
  tool: string;
  message: string;
}
