// The Streamable HTTP probes of `mcpwire check` — spec 2025-11-25 basic/transports ("Streamable
// HTTP") and 2026-07-28 basic/transports/streamable-http. Raw requests (http-exchange.ts) that a
// client transport never sends: a notification and a response POSTed, a foreign Origin, an
// unsupported MCP-Protocol-Version, a session id that was never issued or has ended, headers that
// disagree with the body. The handshake era's probes start a session of their own (initialize at
// the given version) and DELETE it at the end; the 2026-07-28 ones are stateless. Never a tool call.

import { isObject } from "../common/json.ts";
import { answerTo, errorCode, type Exchange, HttpWire, parseJson, type ProbeOptions } from "./http-exchange.ts";
import { type Judge, type Rule, rule, type Seen } from "./rule.ts";
import { checkInitializeParams, checkRequestMeta } from "./session.ts";
import { Tally } from "./tally.ts";
import type { HttpTarget } from "./target.ts";

const HANDSHAKE = "2025-11-25" as const;
const MODERN = "2026-07-28" as const;
const TRANSPORTS = "basic/transports";
const STREAMABLE = "basic/transports/streamable-http";

/** The rules of the Streamable HTTP transport the probes judge, by name. */
export const StreamableHttpRules = {
  requestAnswer: rule(
    "transport/request-answer-type",
    "MUST",
    "A request POSTed is answered with application/json (one JSON object) or text/event-stream",
    { source: HANDSHAKE, page: TRANSPORTS, section: "Sending Messages to the Server" },
    'Answer each POSTed request with Content-Type: application/json holding the one JSON-RPC response, or text/event-stream carrying it (2026-07-28 streamable-http "Sending Messages" says the same).',
  ),
  acceptedWithoutBody: rule(
    "transport/accepted-without-body",
    "MUST",
    "A notification or response POSTed is answered 202 Accepted with no body (or an HTTP error status)",
    { source: HANDSHAKE, page: TRANSPORTS, section: "Sending Messages to the Server" },
    'Answer a POSTed notification or response with 202 and an empty body when you accept it, or an HTTP error status (400) when you cannot (2026-07-28 streamable-http "Sending Messages" keeps this for notifications).',
  ),
  originValidated: rule(
    "transport/origin-validated",
    "MUST",
    "A request with a foreign Origin header is refused with 403 Forbidden (DNS rebinding)",
    { source: HANDSHAKE, page: TRANSPORTS, section: "Security Warning" },
    'Check the Origin header of every request against the origins you serve (your own, localhost) and answer 403 to any other; 2026-07-28 streamable-http "Security & Endpoint" keeps this MUST.',
  ),
  sessionIdVisibleAscii: rule(
    "transport/session-id-visible-ascii",
    "MUST",
    "An Mcp-Session-Id holds only visible ASCII characters (0x21 to 0x7E)",
    { source: HANDSHAKE, page: TRANSPORTS, section: "Session Management" },
    "Make session ids from visible ASCII only (a UUID, a JWT, a hex or base64url hash): no space, control or non-ASCII character.",
  ),
  missingSession400: rule(
    "transport/missing-session-400",
    "SHOULD",
    "A request without the Mcp-Session-Id the server issued is answered 400 Bad Request",
    { source: HANDSHAKE, page: TRANSPORTS, section: "Session Management" },
    "When you require a session, answer a request (other than initialize) that carries no Mcp-Session-Id header with 400.",
  ),
  unknownSession404: rule(
    "transport/unknown-session-404",
    "SHOULD",
    "A request with an Mcp-Session-Id the server never issued is answered 404 Not Found",
    { source: HANDSHAKE, page: TRANSPORTS, section: "Session Management" },
    "Answer a request whose Mcp-Session-Id you do not know with 404: that is what tells a client to start a new session with initialize.",
  ),
  endedSession404: rule(
    "transport/ended-session-404",
    "MUST",
    "A request with the id of a session that has ended is answered 404 Not Found",
    { source: HANDSHAKE, page: TRANSPORTS, section: "Session Management" },
    "Once a session is terminated (a DELETE, an expiry), answer every request carrying its id with 404, never with a result.",
  ),
  deleteSession: rule(
    "transport/delete-session",
    "SHOULD",
    "A DELETE of the session is answered with success, or 405 when the server does not let clients end sessions",
    { source: HANDSHAKE, page: TRANSPORTS, section: "Session Management" },
    "Answer DELETE with the Mcp-Session-Id header by ending that session (200 or 204), or with 405 Method Not Allowed.",
  ),
  getStreamOr405: rule(
    "transport/get-stream-or-405",
    "MUST",
    "A GET to the MCP endpoint is answered with text/event-stream, or 405 when the server offers no stream",
    { source: HANDSHAKE, page: TRANSPORTS, section: "Listening for Messages from the Server" },
    "Answer GET (Accept: text/event-stream) with an SSE stream, or with 405 Method Not Allowed if you send nothing unasked.",
  ),
  unsupportedVersion400: rule(
    "transport/unsupported-version-400",
    "MUST",
    "A request with an unsupported MCP-Protocol-Version header is answered 400 Bad Request",
    { source: HANDSHAKE, page: TRANSPORTS, section: "Protocol Version Header" },
    "Read the MCP-Protocol-Version header of each request after initialize and answer 400 when it names a version you do not support.",
  ),
  modernUnsupportedVersion: rule(
    "transport/modern-unsupported-version",
    "MUST",
    "A request at a version the server does not implement is answered 400 with an UnsupportedProtocolVersionError (-32022)",
    { source: MODERN, page: STREAMABLE, section: "Protocol Version Header" },
    "Answer a request whose MCP-Protocol-Version (and _meta protocolVersion) you do not implement with 400 and error -32022 listing data.supported.",
  ),
  modernUnknownMethod: rule(
    "transport/modern-unknown-method-404",
    "MUST",
    "A request for a method the server does not implement is answered 404 Not Found with error -32601",
    { source: MODERN, page: STREAMABLE, section: "Protocol Version Header" },
    "Answer an unknown method with HTTP 404 and a JSON-RPC error -32601: the body tells a modern client this is not a legacy server's 404.",
  ),
  headerMismatch: rule(
    "transport/header-mismatch-refused",
    "MUST",
    "A request whose Mcp-Method, Mcp-Name or MCP-Protocol-Version header is missing or disagrees with its body is refused: 400 with error -32020",
    { source: MODERN, page: STREAMABLE, section: "Server Validation" },
    "Compare the MCP-Protocol-Version, Mcp-Method and Mcp-Name headers with the body's _meta protocolVersion, method and params.name/uri; answer 400 with a HeaderMismatch error (-32020) when one is missing or differs.",
  ),
  missingMeta: rule(
    "transport/missing-meta-400",
    "MUST",
    "A request missing a required _meta field is answered 400 Bad Request with error -32602",
    { source: MODERN, page: "basic/index", section: "_meta" },
    "Refuse a request whose _meta lacks io.modelcontextprotocol/protocolVersion or clientCapabilities with JSON-RPC error -32602, and HTTP status 400.",
  ),
  modernGetDelete405: rule(
    "transport/modern-get-delete-405",
    "SHOULD",
    "A server of 2026-07-28 only answers an older client's GET or DELETE with 405 Method Not Allowed",
    { source: MODERN, page: STREAMABLE, section: "Earlier Streamable HTTP Revisions" },
    "The 2026-07-28 transport has no GET stream and no session to delete: a server that speaks only that revision answers GET and DELETE with 405.",
  ),
  modernNoSessionId: rule(
    "transport/modern-no-session-id",
    "SHOULD",
    "A server of 2026-07-28 only ignores an Mcp-Session-Id on a request, and mints or echoes none",
    { source: MODERN, page: STREAMABLE, section: "Earlier Streamable HTTP Revisions" },
    "Sessions are not part of 2026-07-28: a server that speaks only that revision answers a request carrying Mcp-Session-Id as if it had none, and sends no Mcp-Session-Id header.",
  ),
  errorIdKept: rule(
    "transport/error-id-kept",
    "MUST",
    "An error refusing a request carries that request's id (or none, when the id could not be read)",
    { source: "json-rpc-2.0", page: "5", section: "Response object" },
    "Put the id of the request you refuse in the error response; use null (or, as MCP's schema allows, no id) only when you could not read the request.",
  ),
} as const satisfies Record<string, Rule>;

