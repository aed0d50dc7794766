// ToolRegistry: built-in and MCP tools in one table, grouped into toolsets and called the
// same way — dispatch() for the LLM-facing string (never rejects), call() for the typed result.

import type { CallToolResult, JsonObject } from "../client/types.ts";
import { messageOf } from "../common/error-text.ts";
import { ContainedEventTarget, DetailEvent, type ListenerFailure } from "../common/events.ts";
import { checkOptions, optionNames } from "../common/options.ts";
import type { Redactor } from "../common/redact.ts";
import { runBounded } from "./bounded-call.ts";
import { cancelled, describeTool, failure, redacted, redactWith, toolErrorText, unwritableText } from "./call-failure.ts";
import { isValidToolName } from "./naming.ts";
import { RegistrationError } from "./registry-errors.ts";
import { type ResultFiles, resultWithFiles } from "./result-files.ts";
import { capText, DEFAULT_MAX_RESULT_CHARS, errorString, formatToolResultText, formatValueText, isCallToolResult, resultString } from "./result-format.ts";
import { didYouMean, suggestNames } from "./suggest.ts";
import { ToolCallError } from "./tool-call-error.ts";
import type {
  HeldEntry,
  LlmToolSchema,
  McpToolEntry,
  RegisteredTool,
  RegistryEvents,
  RegistryEventType,
  ToolCallContext,
  ToolDefinition,
  ToolOutput,
  ToolRegistryOptions,
  ToolsChange,
  ToolsetInfo,
} from "./types.ts";
import { callerRefusal, copyUi, offeredToModel } from "./visibility.ts";

export const DEFAULT_TOOLSET = "builtin";

/** The Event a ToolRegistry dispatches; `detail` is exactly what was emitted. */
export class RegistryEvent<K extends RegistryEventType = RegistryEventType> extends DetailEvent<RegistryEvents[K]> {
  constructor(type: K, detail: RegistryEvents[K]) {
    super(type, detail);
  }
}

interface Entry {
  tool: RegisteredTool;
  handler: ToolDefinition["handler"];
  /** MCP tools of a host: what the error texts of this tool pass through (the host's secrets). */
  redactor?: Redactor;
  /** Where this tool's long results and binary blocks are saved; false: nowhere (the registry's default otherwise). */
  resultFiles?: ResultFiles | false;
}

/** One MCP server's part of the table. */
interface ServerTable {
  /** Registered names this server holds, in listing order. */
  names: Set<string>;
  /** `tool\0name` of tools skipped last time, so a re-list does not repeat its warnings. */
  skipped: Set<string>;
  /** Registered names of this server's tools held back by their pins. */
  held: Set<string>;
}

/** Every option a ToolRegistry reads (its constructor checks them). */
const TOOL_REGISTRY_OPTIONS = optionNames<ToolRegistryOptions>({ maxResultChars: true, resultFiles: true });

/**
 * The tool table. Its events reach listeners contained: a listener that throws is reported as a
 * "warning" event carrying the listener's error, and the other listeners still get the event.
 */
export class ToolRegistry extends ContainedEventTarget<RegistryEvents> {
  readonly #entries = new Map<string, Entry>();
  /** Per tool, how results name it (see #sourceOf). */
  readonly #sources = new WeakMap<RegisteredTool, { source: string }>();
  /** Toolsets whose state was set explicitly (absent: enabled). */
  readonly #toolsetState = new Map<string, boolean>();
  readonly #servers = new Map<string, ServerTable>();
  /** Tools held back by their pins, by registered name: not in the table, refused with "tool-held". */
  readonly #held = new Map<string, HeldEntry & { server: string }>();
  readonly #maxResultChars: number | undefined;
  readonly #resultFiles: ResultFiles | undefined;

  constructor(options: ToolRegistryOptions = {}) {
    super();
    checkOptions("ToolRegistry", options, TOOL_REGISTRY_OPTIONS);
    this.#maxResultChars = options.maxResultChars;
    this.#resultFiles = options.resultFiles;
  }

  // --- events --------------------------------------------------------------------------

