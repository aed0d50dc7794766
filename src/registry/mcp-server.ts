// Registering one MCP server's tools: discover (tools/list, all pages) → filter → name →
// collision check → a handler forwarding to client.callTool; and keeping them current when
// the server sends notifications/tools/list_changed — spec 2025-11-25 server/tools
// ("Listing Tools", "List Changed Notification").

import type { Tool } from "../client/types.ts";
import { depthOf } from "../common/bounded.ts";
import { messageOf } from "../common/error-text.ts";
import { isObject } from "../common/json.ts";
import { checkOptions, optionNames } from "../common/options.ts";
import { filterToolNames } from "./filters.ts";
import { DEFAULT_NAMING, namingFormatProblem, toolName } from "./naming.ts";
import { RegistrationError } from "./registry-errors.ts";
import { acceptHint, heldSummary, type HeldTool } from "./tool-pins.ts";
import { RegistryEvent, type ToolRegistry } from "./tool-registry.ts";
import type { HeldEntry, McpServerOptions, McpServerRegistration, McpToolClient, McpToolEntry, ToolCallContext, ToolsChange } from "./types.ts";
import { uiEntry } from "./visibility.ts";

export type { McpServerOptions, McpServerRegistration, McpToolClient } from "./types.ts";

/**
 * Deepest inputSchema registered. A model's tool schema is turned into JSON text by every
 * provider (JSON.stringify recurses once per level); a server's schema nested deeper than this
 * would make that overflow the stack, so the tool is skipped with a warning.
 */
export const MAX_INPUT_SCHEMA_DEPTH = 128;

/** Every option registerMcpServer reads (checked before anything is listed). */
const MCP_SERVER_OPTIONS = optionNames<McpServerOptions>({
  include: true,
  exclude: true,
  naming: true,
  timeoutMs: true,
  tasks: true,
  redactor: true,
  resultFiles: true,
  pinning: true,
});

/** Server names registered per registry: one registration per server name. */
const registeredServers = new WeakMap<ToolRegistry, Set<string>>();

/**
 * Lists `client`'s tools and registers those that pass the filter into `registry`, named by
 * `options.naming` (default `mcp_{server}_{tool}`), in toolset `mcp-<server>`. Resolves once
 * they are registered; rejects (registering nothing) when the first listing fails or the
 * options are unusable. From then on a tools/list_changed re-lists and re-registers by
 * difference, emitting "toolschange" on the registry. With `options.pinning`, each listing is
 * checked against the tool pins first: a new or changed tool is held back (or, `warn`, offered)
 * with a "warning" and a "toolheld" event.
 */
export async function registerMcpServer(
  registry: ToolRegistry,
  serverName: string,
  client: McpToolClient,
  options: McpServerOptions = {},
): Promise<McpServerRegistration> {
  if (typeof serverName !== "string" || serverName === "") {
    throw new TypeError("registerMcpServer: the server name must be a non-empty string (it names the server in tool names and errors)");
  }
  checkOptions("registerMcpServer", options, MCP_SERVER_OPTIONS);
  const naming = options.naming ?? DEFAULT_NAMING;
  const problem = namingFormatProblem(naming);
  if (problem !== undefined) throw new RegistrationError(`server "${serverName}": ${problem}`, "invalid-naming");
  const servers = registeredServers.get(registry) ?? new Set<string>();
  registeredServers.set(registry, servers);
  if (servers.has(serverName)) {
    throw new RegistrationError(
      `server "${serverName}" is already registered with this registry; call unregister() on its registration first, ` +
        "or replaceClient() to switch it to a new connection",
      "already-registered",
    );
  }
  servers.add(serverName);
  const registration = new McpServerBinding(registry, serverName, client, { ...options, naming }, () => servers.delete(serverName));
  try {
    await registration.start();
  } catch (error) {
    registration.unregister();
    throw error;
  }
  return registration;
}

class McpServerBinding implements McpServerRegistration {
  readonly server: string;
  readonly #registry: ToolRegistry;
  readonly #options: McpServerOptions & { naming: string };
  readonly #release: () => void;
  #client: McpToolClient;
  #unsubscribe: () => void;
  #active = true;
  /** The end of the chain of listings: one runs at a time, in order. */
  #tail: Promise<unknown> = Promise.resolve();
  /** A list_changed re-list is queued and has not started: further notifications join it. */
  #relistQueued = false;
  /** Filter findings last reported (patterns matching nothing, tools in both lists), so a re-list does not repeat them. */
  #reportedUnmatched = new Set<string>();
  /** The last listing: checked again against the pins when a held tool is accepted. */
  #lastTools: readonly Tool[] | undefined;
  #unsubscribePins: () => void = () => {};