const R = StreamableHttpRules;
const ACCEPT_BOTH = "application/json, text/event-stream";
const FOREIGN_ORIGIN = "http://evil.example";

/** What the probes of one era were told by the runner. */
export interface StreamableHttpContext {
  /** The version to speak: initialize's at the handshake era, the _meta and header version at 2026-07-28. */
  protocolVersion: string;
  era: "modern" | "legacy";
  /**
   * At "modern": the server also speaks a handshake-era version (it answered initialize). What
   * 2026-07-28 says of older traffic is then its handshake era's business. When not given, the
   * versions server/discover lists say it.
   */
  offersLegacy?: boolean;
}

/**
 * Probes a Streamable HTTP server with raw requests and judges the transport's rules for one era:
 * at "legacy" it starts (and at the end DELETEs) a session of its own, at "modern" every request is
 * stateless. Never calls a tool; every request is bounded by `options.timeoutMs`. A rule the
 * probes could not evaluate is skipped, saying why; when `options.signal` aborts, it rejects with
 * the signal's reason.
 */
export async function probeStreamableHttp(target: HttpTarget, context: StreamableHttpContext, judge: Judge, options: ProbeOptions = {}): Promise<void> {
  const probe = new Probe(new HttpWire(target, options), judge);
  if (context.era === "legacy") await probe.handshakeEra(context.protocolVersion);
  else await probe.modernEra(context.protocolVersion, context.offersLegacy);
}

