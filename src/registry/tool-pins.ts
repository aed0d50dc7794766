// Tool pinning, trust on first use: the first listing of a server (by config name and command
// line or URL) pins a digest of each tool's definition (RFC 8785 canonical JSON, SHA-256); from
// then on a tool that is new, or whose definition changed, is held back until accepted — a
// server cannot rewrite what its tools tell a model after the user took it on ("rug pull").
// In memory, or in a store (the host's lock file, host/store/pin-lock-file.ts).

import type { JsonObject, Tool } from "../client/types.ts";
import { CanonicalJsonError } from "../common/canonical-json.ts";
import { messageOf } from "../common/error-text.ts";
import { ContainedEventTarget, type ListenerFailure } from "../common/events.ts";
import {
  changedFields,
  MAX_PENDING_TOOLS,
  MAX_PINNED_SERVERS,
  MAX_PINNED_TOOLS,
  type PendingRecord,
  pinDefinition,
  pinRecord,
  readPinsData,
  type ServerPins,
  type ToolPinsData,
} from "./pin-record.ts";
import { ToolPinsError } from "./registry-errors.ts";

export type { ToolPinsData } from "./pin-record.ts";

/**
 * Whether tool definitions are pinned: `hold` (a new or changed tool is held back until
 * accepted), `warn` (it is offered, with a warning), `off` (nothing is recorded).
 */
export type PinningMode = "off" | "warn" | "hold";

/** Where a ToolPins keeps its pins across processes: the host's lock file, or your own. */
export interface ToolPinStore {
  /** What to call the store in messages (a file's path). */
  readonly location: string;
  /** The stored value (parsed JSON), or undefined when nothing is stored yet. Rejects when it cannot be read or parsed. */
  read(): Promise<unknown>;
  /** Replaces the stored value (atomically, where it is a file). */
  write(data: ToolPinsData): Promise<void>;
  /**
   * Runs one read-change-write with no other process doing one on the same store (a file: an
   * inter-process lock, host/store/file-lock.ts); without it, a write of another process between our
   * read and write would be lost. Rejects when the store cannot be had in time.
   */
  exclusive?<T>(work: () => Promise<T>): Promise<T>;
}

/** A server as pins know it: its config name and the command line (stdio) or URL its tools were pinned for. */
export interface PinnedServer {
  name: string;
  source: string;
}

/**
 * A tool whose listing does not match its pin:
 * `new` (never pinned), `changed` (`fields` say which), `renamed` (the definition of a pinned
 * tool no longer listed, `renamedFrom`, under a new name), `invalid` (no canonical form: a
 * number JSON cannot hold, a lone surrogate; it cannot be pinned).
 */
export interface HeldTool {
  server: string;
  /** The command line or URL of the server. */
  source: string;
  /** The server's own name of the tool. */
  tool: string;
  change: "new" | "changed" | "renamed" | "invalid";
  /** The pinned fields that differ (`description`, `inputSchema`, …); `definition` when the old one was not kept. */
  fields: string[];
  renamedFrom?: string;
  /** The user rejected this definition (it stays held, and is not asked about again). */
  rejected: boolean;
  /** `sha256:<hex>` of the listed definition (RFC 8785); absent for an `invalid` one. */
  digest?: string;
  /** The pinned definition, when kept. */
  before?: JsonObject;
  /** The listed definition, when kept. */
  after?: JsonObject;
}

/** What one review of a listing found. */
export interface PinReview {
  /** The server was seen for the first time: every tool was pinned (trust on first use). */
  firstUse: boolean;
  /** Tools that do not match their pins, in listing order. */
  held: HeldTool[];
}

/** The events of ToolPins: `change` after accept or reject (registrations re-check their tools). */
export interface ToolPinsEvents {
  change: { server: string; tools: string[] };
  /** A "change" listener threw. */
  warning: { message: string; error?: unknown };
}

/** Options of ToolPins: where the pins are kept. */
export interface ToolPinsOptions {
  /** Default: in memory only (pins last as long as this object). */
  store?: ToolPinStore;
}

