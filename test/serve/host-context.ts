// Test helper for test/serve/: a host as the server half would present one to the bridge's
// handlers (src/server/server-handlers.ts) — its identity, a session that records what it is
// told, and a request context whose progress, notifications and requests to the host are
// recorded or answered by the test. Used until the bridge's tests run through a real Server.

import type { ClientCapabilities, JsonObject } from "../../src/client/types.ts";
import type { Params } from "../../src/jsonrpc/peer.ts";
import type { HostIdentity, HostSession, ServerRequestContext } from "../../src/server/server-handlers.ts";

export interface Told {
  method: string;
  params: Params | undefined;
}

export interface TestSession extends HostSession {
  told: Told[];
  end(): void;
}

let sessions = 0;
let requests = 0;

export function hostIdentity(era: "legacy" | "modern", capabilities: ClientCapabilities = {}): HostIdentity {
  return {
    era,
    protocolVersion: era === "legacy" ? "2025-11-25" : "2026-07-28",
    capabilities,
    clientInfo: { name: "test-host", version: "1.0.0" },
    logLevel: "debug",
  };
}

export function testSession(host: HostIdentity): TestSession {
  const controller = new AbortController();
  const told: Told[] = [];
  return {
    id: `s${++sessions}`,
    host: host.era === "legacy" ? host : undefined,
    signal: controller.signal,
    told,
    notify: (method, params) => (told.push({ method, params }), Promise.resolve()),
    end: () => controller.abort(),
  };
}

export interface TestContext extends ServerRequestContext {
  progressed: { progress: number; total?: number; message?: string }[];
  notified: Told[];
  asked: Told[];
  /** The bridge's requests to the host that it cancelled (with answer "wait"). */
  cancelled: string[];
}

/** A request context; `answer` answers what the bridge asks the host (sampling, elicitation, roots). */
export function hostContext(
  session: HostSession,
  host: HostIdentity,
  method: string,
  options: {
    /** Answers the bridge's requests to the host; "wait": never answers, and records the request's cancellation in `cancelled`. */
    answer?: ((method: string, params: Params | undefined) => Params) | "wait";
    signal?: AbortSignal;
    meta?: JsonObject;
  } = {},
): TestContext {
  const progressed: TestContext["progressed"] = [];
  const notified: Told[] = [];
  const asked: Told[] = [];
  const cancelled: string[] = [];
  return {
    cancelled,
    requestId: ++requests,
    method,
    host,
    session,
    signal: options.signal ?? new AbortController().signal,
    meta: options.meta,
    progressed,
    notified,
    asked,
    progress: (progress, total, message) => (progressed.push({ progress, total, message }), Promise.resolve()),
    notify: (notifyMethod, params) => (notified.push({ method: notifyMethod, params }), Promise.resolve()),
    request(askMethod, params, requestOptions) {
      asked.push({ method: askMethod, params });
      if (options.answer === "wait") {
        return new Promise((_resolve, reject) =>
          requestOptions?.signal?.addEventListener("abort", () => {
            cancelled.push(askMethod);
            reject(new Error(`${askMethod} cancelled`));
          })
        );
      }
      if (host.era === "modern") return Promise.reject(new Error("wrong-era: a 2026-07-28 host is not sent requests"));
      if (options.answer === undefined) return Promise.reject(new Error(`the test host does not answer ${askMethod}`));
      return Promise.resolve(options.answer(askMethod, params));
    },
  };
}
