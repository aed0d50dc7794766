// The legacy HTTP+SSE probes of `mcpwire check` — spec 2024-11-05 basic/transports ("HTTP with
// SSE"): a GET opens the event stream, whose `endpoint` event names where to POST; the answers
// come back as `message` events on the stream. Raw requests (http-exchange.ts): a ping POSTed,
// its answer awaited on the stream, a foreign Origin. Never a tool call; the stream is closed at the end.

import { isObject } from "../common/json.ts";
import { type Exchange, HttpWire, parseJson, type ProbeOptions, type SseReader } from "./http-exchange.ts";
import { type Judge, type Rule, rule } from "./rule.ts";
import { Tally } from "./tally.ts";
import type { HttpTarget } from "./target.ts";

const LEGACY = { source: "2024-11-05", page: "basic/transports", section: "HTTP with SSE" } as const;
const FOREIGN_ORIGIN = "http://evil.example";
/** Events read while waiting for one (the endpoint, an answer) before giving up. */
const MAX_EVENTS_WAITED = 100;

/** The rules of the legacy HTTP+SSE transport the probe judges, by name. */
export const LegacySseRules = {
  stream: rule(
    "transport/sse-stream",
    "MUST",
    "A GET to the SSE endpoint opens an event stream (200, text/event-stream)",
    LEGACY,
    "Answer GET on the SSE endpoint with 200 and Content-Type: text/event-stream, and keep the stream open for the session.",
  ),
  endpointEvent: rule(
    "transport/sse-endpoint-event",
    "MUST",
    "The stream sends an `endpoint` event whose data is a URI to POST messages to",
    LEGACY,
    "Send `event: endpoint` with the message endpoint's URI (absolute, or relative to the SSE URL) as its data as soon as the stream opens.",
  ),
  endpointFirst: rule(
    "transport/sse-endpoint-first",
    "SHOULD",
    "The `endpoint` event is the stream's first event",
    { source: "2025-11-25", page: "basic/transports", section: "Backwards Compatibility" },
    "Send the `endpoint` event before any other event: a client falling back to HTTP+SSE expects it first.",
  ),
  postAccepted: rule(
    "transport/sse-post-accepted",
    "MUST",
    "A message POSTed to the endpoint is accepted with a 2xx status",
    LEGACY,
    "Accept a JSON-RPC message POSTed to the endpoint the stream named with a success status (202 Accepted, as the SDKs do); its answer goes on the stream.",
  ),
  messageEvent: rule(
    "transport/sse-message-event",
    "SHOULD",
    "The answer to a request POSTed comes on the stream as a `message` event holding the JSON-RPC message as JSON",
    LEGACY,
    "Write each server message as `event: message` with the JSON text of the message as its data, on the stream of the client that sent the request.",
  ),
  originValidated: rule(
    "transport/sse-origin-validated",
    "MUST",
    "A GET with a foreign Origin header is refused (DNS rebinding)",
    { source: "2024-11-05", page: "basic/transports", section: "Security Warning" },
    "Check the Origin header of every connection against the origins you serve and refuse any other with 403 before opening a stream.",
  ),
} as const satisfies Record<string, Rule>;

const R = LegacySseRules;

/**
 * Probes a legacy HTTP+SSE server: opens the stream, reads the endpoint, POSTs a ping there and
 * waits for its answer on the stream, then checks that a foreign Origin is refused (loopback
 * servers only). Every wait is bounded by `options.timeoutMs`; the streams are closed at the end.
 * When `options.signal` aborts, it rejects with the signal's reason.
 */
export async function probeLegacySse(target: HttpTarget, judge: Judge, options: ProbeOptions = {}): Promise<void> {
  const wire = new HttpWire(target, options);
  const tally = new Tally(judge);
  const v: Verdicts = {
    pass: (each) => tally.held(each),
    fail: (each, detail, exchange, excerpt) =>
      tally.fail(each, detail, { http: exchange.http, excerpt: excerpt ?? exchange.failure ?? wire.excerpt(exchange) }),
    skip: (each, reason) => tally.cannot(each, reason),
  };
  const opened = await wire.openStream();
  const stream = opened.stream;
  try {
    await session(wire, opened.exchange, stream, v);
  } finally {
    await stream?.close();
  }
  await origin(wire, v);
  tally.finish(Object.values(LegacySseRules));
}

/** A verdict where it was reached; a break is seen in an exchange (an excerpt of its body, or `excerpt`). */
interface Verdicts {
  pass(each: Rule): void;
  fail(each: Rule, detail: string, exchange: Exchange, excerpt?: string): void;
  skip(each: Rule, reason: string): void;
}