type Sent = { exchange: Exchange; answer?: Record<string, unknown>; id: string };
/** Headers to set on a request (undefined: leave that one out). */
type HeaderSet = Record<string, string | undefined>;

/**
 * The rules each era's probes judge: at "legacy" the handshake era's, at "modern" 2026-07-28's
 * (a rule of the other era is not touched: the runner probes each era the server offers).
 */
export const StreamableHttpRulesByEra = {
  legacy: [
    R.requestAnswer,
    R.acceptedWithoutBody,
    R.originValidated,
    R.sessionIdVisibleAscii,
    R.missingSession400,
    R.unknownSession404,
    R.endedSession404,
    R.deleteSession,
    R.getStreamOr405,
    R.unsupportedVersion400,
    R.errorIdKept,
  ],
  modern: [
    R.requestAnswer,
    R.acceptedWithoutBody,
    R.originValidated,
    R.modernNoSessionId,
    R.modernUnsupportedVersion,
    R.modernUnknownMethod,
    R.missingMeta,
    R.headerMismatch,
    R.modernGetDelete405,
    R.errorIdKept,
  ],
} as const satisfies Record<"legacy" | "modern", readonly Rule[]>;
const HANDSHAKE_RULES = StreamableHttpRulesByEra.legacy;
const MODERN_RULES = StreamableHttpRulesByEra.modern;

class Probe {
  readonly tally: Tally;
  #nextId = 1;

  constructor(readonly wire: HttpWire, judge: Judge) {
    this.tally = new Tally(judge);
  }

  id(): string {
    return `mcpwire-check-${this.#nextId++}`;
  }

  /** A request POSTed: its exchange and the answer to it (when one came). */
  async post(message: Record<string, unknown>, headers: HeaderSet): Promise<Sent> {
    const id = String(message["id"]);
    const exchange = await this.wire.request("POST", { body: message, headers: { Accept: ACCEPT_BOTH, ...headers }, answerId: id });
    return { exchange, answer: answerTo(exchange, id), id };
  }

  /** A notification or response POSTed (no answer expected). */
  send(message: Record<string, unknown>, headers: HeaderSet): Promise<Exchange> {
    return this.wire.request("POST", { body: message, headers: { Accept: ACCEPT_BOTH, ...headers } });
  }

