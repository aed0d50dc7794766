// What a tool pin is made of: the part of a tool's listing that is pinned (name, title,
// description, inputSchema, outputSchema, annotations, `_meta.ui`, execution — spec 2025-11-25
// server/tools "Tool"), its RFC 8785 digest, and the pins' stored form, read back with bounds.

import type { JsonObject, Tool } from "../client/types.ts";
import { canonicalJson } from "../common/canonical-json.ts";
import { messageOf } from "../common/error-text.ts";
import { isObject } from "../common/json.ts";
import { sha256 } from "../common/sha256.ts";

/** The fields of a tool a pin covers, in the order a change is described. */
export const PINNED_FIELDS = ["name", "title", "description", "inputSchema", "outputSchema", "annotations", "_meta.ui", "execution"] as const;

/** One pinned (or pending) definition. */
export interface PinRecord {
  /** `sha256:<hex>` of the definition's canonical JSON (RFC 8785). */
  digest: string;
  /** The same of the definition without its name: a renamed tool keeps it. */
  shape: string;
  /** The definition itself (for a diff); absent when it was too large to keep. */
  definition?: JsonObject;
  /** ISO 8601: when it was pinned (or first seen, pending). */
  at: string;
}

/** A definition seen and not pinned: held until accepted; `rejected` once the user said no. */
export interface PendingRecord extends PinRecord {
  rejected?: boolean;
  /** A pinned tool no longer listed when this was first seen, whose definition this is under a new name. */
  renamedFrom?: string;
}

/** One server's pins: by config name and command line or URL. */
export interface ServerPins {
  name: string;
  /** The command line (stdio) or URL the tools were pinned for. */
  source: string;
  tools: Record<string, PinRecord>;
  pending: Record<string, PendingRecord>;
}

/** The whole of the pins, as a lock file holds them (version 1). */
export interface ToolPinsData {
  version: 1;
  servers: ServerPins[];
}

/** Servers kept at most; the oldest recorded go first. */
export const MAX_PINNED_SERVERS = 500;
/** Tools pinned per server at most; a listing with more holds back the rest. */
export const MAX_PINNED_TOOLS = 2_000;
/** Pending definitions kept per server at most. */
export const MAX_PENDING_TOOLS = 200;
/** A definition whose canonical JSON is longer than this is pinned by its digest alone (no diff of it). */
export const MAX_KEPT_DEFINITION_CHARS = 32_768;

/** The pinned part of a listed tool, with only the fields it has. */
export function pinDefinition(tool: Tool): JsonObject {
  const definition: JsonObject = { name: tool.name };
  if (tool.title !== undefined) definition.title = tool.title;
  if (tool.description !== undefined) definition.description = tool.description;
  if (tool.inputSchema !== undefined) definition.inputSchema = tool.inputSchema;
  if (tool.outputSchema !== undefined) definition.outputSchema = tool.outputSchema;
  if (tool.annotations !== undefined) definition.annotations = tool.annotations as JsonObject;
  const ui = isObject(tool._meta) ? tool._meta.ui : undefined;
  if (ui !== undefined) definition._meta = { ui } as JsonObject;
  if (tool.execution !== undefined) definition.execution = tool.execution as JsonObject;
  return definition;
}

/** `sha256:<hex>` of UTF-8 text. */
function digestOf(text: string): string {
  let hex = "sha256:";
  for (const byte of sha256(new TextEncoder().encode(text))) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

/** The record of a definition; throws CanonicalJsonError when it has no canonical form. */
export function pinRecord(definition: JsonObject, at: string): PinRecord {
  const text = canonicalJson(definition);
  const { name: _name, ...shape } = definition;
  return {
    digest: digestOf(text),
    shape: digestOf(canonicalJson(shape)),
    ...(text.length <= MAX_KEPT_DEFINITION_CHARS ? { definition } : {}),
    at,
  };
}

/** Which pinned fields differ between two definitions (canonically compared). */
export function changedFields(before: JsonObject | undefined, after: JsonObject | undefined): string[] {
  if (before === undefined || after === undefined) return ["definition"];
  return PINNED_FIELDS.filter((field) => fieldText(before, field) !== fieldText(after, field));
}

/** A field's canonical text ("" when absent). */
export function fieldText(definition: JsonObject, field: (typeof PINNED_FIELDS)[number]): string {
  const value = field === "_meta.ui" ? (isObject(definition._meta) ? definition._meta.ui : undefined) : definition[field];
  if (value === undefined) return "";
  try {
    return canonicalJson(value);
  } catch (error) {
    return `(${messageOf(error)})`;
  }
}

/**
 * The stored pins, checked: undefined (nothing stored yet) is empty; anything not of the
 * version-1 shape is a problem, said as text (the caller names the file and what to do).
 */
export function readPinsData(value: unknown): ToolPinsData | string {
  if (value === undefined) return { version: 1, servers: [] };
  if (!isObject(value)) return "it is not a JSON object";
  if (typeof value.version === "number" && value.version > 1) return `it is version ${value.version}, written by a newer mcpwire`;
  if (value.version !== 1) return 'it has no "version": 1';
  if (!Array.isArray(value.servers)) return 'it has no "servers" list';
  if (value.servers.length > MAX_PINNED_SERVERS) return `it has over ${MAX_PINNED_SERVERS} servers`;
  const servers: ServerPins[] = [];
  for (const [index, server] of value.servers.entries()) {
    if (!isObject(server) || typeof server.name !== "string" || typeof server.source !== "string") {
      return `servers[${index}] has no "name" and "source" strings`;
    }
    const tools = recordsOf(server.tools, MAX_PINNED_TOOLS);
    const pending = recordsOf(server.pending, MAX_PENDING_TOOLS);
    if (typeof tools === "string") return `servers[${index}] ("${server.name}").tools: ${tools}`;
    if (typeof pending === "string") return `servers[${index}] ("${server.name}").pending: ${pending}`;
    servers.push({ name: server.name, source: server.source, tools, pending });
  }
  return { version: 1, servers };
}

function recordsOf(value: unknown, max: number): Record<string, PendingRecord> | string {
  if (value === undefined) return {};
  if (!isObject(value)) return "not a mapping";
  const entries = Object.entries(value);
  if (entries.length > max) return `over ${max} entries`;
  const records: Record<string, PendingRecord> = Object.create(null);
  for (const [name, record] of entries) {
    if (!isObject(record) || typeof record.digest !== "string" || typeof record.shape !== "string" || typeof record.at !== "string") {
      return `"${name}" has no "digest", "shape" and "at" strings`;
    }
    if (record.definition !== undefined && !isObject(record.definition)) return `"${name}".definition is not an object`;
    records[name] = {
      digest: record.digest,
      shape: record.shape,
      at: record.at,
      ...(record.definition !== undefined ? { definition: record.definition as JsonObject } : {}),
      ...(record.rejected === true ? { rejected: true } : {}),
      ...(typeof record.renamedFrom === "string" ? { renamedFrom: record.renamedFrom } : {}),
    };
  }
  return records;
}
