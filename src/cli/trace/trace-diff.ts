// `mcpwire trace diff A B`: what changed between two recordings of a server. From each trace it
// takes what the server said of itself (the answer to initialize, spec 2025-11-25
// basic/lifecycle, or to server/discover, spec 2026-07-28 server/discover), its last listings
// (tools/list, prompts/list, resources/list, resources/templates/list: pages joined by their
// cursors, spec 2025-11-25 server/utilities/pagination) and the answers to tools/call by tool
// and arguments; then compares them item by item, as the JSON paths that differ.

import { isObject } from "../../common/json.ts";
import { clipText } from "../../common/preview.ts";
import type { TraceEvent } from "../../transport/trace-event.ts";
import { dataLine, lineOf } from "../output.ts";

/** A JSON path and the values at it in A and B (undefined: absent). */
export interface PathChange {
  path: string;
  a?: unknown;
  b?: unknown;
}

/** One difference: an item added, removed or changed in a section. */
export interface TraceChange {
  /** `server`, `tools`, `prompts`, `resources`, `resourceTemplates` or `calls`. */
  section: string;
  change: "added" | "removed" | "changed";
  /** The item: a tool's name, a resource's URI, `echo {"text":"hi"}` for a call; "" for the server. */
  name: string;
  /** A change: the paths that differ (at most MAX_PATHS), and how many more there were. */
  paths?: PathChange[];
  morePaths?: number;
}

/** What `trace diff` found. */
export interface TraceDiff {
  a: { server: string };
  b: { server: string };
  changes: TraceChange[];
  /** What could not be compared (a listing recorded in one trace only). */
  notes: string[];
}

/** Where a server/discover answer carries the server's name and version (spec 2026-07-28 server/discover). */
const DISCOVER_SERVER_INFO = "io.modelcontextprotocol/serverInfo";
/** Paths listed per changed item. */
const MAX_PATHS = 20;
/** How deep the comparison descends (the reader already refused deeper events). */
const MAX_DEPTH = 64;

/** The listings compared: the method, the section's name, the member of the result, the key of an item. */
const LISTINGS = [
  { method: "tools/list", section: "tools", member: "tools", key: "name" },
  { method: "prompts/list", section: "prompts", member: "prompts", key: "name" },
  { method: "resources/list", section: "resources", member: "resources", key: "uri" },
  { method: "resources/templates/list", section: "resourceTemplates", member: "resourceTemplates", key: "uriTemplate" },
] as const;

/** The servers with message events in `events`, in order of appearance. */
export function traceServers(events: readonly TraceEvent[]): string[] {
  const names = new Set<string>();
  for (const event of events) if (event.kind === "message") names.add(event.server);
  return [...names];
}

/** What one recording says of its server. */
interface Snapshot {
  server?: Record<string, unknown>;
  listings: Map<string, Map<string, unknown>>;
  calls: Map<string, unknown>;
}