  seen(exchange: Exchange): Seen {
    const excerpt = exchange.failure ?? this.wire.excerpt(exchange);
    return excerpt === "" ? { http: exchange.http } : { http: exchange.http, excerpt };
  }

  noAnswer(each: Rule, what: string, exchange: Exchange): void {
    this.tally.cannot(each, `${what} got no answer: ${exchange.failure ?? "no status"}`);
  }

  /** transport/request-answer-type, on the answer to a request that was not refused. */
  judgeRequestAnswer(sent: Sent, what: string): void {
    const { exchange } = sent;
    if (exchange.status === undefined) return this.noAnswer(R.requestAnswer, what, exchange);
    if (exchange.status < 200 || exchange.status > 299) return this.tally.cannot(R.requestAnswer, `${what} was refused (${exchange.status})`);
    if (exchange.mediaType === "text/event-stream") return this.tally.held(R.requestAnswer);
    if (exchange.mediaType === "application/json") {
      if (isObject(exchange.json)) return this.tally.held(R.requestAnswer);
      const why = exchange.cut ? "a body too long to read whole" : "a body that is not one JSON object";
      return this.tally.fail(R.requestAnswer, `${what} was answered ${exchange.status} application/json with ${why}`, this.seen(exchange));
    }
    const type = exchange.mediaType === "" ? "no Content-Type" : `Content-Type ${this.wire.redact(exchange.mediaType, 80)}`;
    this.tally.fail(R.requestAnswer, `${what} was answered ${exchange.status} with ${type}`, this.seen(exchange));
  }

  /** transport/accepted-without-body, on the answer to a notification or a response POSTed. */
  judgeAccepted(exchange: Exchange, what: string): void {
    const each = R.acceptedWithoutBody;
    if (exchange.status === undefined) return this.noAnswer(each, what, exchange);
    if (exchange.status >= 400) return this.tally.held(each); // "cannot accept": an HTTP error status
    if (exchange.status !== 202) {
      return this.tally.fail(each, `${what} was answered ${exchange.status}, not 202 Accepted (nor an error status)`, this.seen(exchange));
    }
    if (exchange.body !== "" || exchange.events.length > 0) {
      return this.tally.fail(each, `${what} was answered 202 with a body; a 202 carries none`, this.seen(exchange));
    }
    this.tally.held(each);
  }

  /** transport/error-id-kept, on an error body answering request `id` (when the body is one). */
  judgeErrorId(sent: Sent): void {
    const { exchange, id } = sent;
    const body = isObject(exchange.json)
      ? exchange.json
      : exchange.events.map((event) => parseJson(event.data)).find((message) => isObject(message) && "error" in message);
    if (!isObject(body) || !("error" in body)) return;
    const answered = body["id"];
    // The 2026-07-28 schema makes an error's id optional; JSON-RPC 2.0 section 5 allows null when the id could not be read.
    if (answered === undefined || answered === null || answered === id) return this.tally.held(R.errorIdKept);
    const shown = typeof answered === "string"
      ? `"${this.wire.redact(answered, 60)}"`
      : typeof answered === "number"
      ? String(answered)
      : `of type ${typeof answered}`;
    this.tally.fail(R.errorIdKept, `the error refusing request "${id}" carries id ${shown}`, this.seen(exchange));
  }

  /** `each` holds when the status is `wanted`; a 2xx is not judged when `twoXxMeans` says why. */
  judgeStatus(each: Rule, exchange: Exchange, wanted: number, what: string, twoXxMeans?: string): void {
    const status = exchange.status;
    if (status === undefined) return this.noAnswer(each, what, exchange);
    if (status === wanted) return this.tally.held(each);
    if (twoXxMeans !== undefined && status >= 200 && status <= 299) return this.tally.cannot(each, `${what} was answered ${status}: ${twoXxMeans}`);
    this.tally.fail(each, `${what} was answered ${status}, not ${wanted}`, this.seen(exchange));
  }