  /** Dispatches a RegistryEvent (listeners added with on() or addEventListener alike are contained). */
  protected override emit<K extends RegistryEventType>(type: K, detail: RegistryEvents[K]): void {
    this.dispatchEvent(new RegistryEvent(type, detail));
  }

  /** A listener threw: said as a warning, with its error; the event still reached the other listeners. */
  protected override listenerFailed({ type, error }: ListenerFailure): void {
    this.emit("warning", {
      message: `a "${type}" listener of the tool registry threw: ${messageOf(error)}; ` +
        "the other listeners still got the event; fix the listener (the registry carries on)",
      error,
    });
  }

  #warn(message: string): void {
    this.emit("warning", { message });
  }

  // --- built-in tools ------------------------------------------------------------------

  /**
   * Registers a built-in tool. Throws on an invalid name or a duplicate built-in name. A
   * built-in tool always wins: registered over an MCP tool, it takes the name and the MCP
   * tool is removed (a warning and a "toolschange" event say so).
   */
  register(definition: ToolDefinition): void {
    const { name } = definition;
    if (typeof name !== "string" || !isValidToolName(name)) {
      throw new TypeError(
        `cannot register tool ${JSON.stringify(name)}: a tool name must be 1 to 64 characters of A-Z, a-z, 0-9, _ and - ` +
          "(the LLM function-name rules); fitToolName() turns any string into such a name",
      );
    }
    if (typeof definition.handler !== "function") {
      throw new TypeError(`cannot register tool "${name}": its handler is not a function`);
    }
    const holder = this.#entries.get(name);
    if (holder?.tool.origin.kind === "builtin") {
      throw new RegistrationError(
        `cannot register built-in tool "${name}": a built-in tool of that name is already registered ` +
          `(toolset "${holder.tool.toolset}"); unregister("${name}") first or choose another name`,
        "already-registered",
      );
    }
    this.#entries.delete(name); // a replaced MCP tool's position goes too: the built-in is new
    this.#entries.set(name, {
      tool: {
        name,
        toolset: definition.toolset ?? DEFAULT_TOOLSET,
        description: definition.description ?? "",
        inputSchema: definition.inputSchema ?? { type: "object" },
        origin: { kind: "builtin" },
      },
      handler: definition.handler,
    });
    // Announced after the table is consistent, so a listener sees the built-in in place.
    if (holder !== undefined && holder.tool.origin.kind === "mcp") {
      const { server, tool } = holder.tool.origin;
      const table = this.#servers.get(server);
      table?.names.delete(name);
      table?.skipped.add(`${tool}\0${name}`);
      this.#warn(
        `built-in tool "${name}" replaces tool "${tool}" of server "${server}", which was registered under the same name; ` +
          `the MCP tool is no longer available; give server "${server}" another naming to keep both`,
      );
      this.emit("toolschange", { server, added: [], removed: [name] });
    }
  }

  /**
   * Removes a tool, built-in or MCP. Returns whether it was registered. An MCP tool removed
   * this way comes back when its server's tools are listed again (list_changed, refresh).
   */
  unregister(name: string): boolean {
    const entry = this.#entries.get(name);
    if (entry === undefined) return false;
    this.#entries.delete(name);
    const origin = entry.tool.origin;
    if (origin.kind === "mcp") {
      this.#servers.get(origin.server)?.names.delete(name);
      this.emit("toolschange", { server: origin.server, added: [], removed: [name] });
    }
    return true;
  }

  /** Whether a tool of that name is registered (its toolset may be disabled). */
  has(name: string): boolean {
    return this.#entries.has(name);
  }

  /**
   * The tools held back by their pins (not registered; a call of one is refused with "tool-held"):
   * each one's registered name, server, own name, and the message a call of it gets.
   */
  heldTools(): (HeldEntry & { server: string })[] {
    return [...this.#held.values()].map((entry) => ({ ...entry }));
  }

  get(name: string): RegisteredTool | undefined {
    const entry = this.#entries.get(name);
    return entry === undefined ? undefined : copyTool(entry.tool);
  }

  /** Every registered tool, enabled or not, in registration order. */
  tools(): RegisteredTool[] {
    return [...this.#entries.values()].map((entry) => copyTool(entry.tool));
  }

  /**
   * What an LLM may call: the tools of enabled toolsets as `{ name, description, parameters }`,
   * without app-only tools (MCP Apps visibility, see visibility.ts).
   * `parameters` is the tool's own inputSchema object (not a copy): do not change it.
   */
  list(): LlmToolSchema[] {
    const schemas: LlmToolSchema[] = [];
    for (const { tool } of this.#entries.values()) {
      if (this.#isEnabled(tool.toolset) && offeredToModel(tool)) {
        schemas.push({ name: tool.name, description: tool.description, parameters: tool.inputSchema });
      }
    }
    return schemas;
  }

  // --- toolsets ------------------------------------------------------------------------

  /** Toolsets that have tools, and those enabled or disabled by name, in first-seen order. */
  toolsets(): ToolsetInfo[] {
    const counts = new Map<string, number>();
    for (const { tool } of this.#entries.values()) counts.set(tool.toolset, (counts.get(tool.toolset) ?? 0) + 1);
    for (const name of this.#toolsetState.keys()) if (!counts.has(name)) counts.set(name, 0);
    return [...counts].map(([name, tools]) => ({ name, enabled: this.#isEnabled(name), tools }));
  }

  /**
   * Enables a toolset. A toolset need not have tools yet: its state is kept for tools that
   * arrive later (a server that connects after the config said to disable it).
   */
  enableToolset(name: string): void {
    this.#setToolset(name, true);
  }

  /** Disables a toolset: its tools leave list() and dispatching them is an error. */
  disableToolset(name: string): void {
    this.#setToolset(name, false);
  }

  #setToolset(name: string, enabled: boolean): void {
    const before = this.#isEnabled(name);
    this.#toolsetState.set(name, enabled);
    if (before !== enabled) this.emit("toolsetchange", { toolset: name, enabled });
  }

  #isEnabled(toolset: string): boolean {
    return this.#toolsetState.get(toolset) !== false;
  }

  // --- MCP tools -----------------------------------------------------------------------

  /**
   * Makes `entries` the tools of `server`, by difference: names it held and no longer lists
   * are removed, new names are added, names in both are updated in place. Collisions: a
   * built-in tool always wins, and a name held by another server's tool stays with it; two
   * entries with one name: the first keeps it. Each skipped tool is a warning (once, not
   * again on every re-list). Emits "toolschange" when names were added or removed.
   * registerMcpServer uses this; a host with its own discovery may too. `held`: the server's
   * tools held back by their pins (not registered; a call of one is refused with its message).
   */
  replaceServerTools(server: string, entries: readonly McpToolEntry[], held: readonly HeldEntry[] = []): ToolsChange {
    const table = this.#servers.get(server) ?? { names: new Set<string>(), skipped: new Set<string>(), held: new Set<string>() };
    this.#servers.set(server, table);
    this.#setHeld(server, table, held);
    const previous = table.names;
    const next = new Set<string>();
    const skipped = new Set<string>();
    const added: string[] = [];
    const skip = (entry: McpToolEntry, message: string) => {
      const key = `${entry.tool}\0${entry.name}`;
      // A tool's name is the server's text: a host's redactor sees it first.
      if (!table.skipped.has(key)) this.#warn(entry.redactor === undefined ? message : entry.redactor.redact(message));
      skipped.add(key);
    };
    for (const entry of entries) {
      if (!isValidToolName(entry.name)) {
        skip(
          entry,
          `server "${server}": tool "${entry.tool}" has the registered name ${JSON.stringify(entry.name)}, ` +
            "which is not a valid LLM function name; skipped (registerMcpServer fits names; check a custom naming)",
        );
        continue;
      }
      const holder = this.#entries.get(entry.name);
      if (next.has(entry.name) && holder?.tool.origin.kind === "mcp") {
        skip(
          entry,
          `server "${server}": tools "${holder.tool.origin.tool}" and "${entry.tool}" both map to the name "${entry.name}"; ` +
            `"${holder.tool.origin.tool}" keeps it and "${entry.tool}" is skipped; choose a naming that keeps them apart or exclude one`,
        );
        continue;
      }
      if (holder !== undefined && holder.tool.origin.kind === "builtin") {
        skip(
          entry,
          `server "${server}": tool "${entry.tool}" maps to the name "${entry.name}", which the built-in tool ` +
            `"${entry.name}" (toolset "${holder.tool.toolset}") already has; the built-in tool wins and the MCP tool is skipped; ` +
            `give server "${server}" another naming or exclude "${entry.tool}"`,
        );
        continue;
      }
      if (holder !== undefined && holder.tool.origin.kind === "mcp" && holder.tool.origin.server !== server) {
        skip(
          entry,
          `server "${server}": tool "${entry.tool}" maps to the name "${entry.name}", which tool ` +
            `"${holder.tool.origin.tool}" of server "${holder.tool.origin.server}" already has; the first registered keeps it ` +
            `and this one is skipped; give one of the servers another naming or exclude the tool`,
        );
        continue;
      }
      // Free, or held by this server's previous listing: (re)place it. Map.set keeps the position.
      this.#entries.set(entry.name, {
        tool: {
          name: entry.name,
          toolset: entry.toolset,
          description: entry.description,
          inputSchema: entry.inputSchema,
          origin: { kind: "mcp", server, tool: entry.tool },
          ...(entry.annotations !== undefined ? { annotations: entry.annotations } : {}),
          ...(entry.ui !== undefined ? { ui: entry.ui } : {}),
        },
        handler: entry.handler,
        ...(entry.redactor !== undefined ? { redactor: entry.redactor } : {}),
        ...(entry.resultFiles !== undefined ? { resultFiles: entry.resultFiles } : {}),
      });
      next.add(entry.name);
      if (!previous.has(entry.name)) added.push(entry.name);
    }
    const removed = [...previous].filter((name) => !next.has(name));
    for (const name of removed) this.#entries.delete(name);
    table.names = next;
    table.skipped = skipped;
    const change: ToolsChange = { server, added, removed };
    if (added.length > 0 || removed.length > 0) this.emit("toolschange", change);
    return change;
  }

  /** Records `server`'s held-back tools (a name another server's tool holds stays that tool's). */
  #setHeld(server: string, table: ServerTable, held: readonly HeldEntry[]): void {
    for (const name of table.held) this.#held.delete(name);
    table.held = new Set();
    for (const entry of held) {
      if (this.#held.get(entry.name)?.server !== undefined) continue;
      this.#held.set(entry.name, { ...entry, server });
      table.held.add(entry.name);
    }
  }

  /** Removes every tool of `server` (it disconnected, was parked or unregistered). */
  removeServerTools(server: string): ToolsChange {
    const table = this.#servers.get(server);
    if (table !== undefined) this.#setHeld(server, table, []);
    this.#servers.delete(server);
    const removed = table === undefined ? [] : [...table.names];
    for (const name of removed) this.#entries.delete(name);
    const change: ToolsChange = { server, added: [], removed };
    if (removed.length > 0) this.emit("toolschange", change);
    return change;
  }

  /** Registered names of `server`'s tools, in listing order. */
  serverToolNames(server: string): string[] {
    return [...(this.#servers.get(server)?.names ?? [])];
  }

  // --- calling -------------------------------------------------------------------------

  /**
   * Calls a tool and gives its typed result: the CallToolResult for an MCP tool (a tool
   * error is a result with `isError: true`, as spec 2025-11-25 server/tools has it), the
   * handler's value for a built-in. Throws ToolCallError for everything else: unknown
   * tool, disabled toolset, a tool not for this caller (`not-visible`: an app-only tool
   * unless `context.caller` is "app"), arguments that are not an object, a handler that
   * throws, a timeout, a cancel, a JSON-RPC error, a server that is not connected.
   */
  call(name: string, args: JsonObject = {}, context: ToolCallContext = {}): Promise<ToolOutput> {
    // Not an async function: on the hot path that would add a promise and a hop per call.
    // Every failure is still a rejection, never a synchronous throw.
    try {
      return this.#call(name, args, context);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  #call(name: string, args: JsonObject, context: ToolCallContext): Promise<ToolOutput> {
    const entry = this.#entries.get(name);
    if (entry === undefined) {
      const held = this.#held.get(name);
      if (held !== undefined) {
        throw new ToolCallError(held.message, "tool-held", { tool: name, origin: { kind: "mcp", server: held.server, tool: held.tool } });
      }
      const suggestion = didYouMean(this.#suggestions(name));
      throw new ToolCallError(
        `unknown tool "${name}": no tool of that name is registered (it may have been removed when its server's tools changed); ` +
          (suggestion === "" ? "call one of the listed tools" : `${suggestion} (or call another of the listed tools)`),
        "unknown-tool",
        { tool: name },
      );
    }
    const { tool } = entry;
    if (this.#toolsetState.get(tool.toolset) === false) { // #isEnabled, inline: every call's path
      throw new ToolCallError(
        `${describeTool(tool)}: the tool is in toolset "${tool.toolset}", which is disabled; enable the toolset to call it`,
        "disabled",
        { tool: name, origin: tool.origin },
      );
    }
    // ext-apps apps.mdx "Visibility": an app-only tool is never called for a model (dispatch is
    // what an embedder hands a model's tool calls to), a model-only one never for an app.
    if (tool.ui !== undefined || context.caller === "app") {
      const refusal = callerRefusal(tool, context.caller ?? "model", context.appServer);
      if (refusal !== undefined) throw new ToolCallError(`${describeTool(tool)}: ${refusal}`, "not-visible", { tool: name, origin: tool.origin });
    }
    if (typeof args !== "object" || args === null || Array.isArray(args)) { // !isObject(args), inline: every call's path
      throw new ToolCallError(
        `${describeTool(tool)}: the arguments must be a JSON object, got ${args === null ? "null" : Array.isArray(args) ? "an array" : typeof args}`,
        "invalid-arguments",
        { tool: name, origin: tool.origin },
      );
    }
    if (context.signal?.aborted) throw redacted(cancelled(tool, context.signal), entry.redactor);
    const toFailure = (error: unknown) => Promise.reject(redacted(failure(error, tool, context), entry.redactor));
    let outcome: ToolOutput | Promise<ToolOutput>;
    try {
      outcome = tool.origin.kind === "builtin" && (context.timeoutMs !== undefined || context.signal !== undefined)
        ? runBounded(tool, entry.handler, args, context)
        : entry.handler(args, context);
    } catch (error) {
      return toFailure(error);
    }
    return Promise.resolve(outcome).then(undefined, toFailure);
  }

  /** The callable names nearest to an unknown `name` (see suggest.ts): tools of enabled toolsets only. */
  #suggestions(name: string): string[] {
    // Only what a model is offered: app-only tools (MCP Apps) are never named to it.
    const callable = [...this.#entries.values()]
      .filter((entry) => this.#isEnabled(entry.tool.toolset) && offeredToModel(entry.tool))
      .map((entry) => entry.tool.name);
    return suggestNames(name, callable);
  }

  /**
   * Calls a tool and resolves to the LLM-facing string: `{"result": "<text>"}` or
   * `{"error": "<message>"}` (see result-format.ts). Never rejects: every failure call()
   * throws, and an MCP result with `isError: true`, becomes `{"error": …}` naming the
   * server and tool. `args` may be the JSON text an LLM produced.
   */
  dispatch(name: string, args: JsonObject | string = {}, context: ToolCallContext = {}): Promise<string> {
    // Not an async function, for the same reason as call(); it never rejects.
    const format = { maxChars: this.#maxResultChars };
    const entry = this.#entries.get(name);
    const tool = entry?.tool;
    const redactor = entry?.redactor;
    let called: Promise<ToolOutput>;
    try {
      // call(), without its frame: #call's throws are caught here the same way.
      called = this.#call(name, typeof args === "string" ? parseArguments(name, tool, args) : args, context);
    } catch (error) {
      return Promise.resolve(errorString(messageOf(error), format));
    }
    const files = entry?.resultFiles ?? this.#resultFiles;
    return called.then(
      (output) => files ? this.#formatWithFiles(name, tool, redactor, output, format, files) : this.#format(name, tool, redactor, output, format),
      // call()'s errors are already redacted (the same ToolCallError the typed path gets)
      (error: unknown) => errorString(messageOf(error), format),
    );
  }

  /** dispatch's string for a call's output; an MCP tool's error text passes through its host's redactor. */
  #format(
    name: string,
    tool: RegisteredTool | undefined,
    redactor: Redactor | undefined,
    output: ToolOutput,
    format: { maxChars: number | undefined },
  ): string {
    // The hot path: no closure and no new string per call; `who` is made once per tool.
    const source = tool === undefined ? { source: `tool "${name}"` } : this.#sources.get(tool) ?? this.#sourceOf(tool);
    try {
      // An MCP result (isCallToolResult, inline): its text, capped only when it is long.
      if (typeof output === "object" && output !== null && Array.isArray((output as CallToolResult).content)) {
        if ((output as CallToolResult).isError === true) return errorString(toolErrorText(source, redactor, output as CallToolResult), format);
        const text = formatToolResultText(output as CallToolResult, source);
        const maxChars = format.maxChars ?? DEFAULT_MAX_RESULT_CHARS;
        return JSON.stringify({ result: text.length <= maxChars ? text : capText(text, maxChars) });
      }
      return resultString(formatValueText(output, source), format);
    } catch (error) {
      return errorString(unwritableText(source, redactor, error), format);
    }
  }

  /** #format, with long texts and binary blocks saved by `files`; a save that fails is a warning and the cut string. */
  #formatWithFiles(
    name: string,
    tool: RegisteredTool | undefined,
    redactor: Redactor | undefined,
    output: ToolOutput,
    format: { maxChars: number | undefined },
    files: ResultFiles,
  ): Promise<string> {
    const source = tool === undefined ? { source: `tool "${name}"` } : this.#sourceOf(tool);
    const label = tool?.origin.kind === "mcp" ? `${tool.origin.server}-${tool.origin.tool}` : name;
    return resultWithFiles(output, {
      files,
      label,
      source: source.source,
      ...(format.maxChars !== undefined ? { maxChars: format.maxChars } : {}),
      text: (savedFiles) => {
        const options = savedFiles === undefined ? source : { ...source, savedFiles };
        try {
          if (isCallToolResult(output) && output.isError === true) return { text: toolErrorText(options, redactor, output), isError: true };
          return { text: formatValueText(output, options), isError: false };
        } catch (error) {
          return { text: unwritableText(source, redactor, error), isError: true };
        }
      },
      warn: (message) => this.#warn(redactWith(redactor, message)),
    });
  }

  /** How results name a tool (`server "x", tool "y"`), made once per registered tool. */
  #sourceOf(tool: RegisteredTool): { source: string } {
    let source = this.#sources.get(tool);
    if (source === undefined) this.#sources.set(tool, source = { source: describeTool(tool) });
    return source;
  }
}

function copyTool(tool: RegisteredTool): RegisteredTool {
  return { ...tool, origin: { ...tool.origin }, ...(tool.ui !== undefined ? { ui: copyUi(tool.ui) } : {}) };
}

/** dispatch's arguments: an object as it is, a string parsed as JSON (an LLM's tool-call arguments). */
function parseArguments(name: string, tool: RegisteredTool | undefined, args: JsonObject | string): JsonObject {
  if (typeof args !== "string") return args;
  const who = tool === undefined ? `tool "${name}"` : describeTool(tool);
  let parsed: unknown;
  try {
    parsed = args.trim() === "" ? {} : JSON.parse(args);
  } catch (error) {
    throw new ToolCallError(
      `${who}: the arguments are not valid JSON (${messageOf(error)}); send a JSON object`,
      "invalid-arguments",
      { tool: name, origin: tool?.origin },
    );
  }
  return parsed as JsonObject; // call() checks that it is an object
}
