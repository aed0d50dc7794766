// The 2026-07-28 wire of Streamable HTTP: no session, no GET stream, no resumption; a bad
// request is answered with a 4xx that carries the JSON-RPC error — spec 2026-07-28
// basic/transports/streamable-http ("Protocol Version Header", "Backward Compatibility").

import { isObject } from "../../common/json.ts";
import { bodyText } from "../http-errors.ts";
import { isJson, type JsonRpcErrorObject } from "./wire.ts";

/** The first revision without sessions, GET streams or resumption (version strings order as dates). */
const STATELESS_SINCE = "2026-07-28";
/** Error bodies larger than this are not read for a JSON-RPC error. */
const ERROR_BODY_MAX_CHARS = 65_536;
/**
 * spec 2026-07-28 basic/transports/streamable-http ("Backward Compatibility"): the errors that
 * identify a modern server in a 4xx answer — HeaderMismatch, MissingRequiredClientCapability,
 * UnsupportedProtocolVersion (and method-not-found with a 404).
 */
const MODERN_ERROR_CODES = new Set([-32020, -32021, -32022]);

/** True when `version` (set by the Client) is the 2026-07-28 wire or later. */
export function isStatelessVersion(version: string | undefined): boolean {
  return version !== undefined && version >= STATELESS_SINCE;
}

/**
 * The JSON-RPC error a modern server answered a request with, in a 4xx (400, or 404 for an
 * unknown method), or undefined when the answer is not one. Before any stateless exchange has
 * worked (`confirmed` false), only the errors that identify a modern server count; anything
 * else stays an HTTP status error, which tells the Client the server is legacy. Reads a clone:
 * the response stays readable.
 */
export async function modernError(response: Response, confirmed: boolean, signal?: AbortSignal): Promise<JsonRpcErrorObject | undefined> {
  if (response.status < 400 || response.status >= 500) return undefined;
  if (!isJson(response.headers.get("content-type") ?? "")) return undefined;
  const text = await bodyText(response.clone(), ERROR_BODY_MAX_CHARS, signal);
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(value)) return undefined;
  const error = value.error;
  if (!isObject(error) || typeof error.code !== "number") return undefined;
  const recognized = MODERN_ERROR_CODES.has(error.code) || (error.code === -32601 && response.status === 404);
  if (!recognized && !confirmed) return undefined;
  return error as JsonRpcErrorObject;
}
