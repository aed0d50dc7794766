// Resources, the client's side — spec 2025-11-25 server/resources ("Listing Resources", "Resource
// Templates", "Reading Resources", "Subscriptions"); spec 2026-07-28 basic/patterns/subscriptions
// (no resources/subscribe: the URI joins the listen stream's filter) and server/utilities/caching.
// Client's resource methods call these with their context (client-context.ts).

import { ErrorCode, RpcError } from "../jsonrpc/errors.ts";
import type { Params, RequestOptions } from "../jsonrpc/peer.ts";
import { type ClientContext, requireCapability } from "./client-context.ts";
import type { ListOptions } from "./client-options.ts";
import { CapabilityError, ProtocolError, ResourceNotFoundError } from "./errors.ts";
import { cachedPages, DEFAULT_MAX_PAGES } from "./pagination.ts";
import { readKey, ttlOf } from "./result-cache.ts";
import type { ReadResourceResult } from "./types.ts";

/** Every page of a list, or the cached list while fresh (pagination.ts cachedPages). */
export function listCached<T>(context: ClientContext, method: string, key: string, options: ListOptions): Promise<T[]> {
  const { fresh, ...requestOptions } = options;
  return cachedPages<T>(
    context.cache,
    `${context.name}: ${method}`,
    method,
    key,
    (cursor) => context.request(method, cursor === undefined ? undefined : { cursor }, requestOptions),
    { fresh: fresh === true, maxPages: context.options.maxPages ?? DEFAULT_MAX_PAGES },
  );
}

/** resources/read, cached while fresh unless `fresh`; not found is ResourceNotFoundError. */
export async function readResource(context: ClientContext, uri: string, options: ListOptions): Promise<ReadResourceResult> {
  requireCapability(context, "resources", "resources/read");
  const key = readKey(uri);
  if (options.fresh !== true) {
    const cached = context.cache.get<ReadResourceResult>(key);
    if (cached !== undefined) return cached;
  }
  const { fresh: _fresh, ...requestOptions } = options;
  let result: Params;
  try {
    result = await context.request("resources/read", { uri }, requestOptions);
  } catch (error) {
    const notFound = error instanceof RpcError &&
      (error.rpcCode === ErrorCode.ResourceNotFound || (context.era === "modern" && error.rpcCode === ErrorCode.InvalidParams));
    if (!notFound) throw error;
    throw new ResourceNotFoundError(`${context.name}: resources/read: no resource ${JSON.stringify(uri)}: ${error.message}`, error.rpcCode, {
      uri,
      data: error.data,
      cause: error,
    });
  }
  if (!Array.isArray(result.contents)) {
    // spec 2025-11-25 schema: ReadResourceResult requires contents.
    throw new ProtocolError(`${context.name}: resources/read "${uri}" returned no "contents" array, which the spec requires`, "bad-result", {
      method: "resources/read",
    });
  }
  context.cache.set(key, result, ttlOf(result));
  return result as ReadResourceResult;
}

/** resources/subscribe, or on the 2026-07-28 wire the URI added to the listen filter. */
export async function subscribeResource(context: ClientContext, uri: string, options: RequestOptions): Promise<void> {
  requireCapability(context, "resources", "resources/subscribe");
  // spec 2025-11-25 server/resources ("Capabilities"): subscribe is optional within resources.
  if (context.state === "ready" && context.serverCapabilities?.resources?.subscribe !== true) {
    throw new CapabilityError(
      `${context.name} declares resources without "subscribe", so it does not accept resources/subscribe; read the resource again instead`,
      { capability: "resources.subscribe" },
    );
  }
  if (context.era === "modern") {
    // spec 2026-07-28 subscriptions: no resources/subscribe; the URI joins the listen filter.
    context.subscriptions.subscribe(uri);
    return;
  }
  await context.request("resources/subscribe", { uri }, options);
}

/** resources/unsubscribe, or on the 2026-07-28 wire the URI taken out of the listen filter. */
export async function unsubscribeResource(context: ClientContext, uri: string, options: RequestOptions): Promise<void> {
  requireCapability(context, "resources", "resources/unsubscribe");
  if (context.era === "modern") {
    context.subscriptions.unsubscribe(uri);
    return;
  }
  await context.request("resources/unsubscribe", { uri }, options);
}

/** spec 2026-07-28 basic/patterns/subscriptions: opens the listen stream, unless the `listen` option is false. */
export function startListening(context: ClientContext): void {
  if (context.options.listen === false) return;
  context.subscriptions.start(context.serverCapabilities ?? {}, {
    name: context.name,
    onProblem: (message) => context.problem(message),
    open: (filter, signal, onId) =>
      context.request("subscriptions/listen", { notifications: filter }, { signal, onId, timeoutMs: Infinity, maxTotalTimeoutMs: Infinity }),
  });
}