/** The stream, its endpoint, a ping POSTed there and its answer on the stream. */
async function session(wire: HttpWire, exchange: Exchange, stream: SseReader | undefined, v: Verdicts): Promise<void> {
  const after = [R.endpointEvent, R.endpointFirst, R.postAccepted, R.messageEvent];
  if (exchange.status === undefined) {
    v.skip(R.stream, `GET got no answer: ${exchange.failure ?? ""}`);
    for (const each of after) v.skip(each, "no stream: the GET got no answer");
    return;
  }
  if (stream === undefined) {
    const type = exchange.mediaType === "" ? "no Content-Type" : wire.redact(exchange.mediaType, 80);
    v.fail(R.stream, `GET was answered ${exchange.status} with ${type}, not an event stream`, exchange);
    for (const each of after) v.skip(each, "no stream: the GET did not open one");
    return;
  }
  v.pass(R.stream);

  // spec 2024-11-05 basic/transports "HTTP with SSE": the server MUST send an endpoint event.
  let endpoint: string | undefined;
  let first: string | undefined;
  const endpointBy = stream.deadline();
  for (let count = 0; count < MAX_EVENTS_WAITED && endpoint === undefined; count++) {
    const event = await stream.next(endpointBy);
    if (event === undefined) break;
    first ??= event.type;
    if (event.type === "endpoint") endpoint = event.data.trim();
  }
  if (endpoint === undefined) {
    v.fail(
      R.endpointEvent,
      first === undefined ? "the stream sent no event (within the timeout, or before it ended)" : "the stream sent no `endpoint` event",
      exchange,
    );
    for (const each of [R.endpointFirst, R.postAccepted, R.messageEvent]) v.skip(each, "no endpoint event to follow");
    return;
  }
  if (first === "endpoint") v.pass(R.endpointFirst);
  else v.fail(R.endpointFirst, `the stream's first event is \`${wire.redact(first ?? "", 40)}\`, not \`endpoint\``, exchange);
  const target = endpoint === "" ? undefined : uriOf(endpoint, wire.url);
  if (target === undefined) {
    v.fail(R.endpointEvent, "the `endpoint` event's data is not a URI", exchange, wire.redact(endpoint, 120));
    for (const each of [R.postAccepted, R.messageEvent]) v.skip(each, "the endpoint event names no URI to POST to");
    return;
  }
  v.pass(R.endpointEvent);
  if (target.origin !== wire.url.origin) {
    const why = `the endpoint is on another origin (${wire.redact(target.origin, 80)}): the check sends nothing there, the target's headers would go with it`;
    for (const each of [R.postAccepted, R.messageEvent]) v.skip(each, why);
    return;
  }

  const id = "mcpwire-check-sse-ping";
  const posted = await wire.request("POST", {
    url: target,
    body: { jsonrpc: "2.0", id, method: "ping" },
    headers: { Accept: "application/json, text/event-stream" },
  });
  if (posted.status === undefined) {
    v.skip(R.postAccepted, `the POST got no answer: ${posted.failure ?? ""}`);
    v.skip(R.messageEvent, "the ping POSTed got no answer");
    return;
  }
  if (posted.status < 200 || posted.status > 299) {
    v.fail(R.postAccepted, `ping POSTed to the endpoint was answered ${posted.status}`, posted);
    v.skip(R.messageEvent, "the ping POSTed was refused");
    return;
  }
  v.pass(R.postAccepted);

  const answerBy = stream.deadline();
  for (let count = 0; count < MAX_EVENTS_WAITED; count++) {
    const event = await stream.next(answerBy);
    if (event === undefined) break;
    const message = parseJson(event.data);
    if (event.type === "message" && message === undefined) {
      return v.fail(R.messageEvent, "a `message` event's data is not JSON", exchange, wire.redact(event.data, 120));
    }
    if (!isObject(message) || message["id"] !== id || !("result" in message || "error" in message)) continue;
    if (event.type === "message") return v.pass(R.messageEvent);
    return v.fail(
      R.messageEvent,
      `the answer to the ping came as a \`${wire.redact(event.type, 40)}\` event, not \`message\``,
      exchange,
      wire.redact(event.data, 120),
    );
  }
  const inBody = isObject(posted.json) && posted.json["id"] === id;
  v.fail(
    R.messageEvent,
    inBody
      ? "the answer to the ping came in the POST's body, not on the stream"
      : "no answer to the ping came on the stream (within the timeout, or before it ended)",
    inBody ? posted : exchange,
  );
}

/** spec 2024-11-05 basic/transports "Security Warning": a foreign Origin refused, the server's own not. */
async function origin(wire: HttpWire, v: Verdicts): Promise<void> {
  if (!wire.loopback) {
    return v.skip(
      R.originValidated,
      "the server is not on a loopback address: DNS rebinding aims at local servers, and a remote server's Origin allow-list is its own (judged only on 127.0.0.1, ::1 and localhost)",
    );
  }
  // The control first: the server's own Origin must get a stream, or a refusal tells nothing.
  const own = await wire.openStream({ Origin: wire.origin });
  await own.stream?.close();
  if (own.exchange.status === undefined) return v.skip(R.originValidated, `the GET with the server's own Origin got no answer: ${own.exchange.failure ?? ""}`);
  if (own.stream === undefined) {
    return v.skip(
      R.originValidated,
      `a GET with the server's own Origin was answered ${own.exchange.status}: a refusal of a foreign one could not be told from that`,
    );
  }
  const foreign = await wire.openStream({ Origin: FOREIGN_ORIGIN });
  await foreign.stream?.close();
  const status = foreign.exchange.status;
  if (status === undefined) return v.skip(R.originValidated, `the GET with a foreign Origin got no answer: ${foreign.exchange.failure ?? ""}`);
  // The 2024-11-05 text names no status for the refusal (2025-11-25 names 403): any error status holds.
  if (status < 400) {
    const opened = foreign.stream !== undefined ? "opened an event stream" : `was answered ${status}`;
    return v.fail(R.originValidated, `a GET with Origin ${FOREIGN_ORIGIN} ${opened}: the Origin is not validated`, foreign.exchange);
  }
  v.pass(R.originValidated);
}

/** `text` as a URI reference resolved against `base`; undefined when it is none. */
function uriOf(text: string, base: URL): URL | undefined {
  try {
    return new URL(text, base);
  } catch {
    return undefined;
  }
}
