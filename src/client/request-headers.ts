// The request metadata headers of Streamable HTTP in the 2026-07-28 revision: Mcp-Method,
// Mcp-Name and the Mcp-Param-{Name} headers mirrored from tool parameters marked
// `x-mcp-header` — spec 2026-07-28 basic/transports/streamable-http ("Request Metadata").
// The Client computes them from the request and its last tools/list, and hands them to the
// transport with each send (SendOptions.headers): the transport knows no method or tool.

import { isObject } from "../common/json.ts";
import { ONE_SCHEMA_KEYWORDS, SCHEMA_LIST_KEYWORDS, SCHEMA_MAP_KEYWORDS } from "../common/schema-keywords.ts";
import type { Params } from "../jsonrpc/peer.ts";

type Json = Record<string, unknown>;

/** One parameter mirrored into a header: `Mcp-Param-{name}` carries the value at `path`. */
export interface ParamHeader {
  /** The x-mcp-header value, as the server wrote it. */
  name: string;
  /** The chain of `properties` keys from the schema root to the parameter. */
  path: string[];
}

/** Where the tool's x-mcp-header annotations are, or why the tool definition is invalid. */
export type ParamHeaders = { headers: ParamHeader[] } | { problem: string };

/** RFC 9110 5.6.2 tchar: the characters of a header field name. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Values that go as they are: visible ASCII and space, no leading or trailing whitespace. */
const PLAIN_VALUE = /^[\x21-\x7E]([\x20-\x7E]*[\x21-\x7E])?$/;
const SENTINEL = /^=\?base64\?.*\?=$/s;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** The keywords searched beside `properties` (which scan() follows itself, keeping the path). */
const OTHER_SUBSCHEMA_KEYWORDS = [
  "items",
  ...ONE_SCHEMA_KEYWORDS,
  ...SCHEMA_LIST_KEYWORDS,
  ...SCHEMA_MAP_KEYWORDS.filter((keyword) => keyword !== "properties"),
];

const cache = new WeakMap<object, ParamHeaders>();

/**
 * Reads a tool's inputSchema for `x-mcp-header` annotations and checks them against the
 * spec's constraints ("Schema Extension"): a token name, unique regardless of case, on a
 * string, integer or boolean parameter reachable from the root through `properties` only.
 * Computed once per schema object.
 */
export function paramHeadersOf(inputSchema: unknown): ParamHeaders {
  if (!isObject(inputSchema)) return { headers: [] };
  const known = cache.get(inputSchema);
  if (known !== undefined) return known;
  const result = scan(inputSchema);
  cache.set(inputSchema, result);
  return result;
}

function scan(root: Json): ParamHeaders {
  const headers: ParamHeader[] = [];
  const seen = new Set<string>();
  const problems: string[] = [];

  const visit = (schema: Json, path: string[], reachable: boolean): void => {
    const header = schema["x-mcp-header"];
    if (header !== undefined) {
      const where = path.length === 0 ? "the schema root" : `parameter "${path.join(".")}"`;
      if (!reachable || path.length === 0) {
        problems.push(`x-mcp-header on ${where} is not reachable from the root through "properties" alone`);
      } else if (typeof header !== "string" || header === "") {
        problems.push(`x-mcp-header of ${where} is empty or not a string`);
      } else if (!TOKEN.test(header)) {
        problems.push(`x-mcp-header ${JSON.stringify(header)} of ${where} is not an HTTP field-name token`);
      } else if (seen.has(header.toLowerCase())) {
        problems.push(`x-mcp-header ${JSON.stringify(header)} is used twice (names are compared without case)`);
      } else if (!isPrimitive(schema.type)) {
        problems.push(
          `x-mcp-header ${JSON.stringify(header)} is on ${where} of type ${
            JSON.stringify(schema.type)
          }; only string, integer and boolean parameters may be mirrored`,
        );
      } else {
        seen.add(header.toLowerCase());
        headers.push({ name: header, path });
      }
    }
    const properties = schema.properties;
    if (isObject(properties)) {
      for (const [key, sub] of Object.entries(properties)) if (isObject(sub)) visit(sub, [...path, key], reachable);
    }
    // Annotations anywhere else make the tool invalid, so the other subschemas are searched too.
    for (const keyword of OTHER_SUBSCHEMA_KEYWORDS) {
      const value = schema[keyword];
      const subs = Array.isArray(value) ? value : isObject(value) ? (SCHEMA_MAP_KEYWORDS.includes(keyword) ? Object.values(value) : [value]) : [];
      for (const sub of subs) if (isObject(sub)) visit(sub, path, false);
    }
  };
  visit(root, [], true);
  return problems.length > 0 ? { problem: problems.join("; ") } : { headers };
}

function isPrimitive(type: unknown): boolean {
  return type === "string" || type === "integer" || type === "boolean";
}

/**
 * A value as a header value ("Value Encoding"): plain when it is visible ASCII without
 * surrounding whitespace and does not look like the sentinel; otherwise
 * `=?base64?{UTF-8 as Base64}?=`.
 */
export function encodeHeaderValue(value: string): string {
  if (PLAIN_VALUE.test(value) && !SENTINEL.test(value)) return value;
  const bytes = new TextEncoder().encode(value);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `=?base64?${btoa(binary)}?=`;
}

/** The string a parameter value becomes, or undefined when no header is sent for it. */
function headerText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number" && Number.isInteger(value) && Math.abs(value) <= MAX_SAFE) return String(value);
  return undefined; // null, absent, or not the declared type: the header is omitted
}

/** Looks up a tool's inputSchema by name (the client's last tools/list). */
export type ToolSchemaLookup = (tool: string) => unknown;

/**
 * The headers one POST carries for a request beyond the protocol version: Mcp-Method on
 * every request; Mcp-Name for tools/call, resources/read, prompts/get and the task id of
 * tasks/get, tasks/update and tasks/cancel; Mcp-Param-* for the tool's annotated parameters
 * present in the arguments ("Client Behavior"). `params` are the request's own, before `_meta`.
 */
export function requestHeaders(method: string, params: Params | undefined, toolSchema?: ToolSchemaLookup): Record<string, string> {
  const headers: Record<string, string> = { "Mcp-Method": method };
  if (method === "tools/call" || method === "prompts/get") {
    if (typeof params?.name === "string") headers["Mcp-Name"] = encodeHeaderValue(params.name);
  } else if (method === "resources/read") {
    if (typeof params?.uri === "string") headers["Mcp-Name"] = encodeHeaderValue(params.uri);
  } else if (method === "tasks/get" || method === "tasks/update" || method === "tasks/cancel") {
    // tasks extension ("Streamable HTTP: Routing Headers"): Mcp-Name is the task id.
    if (typeof params?.taskId === "string") headers["Mcp-Name"] = encodeHeaderValue(params.taskId);
  }
  if (method === "tools/call" && typeof params?.name === "string" && toolSchema !== undefined) {
    const found = paramHeadersOf(toolSchema(params.name));
    if ("headers" in found && found.headers.length > 0) {
      const args = params.arguments;
      for (const header of found.headers) {
        const text = headerText(valueAt(args, header.path));
        if (text !== undefined) headers[`Mcp-Param-${header.name}`] = encodeHeaderValue(text);
      }
    }
  }
  return headers;
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let value = root;
  for (const key of path) {
    if (!isObject(value)) return undefined;
    value = value[key];
  }
  return value;
}