/** Tool pins (trust on first use), kept in memory or in a store; registerMcpServer's `pinning` option takes one. */
export class ToolPins extends ContainedEventTarget<ToolPinsEvents> {
  readonly #store: ToolPinStore | undefined;
  #memory: ToolPinsData = { version: 1, servers: [] };
  /** One read-change-write at a time. */
  #tail: Promise<unknown> = Promise.resolve();
  /**
   * Servers first seen by this object (`name\0source`): their first session. A tool added during
   * it is pinned too (servers such as server-everything list some tools only after
   * `initialized`, through list_changed); a changed definition is held even then.
   */
  readonly #firstSessions = new Set<string>();

  constructor(options: ToolPinsOptions = {}) {
    super();
    this.#store = options.store;
  }

  /** Where the pins are kept ("memory" without a store). */
  get location(): string {
    return this.#store?.location ?? "memory";
  }

  protected override listenerFailed({ type, error }: ListenerFailure): void {
    this.emit("warning", { message: `a "${type}" listener of the tool pins threw: ${messageOf(error)}`, error });
  }

  /**
   * Checks a server's listing against its pins. The first listing of a server pins every tool
   * (and so does each listing of the same session for tools it adds, see #firstSessions);
   * later, a tool that is new or changed is recorded as pending (for a diff, accept, reject)
   * and reported held. A listed tool that matches its pin again drops its pending definition.
   */
  review(server: PinnedServer, tools: readonly Tool[]): Promise<PinReview> {
    return this.#update<PinReview>((data) => {
      const at = new Date().toISOString();
      let pins = findServer(data, server);
      if (pins === undefined) {
        pins = { name: server.name, source: server.source, tools: Object.create(null), pending: Object.create(null) };
        const held: HeldTool[] = [];
        for (const tool of tools) {
          const record = recordOf(tool, at);
          if (record === undefined || Object.keys(pins.tools).length >= MAX_PINNED_TOOLS) {
            held.push(heldOf(server, tool.name, "invalid", []));
          } else pins.tools[tool.name] = record;
        }
        data.servers.push(pins);
        if (data.servers.length > MAX_PINNED_SERVERS) data.servers.splice(0, data.servers.length - MAX_PINNED_SERVERS);
        this.#firstSessions.add(`${server.name}\0${server.source}`);
        return { value: { firstUse: true, held }, changed: true };
      }
      const firstSession = this.#firstSessions.has(`${server.name}\0${server.source}`);
      const listed = new Set(tools.map((tool) => tool.name));
      const held: HeldTool[] = [];
      let changed = false;
      for (const tool of tools) {
        const record = recordOf(tool, at);
        const pinned = pins.tools[tool.name];
        if (record !== undefined && pinned?.digest === record.digest) {
          if (pins.pending[tool.name] !== undefined) {
            delete pins.pending[tool.name];
            changed = true;
          }
          continue;
        }
        if (record === undefined) {
          held.push(heldOf(server, tool.name, "invalid", []));
          continue;
        }
        if (firstSession && pinned === undefined && pins.pending[tool.name] === undefined && Object.keys(pins.tools).length < MAX_PINNED_TOOLS) {
          pins.tools[tool.name] = record;
          changed = true;
          continue;
        }
        const previous = pins.pending[tool.name];
        const pending: PendingRecord = previous?.digest === record.digest ? previous : record;
        if (previous !== pending) {
          if (pinned === undefined) {
            const old = renamedFrom(pins, record.shape, listed);
            if (old !== undefined) pending.renamedFrom = old;
          }
          pins.pending[tool.name] = pending;
          changed = true;
        }
        held.push(describeHeld(server, pins, tool.name, pending));
      }
      const names = Object.keys(pins.pending);
      if (names.length > MAX_PENDING_TOOLS) {
        for (const name of names.slice(0, names.length - MAX_PENDING_TOOLS)) delete pins.pending[name];
      }
      return { value: { firstUse: false, held }, changed };
    });
  }

  /** Every held tool recorded (pending, rejected or not), of one server name or all; `tool` narrows it to one. */
  held(server?: string, tool?: string): Promise<HeldTool[]> {
    return this.#update((data) => {
      const held: HeldTool[] = [];
      for (const pins of data.servers) {
        if (server !== undefined && pins.name !== server) continue;
        for (const [name, pending] of Object.entries(pins.pending)) {
          if (tool === undefined || name === tool) held.push(describeHeld(pins, pins, name, pending));
        }
      }
      return { value: held, changed: false };
    });
  }

  /**
   * Accepts held tools (of server `server`; all of its held tools, or `tool`): each is pinned to
   * the definition it was held with (a renamed tool's old pin goes). Resolves to those accepted;
   * rejects with ToolPinsError "not-held" when there were none.
   */
  accept(server: string, tool?: string): Promise<HeldTool[]> {
    return this.#decide(server, tool, (pins, name, pending, held) => {
      pins.tools[name] = {
        digest: pending.digest,
        shape: pending.shape,
        at: new Date().toISOString(),
        ...(pending.definition ? { definition: pending.definition } : {}),
      };
      delete pins.pending[name];
      if (held.renamedFrom !== undefined) delete pins.tools[held.renamedFrom];
    });
  }

  /** Rejects held tools: the old pin stays, the tool stays held, and it is not asked about again. */
  reject(server: string, tool?: string): Promise<HeldTool[]> {
    return this.#decide(server, tool, (_pins, _name, pending) => {
      pending.rejected = true;
    });
  }

  async #decide(
    server: string,
    tool: string | undefined,
    apply: (pins: ServerPins, name: string, pending: PendingRecord, held: HeldTool) => void,
  ): Promise<HeldTool[]> {
    const decided = await this.#update((data) => {
      const decided: HeldTool[] = [];
      for (const pins of data.servers) {
        if (pins.name !== server) continue;
        for (const [name, pending] of Object.entries(pins.pending)) {
          if (tool !== undefined && name !== tool) continue;
          const held = describeHeld(pins, pins, name, pending);
          apply(pins, name, pending, held);
          decided.push(held);
        }
      }
      return { value: decided, changed: decided.length > 0 };
    });
    if (decided.length === 0) {
      const what = tool === undefined ? `server "${server}" has no held-back tools` : `tool "${tool}" of server "${server}" is not held back`;
      throw new ToolPinsError(`${what} in ${this.location}; see which are with "mcpwire pin status"`, "not-held");
    }
    this.emit("change", { server, tools: decided.map((held) => held.tool) });
    return decided;
  }

  /**
   * Reads the pins, lets `change` work on them, and writes them back when it changed them; one at
   * a time in this process, and in the store's exclusive() across processes (a pin another process
   * wrote between our read and write would be lost: a server pinned there would be first seen again).
   */
  #update<T>(change: (data: ToolPinsData) => { value: T; changed: boolean }): Promise<T> {
    const work = async () => {
      const data = await this.#read();
      const { value, changed } = change(data);
      if (changed) await this.#write(data);
      return value;
    };
    const store = this.#store;
    const run = this.#tail.then(() => store?.exclusive === undefined ? work() : this.#exclusive(store, work));
    this.#tail = run.catch(() => {});
    return run;
  }

  async #exclusive<T>(store: ToolPinStore, work: () => Promise<T>): Promise<T> {
    let done = false;
    try {
      return await store.exclusive!(async () => {
        const value = await work();
        done = true;
        return value;
      });
    } catch (error) {
      if (done || error instanceof ToolPinsError) throw error; // the work's own failure, or the release's after it
      throw new ToolPinsError(`the tool pins in ${store.location} are busy: ${messageOf(error)}`, "busy-pins", { cause: error });
    }
  }

  async #read(): Promise<ToolPinsData> {
    const store = this.#store;
    if (store === undefined) return this.#memory;
    let value: unknown;
    try {
      value = await store.read();
    } catch (error) {
      throw this.#damaged(messageOf(error), error);
    }
    const data = readPinsData(value);
    if (typeof data === "string") throw this.#damaged(data);
    return data;
  }

  async #write(data: ToolPinsData): Promise<void> {
    if (this.#store === undefined) {
      this.#memory = data;
      return;
    }
    try {
      await this.#store.write(data);
    } catch (error) {
      throw new ToolPinsError(
        `cannot write the tool pins to ${this.#store.location} (${messageOf(error)}); check that you own it and its directory`,
        "unwritable-pins",
        { cause: error },
      );
    }
  }

  #damaged(detail: string, cause?: unknown): ToolPinsError {
    return new ToolPinsError(
      `the tool pins in ${this.location} cannot be used: ${detail}; nothing was trusted or reset. Fix the file, or move it aside ` +
        "(every server's tools are then pinned again as first seen: review them with mcpwire tools)",
      "damaged-pins",
      { cause },
    );
  }
}