  /** transport/origin-validated: a foreign Origin refused with 403 while the server's own is not (the control). */
  async judgeOrigin(send: (origin: string) => Promise<Exchange>): Promise<void> {
    const each = R.originValidated;
    if (!this.wire.loopback) {
      return this.tally.cannot(
        each,
        "the server is not on a loopback address: DNS rebinding aims at local servers, and a remote server's Origin allow-list is its own (judged only on 127.0.0.1, ::1 and localhost)",
      );
    }
    // The control first: a request with the server's own Origin must get through, or a refusal tells nothing.
    const own = await send(this.wire.origin);
    if (own.status === undefined) return this.noAnswer(each, "a request with the server's own Origin", own);
    if (own.status < 200 || own.status > 299) {
      return this.tally.cannot(
        each,
        `a request with the server's own Origin was answered ${own.status}: a refusal of a foreign one could not be told from that`,
      );
    }
    const foreign = await send(FOREIGN_ORIGIN);
    if (foreign.status === undefined) return this.noAnswer(each, `a request with Origin ${FOREIGN_ORIGIN}`, foreign);
    if (foreign.status !== 403) {
      const why = foreign.status >= 200 && foreign.status <= 299 ? "the Origin is not validated" : "an invalid Origin is answered 403";
      return this.tally.fail(each, `a request with Origin ${FOREIGN_ORIGIN} was answered ${foreign.status}, not 403 Forbidden: ${why}`, this.seen(foreign));
    }
    this.tally.held(each);
  }

  // -------------------------------------------------------------------------------------------
  // The handshake era (2025-03-26 to 2025-11-25): a session of our own, ended at the end.

  async handshakeEra(protocolVersion: string): Promise<void> {
    const init = await this.post({
      jsonrpc: "2.0",
      id: this.id(),
      method: "initialize",
      params: checkInitializeParams(protocolVersion),
    }, {});
    this.judgeRequestAnswer(init, "initialize");
    const result = isObject(init.answer?.["result"]) ? init.answer["result"] : undefined;
    if (result === undefined) {
      const why = init.exchange.failure ?? `initialize was answered ${init.exchange.status} without a result`;
      for (const each of HANDSHAKE_RULES) this.tally.cannot(each, `no session to probe: ${why}`);
      return this.tally.finish(HANDSHAKE_RULES);
    }
    // The header carries the version initialize answered, when it looks like one (a server's string is untrusted).
    const answered = result["protocolVersion"];
    const negotiated = typeof answered === "string" && /^\d{4}-\d{2}-\d{2}$/.test(answered) ? answered : protocolVersion;
    const session = init.exchange.headers.get("mcp-session-id") ?? undefined;
    if (session !== undefined) this.wire.addSecret(session); // spec 2025-11-25 "Session Management": handled securely
    const base: HeaderSet = { "MCP-Protocol-Version": negotiated, "Mcp-Session-Id": session };
    const ping = (headers: HeaderSet = {}) => this.post({ jsonrpc: "2.0", id: this.id(), method: "ping" }, { ...base, ...headers });
    let ended = session === undefined;
    try {
      this.judgeSessionId(session, init.exchange);
      // spec 2025-11-25 basic/transports "Sending Messages to the Server" 4: a notification, then a response.
      this.judgeAccepted(await this.send({ jsonrpc: "2.0", method: "notifications/initialized" }, base), "notifications/initialized");
      this.judgeAccepted(await this.send({ jsonrpc: "2.0", id: "mcpwire-check-unasked", result: {} }, base), "a JSON-RPC response POSTed");
      this.judgeRequestAnswer(await ping(), "ping");
      await this.judgeOrigin(async (origin) => (await ping({ Origin: origin })).exchange);
      await this.judgeVersionHeader(negotiated, ping);
      await this.judgeGet(base);
      if (session === undefined) {
        const why = "the server issued no Mcp-Session-Id (sessions are optional: MAY)";
        for (const each of [R.missingSession400, R.unknownSession404, R.endedSession404, R.deleteSession]) this.tally.cannot(each, why);
      } else {
        const without = await ping({ "Mcp-Session-Id": undefined });
        this.judgeStatus(R.missingSession400, without.exchange, 400, "ping without the Mcp-Session-Id header", "the server does not require its session id");
        this.judgeErrorId(without);
        const unknown = await ping({ "Mcp-Session-Id": `mcpwire-check-unknown-${crypto.randomUUID()}` });
        this.judgeStatus(R.unknownSession404, unknown.exchange, 404, "ping with an Mcp-Session-Id the server never issued");
        ended = true; // endSession sends the DELETE
        await this.endSession(base, ping);
      }
      this.tally.cannot(R.errorIdKept, "no refusal carried a JSON-RPC error to compare ids with");
    } finally {
      // The session is ours: end it whatever happened above.
      if (!ended) await this.wire.request("DELETE", { headers: base });
    }
    this.tally.finish(HANDSHAKE_RULES);
  }