  constructor(
    registry: ToolRegistry,
    server: string,
    client: McpToolClient,
    options: McpServerOptions & { naming: string },
    release: () => void,
  ) {
    this.server = server;
    this.#registry = registry;
    this.#options = options;
    this.#release = release;
    this.#client = client;
    this.#unsubscribe = this.#listen(client);
    const pins = options.pinning?.pins;
    if (pins !== undefined) {
      // A held tool accepted (here or by a ToolPins another part of the host shares): check the last listing again.
      this.#unsubscribePins = pins.on("change", ({ server: changed }) => {
        if (changed !== server || !this.#active) return;
        void this.#serial(async () => {
          if (!this.#active || this.#lastTools === undefined) return;
          try {
            await this.#apply(this.#lastTools);
          } catch (error) {
            this.#warn(`server "${this.server}": checking its tools against their pins again failed: ${messageOf(error)}`);
          }
        });
      });
    }
  }

  /** The first listing. Listening starts before it, so a change announced meanwhile is not lost. */
  async start(): Promise<void> {
    await this.#serial(async () => {
      let tools: Tool[];
      try {
        tools = await this.#client.listTools();
      } catch (error) {
        throw new RegistrationError(
          `server "${this.server}": tools/list failed, so none of its tools were registered: ${messageOf(error)}; ` +
            "check that the server is running and declares the tools capability",
          "list-failed",
          { cause: error },
        );
      }
      await this.#apply(tools);
    });
  }

  names(): string[] {
    return this.#registry.serverToolNames(this.server);
  }

  refresh(): Promise<ToolsChange> {
    if (!this.#active) return Promise.reject(this.#unregisteredError("refresh()"));
    return this.#serial(() => this.#sync(this.#client));
  }

  replaceClient(client: McpToolClient): Promise<ToolsChange> {
    if (!this.#active) return Promise.reject(this.#unregisteredError("replaceClient()"));
    // Calls from now on go to the new client, even before its listing is in.
    this.#unsubscribe();
    this.#client = client;
    this.#unsubscribe = this.#listen(client);
    return this.#serial(() => this.#sync(client));
  }

  unregister(): ToolsChange {
    if (!this.#active) return { server: this.server, added: [], removed: [] };
    this.#active = false;
    this.#unsubscribe();
    this.#unsubscribePins();
    this.#release();
    return this.#registry.removeServerTools(this.server);
  }

  #unregisteredError(method: string): RegistrationError {
    return new RegistrationError(`server "${this.server}": ${method} after unregister(); register the server again with registerMcpServer`, "unregistered");
  }

  #listen(client: McpToolClient): () => void {
    return client.on("toolslistchanged", () => this.#onListChanged());
  }

  /**
   * notifications/tools/list_changed: schedule a re-list and return at once (this runs on the
   * client's read path). A burst coalesces: one re-list runs at a time, and one more follows
   * it if notifications came while it ran.
   */
  #onListChanged(): void {
    if (!this.#active || this.#relistQueued) return;
    this.#relistQueued = true;
    const client = this.#client;
    void this.#serial(async () => {
      this.#relistQueued = false;
      if (!this.#active || client !== this.#client) return; // replaceClient lists the new one itself
      try {
        await this.#sync(client);
      } catch (error) {
        // Unregistered or replaced meanwhile (a shutdown closes the client): nothing to say.
        if (!this.#active || client !== this.#client) return;
        this.#warn(
          `server "${this.server}": re-listing tools after notifications/tools/list_changed failed: ${messageOf(error)}; ` +
            "its previous tools stay registered",
        );
      }
    });
  }

  /** Runs `task` after every listing queued before it. */
  #serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(task, task);
    this.#tail = run.catch(() => {});
    return run;
  }

  async #sync(client: McpToolClient): Promise<ToolsChange> {
    const tools = await client.listTools();
    // Unregistered, or the client was replaced while we listed: this listing is stale.
    if (!this.#active || client !== this.#client) return { server: this.server, added: [], removed: [] };
    return this.#apply(tools);
  }

  async #apply(tools: readonly Tool[]): Promise<ToolsChange> {
    this.#lastTools = tools;
    const mismatches = await this.#reviewPins(tools);
    const outcome = filterToolNames(tools.map((tool) => tool.name), this.#options);
    const unmatched = new Set<string>();
    for (const { list, pattern } of outcome.unmatched) {
      const key = `${list}\0${pattern}`;
      unmatched.add(key);
      if (!this.#reportedUnmatched.has(key)) {
        this.#warn(
          `server "${this.server}": tools.${list} pattern ${JSON.stringify(pattern)} matches none of its tools ` +
            `(${tools.length === 0 ? "it lists none" : `it lists ${tools.map((tool) => tool.name).join(", ")}`}); check the spelling`,
        );
      }
    }
    for (const { tool, include, exclude } of outcome.overridden) {
      const key = `both\0${tool}\0${include}\0${exclude}`;
      unmatched.add(key);
      if (!this.#reportedUnmatched.has(key)) {
        this.#warn(
          `server "${this.server}": tool "${tool}" matches both tools.include ${JSON.stringify(include)} and ` +
            `tools.exclude ${JSON.stringify(exclude)}; include wins, so it is registered (remove one of the patterns to silence this)`,
        );
      }
    }
    const selected = new Set(outcome.selected);
    const toolset = `mcp-${this.server}`;
    const entries: McpToolEntry[] = [];
    const held: HeldEntry[] = [];
    for (const tool of tools) {
      if (!selected.has(tool.name)) continue;
      const original = tool.name;
      if (tool.inputSchema !== undefined && depthOf(tool.inputSchema, MAX_INPUT_SCHEMA_DEPTH + 1) > MAX_INPUT_SCHEMA_DEPTH) {
        const key = `deep\0${original}`;
        unmatched.add(key);
        if (!this.#reportedUnmatched.has(key)) {
          this.#warn(
            `server "${this.server}": tool "${original}" is skipped: its inputSchema is nested deeper than ${MAX_INPUT_SCHEMA_DEPTH} levels, ` +
              "too deep to hand to a model; fix the tool's schema on the server, or exclude the tool",
          );
        }
        continue;
      }
      const unfit = this.#taskProblem(tool);
      if (unfit !== undefined) {
        const key = `task\0${original}\0${unfit}`;
        unmatched.add(key);
        if (!this.#reportedUnmatched.has(key)) this.#warn(`server "${this.server}": tool "${original}" is skipped: ${unfit}`);
        continue;
      }
      const mismatch = mismatches.get(original);
      if (mismatch !== undefined) {
        const name = toolName(this.server, original, this.#options.naming);
        const offered = this.#options.pinning?.mode === "warn";
        const summary = heldSummary(mismatch);
        const key = `pin\0${original}\0${offered}\0${summary}\0${mismatch.digest ?? ""}`;
        unmatched.add(key);
        if (!this.#reportedUnmatched.has(key)) {
          this.#warn(
            offered
              ? `${summary}; it is offered anyway (pinning: warn); ${acceptHint(mismatch)}`
              : `${summary}; it is held back (not offered to a model, calls refused) until you accept it; ${acceptHint(mismatch)}`,
          );
          this.#registry.dispatchEvent(new RegistryEvent("toolheld", { ...mismatch, name, offered }));
        }
        if (!offered) {
          held.push({ name, tool: original, message: `${summary}, so it is held back and cannot be called; ${acceptHint(mismatch)}` });
          continue;
        }
      }
      entries.push({
        name: toolName(this.server, original, this.#options.naming),
        tool: original,
        toolset,
        description: typeof tool.description === "string" ? tool.description : typeof tool.title === "string" ? tool.title : "",
        inputSchema: tool.inputSchema ?? { type: "object" },
        ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
        ...uiEntry(tool),
        handler: (args, context: ToolCallContext) =>
          this.#client.callTool(original, args, {
            timeoutMs: context.timeoutMs ?? this.#options.timeoutMs,
            signal: context.signal,
            onProgress: context.onProgress,
            traceContext: context.traceContext,
            ...(this.#options.tasks === "always" ? { task: true } : {}),
            ...(context.onTaskStatus !== undefined ? { onTaskStatus: context.onTaskStatus } : {}),
          }),
        ...(this.#options.redactor !== undefined ? { redactor: this.#options.redactor } : {}),
        ...(this.#options.resultFiles !== undefined ? { resultFiles: this.#options.resultFiles } : {}),
      });
    }
    this.#reportedUnmatched = unmatched;
    return this.#registry.replaceServerTools(this.server, entries, held);
  }

  /** The listing against its pins (McpServerOptions.pinning): the tools that do not match, by their own names. */
  async #reviewPins(tools: readonly Tool[]): Promise<Map<string, HeldTool>> {
    const pinning = this.#options.pinning;
    if (pinning === undefined) return new Map();
    const review = await pinning.pins.review({ name: this.server, source: pinning.source }, tools);
    return new Map(review.held.map((held) => [held.tool, held]));
  }

  /**
   * Why a tool cannot be offered, when it must run as a task and cannot — spec 2025-11-25
   * basic/utilities/tasks ("Tool-Level Negotiation" 1, 2.3): a "required" tool of a server
   * without tasks.requests.tools.call (or with `tasks: never`) could never be called.
   */
  #taskProblem(tool: Tool): string | undefined {
    if (tool.execution?.taskSupport !== "required") return undefined;
    if (this.#options.tasks === "never") {
      return 'it must run as a task (execution.taskSupport: "required") and this server has tasks: never; set tasks: auto to offer it';
    }
    // The 2026-07-28 wire has no per-tool negotiation: the server runs a task when it chooses.
    if (this.#client.era === "modern") return undefined;
    if (isObject(this.#client.serverCapabilities?.tasks?.requests?.tools?.call)) return undefined;
    return 'it must run as a task (execution.taskSupport: "required") but the server does not declare tasks.requests.tools.call, ' +
      "so it could never be called; report it to the server's authors";
  }

  #warn(message: string): void {
    const redactor = this.#options.redactor;
    this.#registry.dispatchEvent(new RegistryEvent("warning", { message: redactor === undefined ? message : redactor.redact(message) }));
  }
}