function findServer(data: ToolPinsData, server: PinnedServer): ServerPins | undefined {
  return data.servers.find((pins) => pins.name === server.name && pins.source === server.source);
}

/** The record of a listed tool, or undefined when its definition has no canonical form. */
function recordOf(tool: Tool, at: string) {
  try {
    return pinRecord(pinDefinition(tool), at);
  } catch (error) {
    if (error instanceof CanonicalJsonError) return undefined;
    throw error;
  }
}

function heldOf(server: PinnedServer, tool: string, change: HeldTool["change"], fields: string[]): HeldTool {
  return { server: server.name, source: server.source, tool, change, fields, rejected: false };
}

/** What a pending definition is to its pin: changed, the pin of `renamedFrom` under a new name, or new. */
function describeHeld(server: PinnedServer, pins: ServerPins, name: string, pending: PendingRecord): HeldTool {
  const base = { ...(pending.definition !== undefined ? { after: pending.definition } : {}), rejected: pending.rejected === true, digest: pending.digest };
  const pinned = pins.tools[name];
  if (pinned !== undefined) {
    return {
      ...heldOf(server, name, "changed", changedFields(pinned.definition, pending.definition)),
      ...base,
      ...(pinned.definition !== undefined ? { before: pinned.definition } : {}),
    };
  }
  const old = pending.renamedFrom === undefined ? undefined : pins.tools[pending.renamedFrom];
  if (pending.renamedFrom !== undefined && old !== undefined) {
    return {
      ...heldOf(server, name, "renamed", ["name"]),
      renamedFrom: pending.renamedFrom,
      ...base,
      ...(old.definition !== undefined ? { before: old.definition } : {}),
    };
  }
  return { ...heldOf(server, name, "new", []), ...base };
}