  judgeSessionId(session: string | undefined, init: Exchange): void {
    const each = R.sessionIdVisibleAscii;
    if (session === undefined) return this.tally.cannot(each, "the server issued no Mcp-Session-Id (sessions are optional: MAY)");
    const seen = { http: init.http, excerpt: "Mcp-Session-Id: [not shown]" };
    if (session === "") return this.tally.fail(each, "the Mcp-Session-Id header initialize answered with is empty", seen);
    for (let index = 0; index < session.length; index++) {
      const code = session.charCodeAt(index);
      if (code >= 0x21 && code <= 0x7e) continue;
      const what = code === 0x20 ? "a space" : code < 0x20 || code === 0x7f ? "a control character" : "a character outside ASCII";
      const hex = `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
      return this.tally.fail(
        each,
        `the Mcp-Session-Id initialize answered with holds ${what} (${hex}) at character ${index + 1} of ${session.length} (the id is not shown)`,
        seen,
      );
    }
    this.tally.held(each);
  }

  /** transport/unsupported-version-400: the header exists from 2025-06-18 (2025-11-25 basic/transports "Protocol Version Header"). */
  async judgeVersionHeader(negotiated: string, ping: (headers?: HeaderSet) => Promise<Sent>): Promise<void> {
    const each = R.unsupportedVersion400;
    if (negotiated < "2025-06-18") {
      return this.tally.cannot(each, `the session speaks ${this.wire.redact(negotiated, 40)}, older than the MCP-Protocol-Version header (2025-06-18)`);
    }
    const wrong = await ping({ "MCP-Protocol-Version": "1999-01-01" });
    this.judgeStatus(each, wrong.exchange, 400, "ping with MCP-Protocol-Version: 1999-01-01");
    this.judgeErrorId(wrong);
  }

  async judgeGet(base: HeaderSet): Promise<void> {
    const each = R.getStreamOr405;
    const get = await this.wire.request("GET", { headers: { ...base, Accept: "text/event-stream" }, stream: "head" });
    if (get.status === undefined) return this.noAnswer(each, "GET", get);
    if (get.status === 405 || (get.status === 200 && get.mediaType === "text/event-stream")) return this.tally.held(each);
    const type = get.mediaType === "" ? "no Content-Type" : this.wire.redact(get.mediaType, 80);
    this.tally.fail(each, `GET with the session's id was answered ${get.status} with ${type}, neither an event stream nor 405`, this.seen(get));
  }

  /** DELETE of our session, then (when it ended) a request with its id. */
  async endSession(base: HeaderSet, ping: (headers?: HeaderSet) => Promise<Sent>): Promise<void> {
    const deleted = await this.wire.request("DELETE", { headers: base });
    const status = deleted.status;
    const ended = status !== undefined && status >= 200 && status <= 299;
    if (status === undefined) this.noAnswer(R.deleteSession, "DELETE", deleted);
    else if (ended || status === 405) this.tally.held(R.deleteSession);
    else this.tally.fail(R.deleteSession, `DELETE with the session's id was answered ${status}, neither a success nor 405`, this.seen(deleted));
    if (!ended) {
      return this.tally.cannot(R.endedSession404, "the session was not ended by DELETE, so there is no ended session id to send");
    }
    const after = await ping();
    this.judgeStatus(R.endedSession404, after.exchange, 404, "ping with the id of the session DELETE ended");
  }

  // -------------------------------------------------------------------------------------------
  // 2026-07-28: every request stands alone, its version in _meta and in the headers.

  /** A modern request: the body and the headers that mirror it, each part replaceable. */
  modern(
    protocolVersion: string,
    method: string,
    change: { params?: Record<string, unknown>; headers?: HeaderSet; metaVersion?: string; without?: string } = {},
  ): Promise<Sent> {
    const meta = checkRequestMeta(change.metaVersion ?? protocolVersion);
    if (change.without !== undefined) delete meta[change.without];
    const headers = { "MCP-Protocol-Version": protocolVersion, "Mcp-Method": method, ...change.headers };
    return this.post({ jsonrpc: "2.0", id: this.id(), method, params: { ...change.params, _meta: meta } }, headers);
  }

  /** A refusal wanted: `status` with error `code`. A -32601 is not judged when `lacking` says why. */
  judgeRefusal(each: Rule, sent: Sent, status: number, code: number, what: string, lacking?: string): void {
    const { exchange, answer } = sent;
    if (exchange.status === undefined) return this.noAnswer(each, what, exchange);
    this.judgeErrorId(sent);
    const got = errorCode(answer ?? exchange.json);
    if (lacking !== undefined && got === -32601) return this.tally.cannot(each, lacking);
    if (exchange.status === status && got === code) return this.tally.held(each);
    const shown = got === undefined ? "no JSON-RPC error" : `error ${typeof got === "number" ? got : `code of type ${typeof got}`}`;
    this.tally.fail(each, `${what} was answered ${exchange.status} with ${shown}; ${status} with error ${code} is wanted`, this.seen(exchange));
  }

  /** The versions before 2026-07-28 that server/discover lists (undefined: it listed none readable). */
  olderVersions(discover: Sent): string[] | undefined {
    const result = discover.answer?.["result"];
    const supported = isObject(result) ? result["supportedVersions"] : undefined;
    if (!Array.isArray(supported)) return undefined;
    return supported.filter((version): version is string => typeof version === "string" && version < MODERN).slice(0, 10);
  }

  /** spec 2026-07-28 streamable-http "Earlier Streamable HTTP Revisions": what a server of this revision only does with older traffic. */
  async modernOnly(protocolVersion: string, discovered: Exchange): Promise<void> {
    const noSession = "the answer carries an Mcp-Session-Id header (not shown)";
    if (discovered.headers.has("mcp-session-id")) {
      this.tally.fail(R.modernNoSessionId, `server/discover was answered with ${noSession}`, { http: discovered.http });
    }
    const stale = await this.modern(protocolVersion, "server/discover", { headers: { "Mcp-Session-Id": "mcpwire-check-stale-session" } });
    const status = stale.exchange.status;
    if (status === undefined) this.noAnswer(R.modernNoSessionId, "server/discover with an Mcp-Session-Id", stale.exchange);
    else if (status < 200 || status > 299) {
      this.tally.fail(
        R.modernNoSessionId,
        `server/discover with an Mcp-Session-Id header was answered ${status}: the header was not ignored`,
        this.seen(stale.exchange),
      );
    } else if (stale.exchange.headers.has("mcp-session-id")) {
      this.tally.fail(R.modernNoSessionId, `server/discover with an Mcp-Session-Id header was answered with ${noSession}`, { http: stale.exchange.http });
    } else this.tally.held(R.modernNoSessionId);

    // As an older client sends them: its version, no session.
    for (const method of ["GET", "DELETE"] as const) {
      const headers = method === "GET" ? { Accept: "text/event-stream", "MCP-Protocol-Version": HANDSHAKE } : { "MCP-Protocol-Version": HANDSHAKE };
      const exchange = await this.wire.request(method, { headers, stream: "head" });
      this.judgeStatus(R.modernGetDelete405, exchange, 405, `${method} as a ${HANDSHAKE} client sends it`);
    }
  }

  async modernEra(protocolVersion: string, offersLegacy: boolean | undefined): Promise<void> {
    const discover = await this.modern(protocolVersion, "server/discover");
    this.judgeRequestAnswer(discover, "server/discover");
    if (!isObject(discover.answer?.["result"])) {
      // spec 2026-07-28 basic/versioning: servers MUST implement server/discover. Without its answer
      // (credentials missing, not a 2026-07-28 server) every refusal below would be for that reason.
      const why = discover.exchange.failure ?? `server/discover was answered ${discover.exchange.status} without a result`;
      for (const each of MODERN_RULES) this.tally.cannot(each, `no 2026-07-28 answer to compare with: ${why}`);
      return this.tally.finish(MODERN_RULES);
    }
    const older = offersLegacy === true ? ["a handshake-era version (it answered initialize)"] : offersLegacy === false ? [] : this.olderVersions(discover);
    if (older === undefined) {
      for (const each of [R.modernNoSessionId, R.modernGetDelete405]) {
        this.tally.cannot(each, "server/discover gave no supportedVersions: whether the server speaks 2026-07-28 only is unknown");
      }
    } else if (older.length > 0) {
      const why = `the server also speaks ${this.wire.redact(older.join(", "), 80)}: sessions, GET and DELETE belong to its handshake era (judged there)`;
      for (const each of [R.modernNoSessionId, R.modernGetDelete405]) this.tally.cannot(each, why);
    } else await this.modernOnly(protocolVersion, discover.exchange);

    const cancelled = {
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: "mcpwire-check-none", reason: "mcpwire check: a notification probe" },
    };
    const notification = await this.send(cancelled, { "MCP-Protocol-Version": protocolVersion, "Mcp-Method": "notifications/cancelled" });
    this.judgeAccepted(notification, "a notification (notifications/cancelled) POSTed");

    await this.judgeOrigin(async (origin) => (await this.modern(protocolVersion, "server/discover", { headers: { Origin: origin } })).exchange);

    const unsupported = await this.modern("1999-01-01", "server/discover");
    this.judgeRefusal(R.modernUnsupportedVersion, unsupported, 400, -32022, "server/discover at version 1999-01-01 (header and _meta)");
    const unknown = await this.modern(protocolVersion, "mcpwire-check/no-such-method");
    this.judgeRefusal(R.modernUnknownMethod, unknown, 404, -32601, "the unknown method mcpwire-check/no-such-method");
    const noMeta = await this.modern(protocolVersion, "server/discover", { without: "io.modelcontextprotocol/clientCapabilities" });
    this.judgeRefusal(R.missingMeta, noMeta, 400, -32602, "server/discover whose _meta lacks io.modelcontextprotocol/clientCapabilities");

    // spec 2026-07-28 streamable-http "Server Validation": each way a header can fail to mirror the body.
    const mismatch = (what: string, sent: Promise<Sent>, lacking?: string) =>
      sent.then((done) => this.judgeRefusal(R.headerMismatch, done, 400, -32020, what, lacking));
    await mismatch("server/discover with Mcp-Method: tools/list", this.modern(protocolVersion, "server/discover", { headers: { "Mcp-Method": "tools/list" } }));
    await mismatch("server/discover without the Mcp-Method header", this.modern(protocolVersion, "server/discover", { headers: { "Mcp-Method": undefined } }));
    await mismatch(
      `server/discover with MCP-Protocol-Version ${protocolVersion} and _meta protocolVersion 1999-01-01`,
      this.modern(protocolVersion, "server/discover", { metaVersion: "1999-01-01" }),
    );
    await mismatch(
      "prompts/get with Mcp-Name: mcpwire-check-header and params.name mcpwire-check-body",
      this.modern(protocolVersion, "prompts/get", { params: { name: "mcpwire-check-body" }, headers: { "Mcp-Name": "mcpwire-check-header" } }),
      "the server does not serve prompts/get (-32601), where an Mcp-Name could disagree",
    );

    this.tally.cannot(R.errorIdKept, "no refusal carried a JSON-RPC error to compare ids with");
    this.tally.finish(MODERN_RULES);
  }
}
