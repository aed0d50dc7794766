// The x-mcp-header tool parameters of the 2026-07-28 Streamable HTTP transport, both ways: which
// parameters a tool's inputSchema mirrors into `Mcp-Param-{Name}` headers, how a value is
// written into a header and read back out of one, and whether a request's headers match its
// body — spec 2026-07-28 basic/transports/streamable-http ("Custom Headers from Tool
// Parameters": Schema Extension, Value Encoding, Client Behavior, Server Behavior for Custom
// Headers; "Server Validation"); server/tools ("x-mcp-header"). A protocol file: pure, no
// client state, so the server half uses it too (the client sends the headers:
// request-headers.ts; the HTTP front checks them: src/server/http-front.ts).

import { isObject } from "../common/json.ts";
import { ONE_SCHEMA_KEYWORDS, SCHEMA_LIST_KEYWORDS, SCHEMA_MAP_KEYWORDS } from "../common/schema-keywords.ts";

type Json = Record<string, unknown>;

/** One parameter mirrored into a header: `Mcp-Param-{name}` carries the value at `path`. */
export interface ParamHeader {
  /** The x-mcp-header value, as the server wrote it. */
  name: string;
  /** The chain of `properties` keys from the schema root to the parameter. */
  path: string[];
  /** The parameter's declared type (integers are compared as numbers: "Server Validation"). */
  type: "string" | "integer" | "boolean";
}

/** Where the tool's x-mcp-header annotations are, or why the tool definition is invalid. */
export type ParamHeaders = { headers: ParamHeader[] } | { problem: string };

/** RFC 9110 5.6.2 tchar: the characters of a header field name. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Values that go as they are: visible ASCII and space, no leading or trailing whitespace. */
const PLAIN_VALUE = /^[\x21-\x7E]([\x20-\x7E]*[\x21-\x7E])?$/;
/** RFC 9110 5.5: what a received field value may hold (visible ASCII, space, tab). */
const FIELD_VALUE = /^[\t\x20-\x7E]*$/;
const SENTINEL_PREFIX = "=?base64?";
const SENTINEL_SUFFIX = "?=";
/** Canonical Base64 (RFC 4648 section 4), padding included: "SGVsbG8" is not "Hello". */
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** A decimal integer as an integer header may carry it (`42`, `-7`, `42.0`). */
const DECIMAL = /^-?\d+(\.\d+)?$/;
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
        headers.push({ name: header, path, type: schema.type });
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

function isPrimitive(type: unknown): type is ParamHeader["type"] {
  return type === "string" || type === "integer" || type === "boolean";
}

/**
 * A value as a header value ("Value Encoding"): plain when it is visible ASCII without
 * surrounding whitespace and does not look like the sentinel; otherwise
 * `=?base64?{UTF-8 as Base64}?=`.
 */
export function encodeHeaderValue(value: string): string {
  if (PLAIN_VALUE.test(value) && !isSentinel(value)) return value;
  const bytes = new TextEncoder().encode(value);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `${SENTINEL_PREFIX}${btoa(binary)}${SENTINEL_SUFFIX}`;
}

/**
 * A received `Mcp-Name` or `Mcp-Param-*` value as the body would hold it ("Value Encoding":
 * servers MUST decode before comparing): plain as it is, the sentinel's canonical Base64 as
 * UTF-8; undefined when it has invalid characters (RFC 9110 5.5) or a sentinel that is not
 * canonical Base64 of UTF-8 — "Servers MUST reject … invalid characters". A value that only
 * starts or only ends like the sentinel is plain.
 */
export function decodeHeaderValue(value: string): string | undefined {
  if (!FIELD_VALUE.test(value)) return undefined;
  if (!isSentinel(value)) return value;
  const base64 = value.slice(SENTINEL_PREFIX.length, value.length - SENTINEL_SUFFIX.length);
  if (!CANONICAL_BASE64.test(base64)) return undefined;
  try {
    const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function isSentinel(value: string): boolean {
  return value.length >= SENTINEL_PREFIX.length + SENTINEL_SUFFIX.length && value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX);
}

/** The string a parameter value becomes ("Type conversion"), or undefined when no header is sent for it (null, absent, another type). */
export function headerText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number" && Number.isInteger(value) && Math.abs(value) <= MAX_SAFE) return String(value);
  return undefined;
}

/** The value at a chain of `properties` keys in a tool call's arguments. */
export function valueAt(root: unknown, path: readonly string[]): unknown {
  let value = root;
  for (const key of path) {
    if (!isObject(value)) return undefined;
    value = value[key];
  }
  return value;
}

/**
 * "Server Behavior for Custom Headers": whether a tools/call's `Mcp-Param-*` headers agree with
 * its arguments — each annotated parameter with a value in the body needs its header, decoded
 * equal to it (integers compared as numbers: "Server Validation"); a header with invalid
 * characters or a bad sentinel is refused; a header whose parameter has no value in the body
 * does not match it. `header(name)` reads a request header without case. What differs, or
 * undefined when they agree; the caller answers 400 with -32020 HeaderMismatch.
 */
export function paramHeaderMismatch(params: readonly ParamHeader[], args: unknown, header: (name: string) => string | null): string | undefined {
  for (const param of params) {
    const field = `Mcp-Param-${param.name}`;
    const where = param.path.join(".");
    const given = header(field);
    const body = valueAt(args, param.path);
    const text = headerText(body);
    if (given === null) {
      if (text === undefined) continue; // spec: null or absent, the server MUST NOT expect the header
      return `the ${field} header is missing (the body carries ${where} = ${JSON.stringify(body)})`;
    }
    const decoded = decodeHeaderValue(given);
    if (decoded === undefined) return `the ${field} header holds invalid characters or a Base64 value that does not decode to UTF-8`;
    if (text === undefined) return `the ${field} header is sent but the body carries no ${where} value it could mirror`;
    const same = param.type === "integer" && typeof body === "number" && DECIMAL.test(decoded) ? Number(decoded) === body : decoded === text;
    if (!same) return `${field} header value ${JSON.stringify(decoded)} does not match body value ${where} = ${JSON.stringify(body)}`;
  }
  return undefined;
}
