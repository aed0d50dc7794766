// What a backend asks of the host, passed to the host that called — spec 2025-11-25
// client/sampling, client/elicitation, client/roots; and the host requests in flight each
// backend is answering, so that a backend's request, log message or progress reaches the
// request it belongs to. docs/serve.md ("Everything passes, both ways").
//
// A backend's sampling/createMessage, elicitation/create or roots/list comes while it answers a
// host's request (a tools/call, a prompts/get): over stdio nothing on the wire says which one, so
// it goes to the newest host request in flight to that backend, else (a handshake-era session)
// to any of the session's; with none, the backend is answered -32603 (the contract has no
// session-level request to the host).
// A handshake-era host gets it as a request of its own tied to that request
// (ServerRequestContext.request); the backend's answer is the host's answer, unchanged but for
// what the Client's handler checks (an elicitation answer against its schema, the sampling
// policy of the backend's config). A 2026-07-28 host is never sent a request: a 2026-07-28
// backend's `input_required` result goes to it untouched (forwarding.ts), and a handshake-era
// backend's request is held while the host is answered `input_required` (held-calls.ts).

import type { ClientHandlers, HandlerContext } from "../client/handlers.ts";
import type { ClientCapabilities, CreateMessageRequest, CreateMessageResult, ElicitFormRequest, ElicitResult, Root } from "../client/types.ts";
import { RpcError } from "../jsonrpc/errors.ts";
import type { Params } from "../jsonrpc/peer.ts";
import type { ServerRequestContext } from "../server/server-handlers.ts";

/** -32603: the JSON-RPC internal error, what a backend gets when its request cannot be asked of a host. */
const INTERNAL_ERROR = -32603;

/**
 * Who answers what a backend asks while it answers a host request: a handshake-era host request
 * (its own request to the host), or a held call of a 2026-07-28 host (held-calls.ts: the ask
 * becomes an `input_required` result). `context` is the host request that hears its logs now.
 */
export interface Caller {
  ask(method: string, params: Params | undefined, signal: AbortSignal): Promise<Params>;
  context(): ServerRequestContext | undefined;
}

/** A handshake-era host request as a Caller: it is asked with a request of its own, tied to it. */
export function requestCaller(context: ServerRequestContext): Caller {
  return {
    ask: (method, params, signal) => context.request(method, params, { signal }),
    context: () => context,
  };
}

/**
 * A 2026-07-28 host's request that cannot take input (spec 2026-07-28 mrtr "Supported Requests":
 * only tools/call, prompts/get, resources/read), or one to a 2026-07-28 backend (which asks by
 * `input_required`, passed through): a backend's request during it is refused.
 */
export function statelessCaller(context: ServerRequestContext, method: string): Caller {
  return {
    ask: (asked) =>
      Promise.reject(
        new RpcError(`mcpwire serve: ${asked} was asked during ${method}, which a 2026-07-28 host cannot be asked input for`, INTERNAL_ERROR),
      ),
    context: () => context,
  };
}

/** The callers in flight, per backend: where a backend's own requests and messages go. */
export class InFlight {
  readonly #byServer = new Map<string, Set<Caller>>();
  readonly #anyCaller: boolean;

  /**
   * `anyCaller`: a backend with no request of its own in flight may be answered through another
   * backend's — for a handshake-era session, whose requests all reach the same host; never for
   * 2026-07-28 hosts, whose calls are each their own (a held call answers only its backend).
   */
  constructor(anyCaller: boolean) {
    this.#anyCaller = anyCaller;
  }

  /** Marks `caller` in flight to `server` until the returned function is called. */
  enter(server: string, caller: Caller): () => void {
    let set = this.#byServer.get(server);
    if (set === undefined) this.#byServer.set(server, set = new Set());
    set.add(caller);
    return () => {
      set.delete(caller);
      if (set.size === 0 && this.#byServer.get(server) === set) this.#byServer.delete(server);
    };
  }

  /** The newest caller in flight to `server`, else (anyCaller) the newest to any backend; undefined when none. */
  current(server: string): Caller | undefined {
    const own = this.#byServer.get(server);
    if (own !== undefined && own.size > 0) return last(own);
    if (!this.#anyCaller) return undefined;
    let found: Caller | undefined;
    for (const set of this.#byServer.values()) found = last(set) ?? found;
    return found;
  }
}

function last<T>(set: Set<T>): T | undefined {
  let found: T | undefined;
  for (const each of set) found = each;
  return found;
}

/**
 * The handlers a backend's Client is given for a host: one per capability the host declared, so
 * the backend sees exactly the host's (a capability the host lacks is not declared to the
 * backend, which then answers -32021 as it would the host itself: spec 2026-07-28 basic/index).
 */
export function forwardingHandlers(server: string, host: ClientCapabilities, inFlight: InFlight): ClientHandlers {
  const ask = (method: string, params: Params | undefined, context: HandlerContext): Promise<Params> => {
    const caller = inFlight.current(server);
    if (caller === undefined) {
      return Promise.reject(
        new RpcError(`mcpwire serve: server "${server}" sent ${method} while no host request was in flight to it; there is no host to ask`, INTERNAL_ERROR),
      );
    }
    return caller.ask(method, params, context.signal);
  };
  const handlers: ClientHandlers = {};
  if (host.sampling !== undefined) {
    handlers.sampling = (request: CreateMessageRequest, context) =>
      ask("sampling/createMessage", request as unknown as Params, context) as Promise<unknown> as Promise<CreateMessageResult>;
  }
  if (host.elicitation !== undefined) {
    // spec 2025-11-25 client/elicitation ("Capabilities"): an empty object means form mode.
    const modes = Object.keys(host.elicitation).length === 0 ? ["form"] : Object.keys(host.elicitation);
    handlers.elicitation = {};
    if (modes.includes("form")) {
      handlers.elicitation.form = (request: ElicitFormRequest, context) =>
        ask("elicitation/create", request as unknown as Params, context) as Promise<unknown> as Promise<ElicitResult>;
    }
    if (modes.includes("url")) {
      handlers.elicitation.url = ({ url, message, elicitationId }, context) =>
        ask("elicitation/create", { mode: "url", url, message, ...(elicitationId === undefined ? {} : { elicitationId }) }, context) as Promise<
          unknown
        > as Promise<ElicitResult>;
    }
  }
  if (host.roots !== undefined) {
    handlers.roots = async (context) => {
      const result = await ask("roots/list", undefined, context);
      return Array.isArray(result.roots) ? result.roots as unknown as Root[] : [];
    };
  }
  return handlers;
}

/**
 * The capabilities a backend's Client declares besides what its handlers declare: the host's,
 * less the three the handlers declare themselves (and `tasks`, which the Client's tasks
 * extension declares from its own parts).
 */
export function capabilitiesBesideHandlers(host: ClientCapabilities): ClientCapabilities {
  const { sampling: _sampling, elicitation: _elicitation, roots: _roots, tasks: _tasks, ...rest } = host;
  return rest;
}
