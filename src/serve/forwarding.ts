// How one host request reaches a backend and its answer comes back: the `_meta` passed on,
// progress and cancellation wired both ways, the backend's error turned into the host's — spec
// 2025-11-25 basic/utilities/progress, basic/utilities/cancellation; spec 2026-07-28
// basic/patterns/mrtr (an `input_required` result passes through untouched). docs/serve.md
// ("Everything passes, both ways"; "Failures stay local").

import type { Client } from "../client/client.ts";
import type { PassThroughOptions } from "../client/client-options.ts";
import type { ProtocolEra } from "../client/protocol-version.ts";
import { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION } from "../client/request-meta.ts";
import type { JsonObject } from "../client/types.ts";
import { messageOf } from "../common/error-text.ts";
import type { Redactor } from "../common/redact.ts";
import { redactedCopy } from "../host/secrets.ts";
import { RpcError } from "../jsonrpc/errors.ts";
import type { Params } from "../jsonrpc/peer.ts";
import type { ServerRequestContext } from "../server/server-handlers.ts";
import type { BackendSet } from "./backend-set.ts";
import type { Caller } from "./host-forwarders.ts";

/** -32603: what a host gets when a backend could not answer at all (lost, refused, timed out). */
export const INTERNAL_ERROR = -32603;

/** How deep and large an error's `data` passed to the host may be (it is the backend's). */
const ERROR_DATA_BOUNDS = { maxDepth: 32, maxNodes: 10_000 } as const;

/**
 * The host's `_meta` as the backend gets it: a trace context, the 2026-07-28 log level and an
 * extension's keys kept; the progress token (the backend's Client makes its own, and progress
 * comes back through the bridge) and the per-request protocol fields (the backend's Client sends
 * its own, which are the host's by backend-pool.ts) left out.
 */
export function passedMeta(meta: JsonObject | undefined): JsonObject | undefined {
  if (meta === undefined) return undefined;
  const {
    progressToken: _token,
    [META_PROTOCOL_VERSION]: _version,
    [META_CLIENT_CAPABILITIES]: _capabilities,
    [META_CLIENT_INFO]: _info,
    ...rest
  } = meta;
  return Object.keys(rest).length === 0 ? undefined : rest;
}

/** `params` with `_meta` replaced by what the backend gets (passedMeta), and `name` (when given) by the backend's own. */
export function backendParams(params: Params | undefined, context: ServerRequestContext, name?: string): Params {
  const { _meta: _given, ...rest } = params ?? {};
  const meta = passedMeta(context.meta);
  const out: Params = name === undefined ? rest : { ...rest, name };
  if (meta !== undefined) out._meta = meta;
  return out;
}

/**
 * Sends `method` to `server`'s Client for a host request: `signal` aborts it
 * (notifications/cancelled to the backend), the backend's progress goes to the caller's current
 * host request, a 2026-07-28 host gets an `input_required` result as it came; while it runs,
 * what the backend asks and logs goes to `caller` (host-forwarders.ts InFlight).
 */
export async function forward(
  set: BackendSet,
  server: string,
  client: Client,
  method: string,
  params: Params,
  caller: Caller,
  options: { signal: AbortSignal; era: ProtocolEra; timeoutMs?: number | undefined },
): Promise<Params> {
  const meta = params._meta as JsonObject | undefined;
  const traceContext = set.traced(meta) ? await set.traceParent(meta) : undefined;
  const leave = set.inFlight.enter(server, caller);
  const sent: PassThroughOptions = {
    ...(traceContext === undefined ? {} : { traceContext }),
    signal: options.signal,
    onProgress: ({ progress, total, message }) => void caller.context()?.progress(progress, total, message),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    // spec 2026-07-28 mrtr: the host answers the backend's input requests itself and retries.
    ...(options.era === "modern" ? { inputRequired: "return" as const } : {}),
  };
  try {
    return await client.request(method, params, sent);
  } catch (error) {
    throw hostError(server, method, error, set.manager.redactor);
  } finally {
    leave();
  }
}

/**
 * What the host gets for a backend's failure: the backend's own JSON-RPC error (its code and
 * data, its message redacted and naming the server), or -32603 naming the server and what
 * happened (lost, unavailable, timed out) — never a stack, never a secret of the config.
 */
export function hostError(server: string, method: string, error: unknown, redactor: Redactor): RpcError {
  if (error instanceof RpcError) {
    const data = error.data === undefined ? undefined : redactedCopy(error.data, redactor, ERROR_DATA_BOUNDS);
    return new RpcError(redactor.redact(`server "${server}": ${stripServer(server, error.message)}`), error.rpcCode, data === undefined ? {} : { data });
  }
  return new RpcError(
    redactor.redact(`server "${server}": ${method} failed: ${stripServer(server, messageOf(error))}`),
    INTERNAL_ERROR,
  );
}

/** A message that already names the server does not name it twice. */
function stripServer(server: string, message: string): string {
  const prefix = `server "${server}": `;
  return message.startsWith(prefix) ? message.slice(prefix.length) : message;
}