/** A pinned tool no longer listed whose definition, but for the name, is `shape`: the tool a new name renames. */
function renamedFrom(pins: ServerPins, shape: string, listed: Set<string>): string | undefined {
  for (const [old, record] of Object.entries(pins.tools)) if (!listed.has(old) && record.shape === shape) return old;
  return undefined;
}

/** One line about a held tool: who, what changed. */
export function heldSummary(held: HeldTool): string {
  const who = `server "${held.server}": tool "${held.tool}"`;
  switch (held.change) {
    case "new":
      return `${who} is new since the server's tools were pinned`;
    case "renamed":
      return `${who} is tool "${held.renamedFrom}" renamed (the same definition under a new name)`;
    case "invalid":
      return `${who} has a definition that cannot be pinned (a number JSON cannot hold, or a lone surrogate in its text)`;
    default:
      return `${who} changed since it was pinned: its ${held.fields.join(", ")} ${held.fields.length === 1 ? "differs" : "differ"}`;
  }
}

/** The commands that show and accept a held tool, quoted for a message. */
export function acceptHint(held: Pick<HeldTool, "server" | "tool" | "change">): string {
  if (held.change === "invalid") return `it cannot be accepted: fix the tool on the server, or set pinning: warn (or off) for server "${held.server}"`;
  const args = `${shellWord(held.server)} ${shellWord(held.tool)}`;
  return `see the change with "mcpwire pin diff ${args}", accept it with "mcpwire pin accept ${args}"`;
}

function shellWord(text: string): string {
  return /^[\w.@:/+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