/** JSON with object keys sorted: the same arguments written in another order are the same call. */
function canonical(value: unknown, depth = 0): string {
  if (depth > MAX_DEPTH) return '"…"';
  if (Array.isArray(value)) return `[${value.map((item) => canonical(item, depth + 1)).join(",")}]`;
  if (isObject(value)) {
    return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical(value[key], depth + 1)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function snapshot(events: readonly TraceEvent[], server: string): Snapshot {
  const shot: Snapshot = { listings: new Map(), calls: new Map() };
  // Requests sent, by id: an answer's params come from its request.
  const sent = new Map<string, Record<string, unknown>>();
  const pending = new Map<string, Map<string, unknown>>(); // a listing being paged
  for (const event of events) {
    if (event.kind !== "message" || event.server !== server) continue;
    const message = event.message as unknown as Record<string, unknown>;
    if (event.dir === "send" && typeof message.method === "string" && event.id !== undefined) {
      sent.set(JSON.stringify(event.id), isObject(message.params) ? message.params : {});
      continue;
    }
    if (event.dir !== "receive" || event.answers === undefined) continue;
    const method = event.answers.method;
    const params = sent.get(JSON.stringify(event.answers.id)) ?? {};
    const result = message.result;
    if (method === "initialize" || method === "server/discover") {
      if (isObject(result)) shot.server = serverPart(result);
      continue;
    }
    if (method === "tools/call") {
      const name = typeof params.name === "string" ? params.name : "?";
      shot.calls.set(`${name} ${canonical(params.arguments ?? {})}`, "error" in message ? { error: message.error } : result);
      continue;
    }
    const listing = LISTINGS.find((entry) => entry.method === method);
    if (listing === undefined || !isObject(result) || !Array.isArray(result[listing.member])) continue;
    // A first page (no cursor) starts a new listing; later pages add to it.
    const items = params.cursor === undefined ? new Map<string, unknown>() : pending.get(listing.section) ?? new Map<string, unknown>();
    for (const item of result[listing.member] as unknown[]) {
      if (isObject(item)) items.set(String(item[listing.key]), item);
    }
    pending.set(listing.section, items);
    if (result.nextCursor === undefined) shot.listings.set(listing.section, items);
  }
  return shot;
}

/**
 * What the server said of itself: its protocol version (2026-07-28: the versions it supports),
 * identity, capabilities and instructions. spec 2026-07-28 server/discover: serverInfo is in
 * `_meta["io.modelcontextprotocol/serverInfo"]`; it is compared as `serverInfo` all the same.
 */
function serverPart(result: Record<string, unknown>): Record<string, unknown> {
  const part: Record<string, unknown> = {};
  for (const key of ["protocolVersion", "supportedVersions", "serverInfo", "capabilities", "instructions"]) {
    if (Object.hasOwn(result, key)) part[key] = result[key];
  }
  const meta = result._meta;
  if (part.serverInfo === undefined && isObject(meta) && Object.hasOwn(meta, DISCOVER_SERVER_INFO)) part.serverInfo = meta[DISCOVER_SERVER_INFO];
  return part;
}

/** `.a.b[0]`, `["odd key"]`: a member's path. */
function memberPath(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/** The paths where `a` and `b` differ. */
function pathChanges(a: unknown, b: unknown, path: string, out: PathChange[], depth = 0): void {
  if (canonical(a) === canonical(b)) return;
  if (depth < MAX_DEPTH && isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    for (const key of keys) {
      pathChanges(Object.hasOwn(a, key) ? a[key] : undefined, Object.hasOwn(b, key) ? b[key] : undefined, memberPath(path, key), out, depth + 1);
    }
    return;
  }
  if (depth < MAX_DEPTH && Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    for (let i = 0; i < a.length; i++) pathChanges(a[i], b[i], `${path}[${i}]`, out, depth + 1);
    return;
  }
  out.push({ path: path === "" ? "(whole)" : path.replace(/^\./, ""), ...(a === undefined ? {} : { a }), ...(b === undefined ? {} : { b }) });
}

function changed(section: string, name: string, a: unknown, b: unknown): TraceChange | undefined {
  const paths: PathChange[] = [];
  pathChanges(a, b, "", paths);
  if (paths.length === 0) return undefined;
  const more = paths.length - MAX_PATHS;
  return { section, change: "changed", name, paths: paths.slice(0, MAX_PATHS), ...(more > 0 ? { morePaths: more } : {}) };
}

/** The differences between server `serverA` of trace A and `serverB` of trace B. */
export function diffTraces(eventsA: readonly TraceEvent[], serverA: string, eventsB: readonly TraceEvent[], serverB: string): TraceDiff {
  const a = snapshot(eventsA, serverA);
  const b = snapshot(eventsB, serverB);
  const changes: TraceChange[] = [];
  const notes: string[] = [];
  if (a.server !== undefined && b.server !== undefined) {
    const change = changed("server", "", a.server, b.server);
    if (change !== undefined) changes.push(change);
  } else if (a.server !== undefined || b.server !== undefined) {
    notes.push(`the server's initialize or server/discover answer is recorded only in ${a.server !== undefined ? "A" : "B"}`);
  }
  for (const { section, method } of LISTINGS) {
    const itemsA = a.listings.get(section);
    const itemsB = b.listings.get(section);
    if (itemsA === undefined || itemsB === undefined) {
      if (itemsA !== undefined || itemsB !== undefined) notes.push(`${method} is recorded only in ${itemsA !== undefined ? "A" : "B"}`);
      continue;
    }
    for (const [name, item] of itemsA) {
      if (!itemsB.has(name)) changes.push({ section, change: "removed", name });
      else {
        const change = changed(section, name, item, itemsB.get(name));
        if (change !== undefined) changes.push(change);
      }
    }
    for (const name of itemsB.keys()) if (!itemsA.has(name)) changes.push({ section, change: "added", name });
  }
  // A call is compared only when both recordings made it (the same tool, the same arguments).
  for (const [key, resultA] of a.calls) {
    if (!b.calls.has(key)) continue;
    const change = changed("calls", key, resultA, b.calls.get(key));
    if (change !== undefined) changes.push(change);
  }
  return { a: { server: serverA }, b: { server: serverB }, changes, notes };
}

/** A value of a path change on one line, short. */
function valueText(value: unknown): string {
  if (value === undefined) return "(absent)";
  // A string quoted, so that "1" and 1, or "" and nothing, are told apart.
  return dataLine(typeof value === "string" ? JSON.stringify(value.slice(0, 240)) : value, { maxDepth: 8, maxChars: 120 });
}

/** A server's name as shown; `-` for the unnamed server of `inspect`. */
function serverName(name: string): string {
  return name === "" ? "-" : lineOf(name);
}

const MARK = { added: "+", removed: "-", changed: "~" } as const;

/** The diff as text for a terminal: one line per item, its changed paths indented under it. */
export function diffText(diff: TraceDiff): string {
  const lines: string[] = [];
  for (const note of diff.notes) lines.push(`note: ${note}`);
  if (diff.changes.length === 0) lines.push(`no differences (server ${serverName(diff.a.server)} in A, ${serverName(diff.b.server)} in B)`);
  for (const change of diff.changes) {
    lines.push(`${change.section}: ${MARK[change.change]} ${change.name === "" ? "(the server)" : clipText(lineOf(change.name), 200)}`);
    for (const path of change.paths ?? []) lines.push(`    ${lineOf(path.path)}: ${valueText(path.a)} → ${valueText(path.b)}`);
    if (change.morePaths !== undefined) lines.push(`    … ${change.morePaths} more path${change.morePaths === 1 ? "" : "s"}`);
  }
  return lines.join("\n") + "\n";
}
