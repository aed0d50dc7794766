// The era link of a client's chain on the 2026-07-28 stateless wire (docs/architecture.md, "The
// chain"): each request to its final result — the protocol fields in `_meta`, a version retry,
// multi round-trip input (MRTR, as the Go SDK installs it: a middleware), a lost stream
// re-issued when that is safe — spec 2026-07-28 basic/index ("Per-request protocol fields"),
// basic/versioning, basic/patterns/mrtr, basic/transports (streamable-http: a broken stream
// loses the request). The handshake era has no era link: its requests go out as they are.

import type { Middleware, Send } from "../jsonrpc/middleware.ts";
import type { Params } from "../jsonrpc/peer.ts";
import { TransportError } from "../transport/transport.ts";
import type { PassThroughOptions } from "./client-options.ts";
import { HeaderMismatchError, InputRoundsExceededError, OutcomeUnknownError, ProtocolError, typedRpcError, UnsupportedProtocolVersionError } from "./errors.ts";
import { fulfilInputRequests, INPUT_CAPABLE_METHODS, type InputRequest, readInputRequired, retryFields } from "./input-requests.ts";
import { MODERN_PROTOCOL_VERSIONS, type ModernProtocolVersion } from "./protocol-version.ts";
import { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_LOG_LEVEL, META_PROTOCOL_VERSION, type RequestMeta } from "./request-meta.ts";
import type { JsonObject } from "./types.ts";

/**
 * Requests that can be sent again after the 2026-07-28 wire lost their answer (spec
 * 2026-07-28 streamable-http: a broken stream loses the request): reads. tools/call only
 * for tools annotated idempotentHint.
 */
const SAFE_TO_REISSUE: ReadonlySet<string> = new Set([
  "server/discover",
  "tools/list",
  "prompts/list",
  "prompts/get",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "completion/complete",
  // tasks extension ("Task Polling"): a poll is a read.
  "tasks/get",
]);
const MAX_REISSUES = 2;

/**
 * What the request loop needs from the Client that runs it. A plain request reads only its
 * fields (no call back into the client); the functions serve the rarer turns.
 */
export interface ModernWire {
  /** Names the server in messages. */
  name: string;
  maxInputRounds: number;
  /**
   * The per-request protocol fields each request carries in `_meta` (its version is the one
   * requests are sent at); the client keeps it current with setRequestMeta() (a version retry,
   * a new log level), which also makes `fields`.
   */
  meta: RequestMeta;
  /** `meta` as the `_meta` keys a request carries, made once per change (setRequestMeta), not per request. */
  fields: JsonObject;
  /** Moves the connection to another version (a -32022 retry); `meta.protocolVersion` follows. */
  retryWith(version: ModernProtocolVersion): void;
  /** Lists the tools again (their x-mcp-header annotations), after a -32020 to tools/call. */
  relistTools(): Promise<unknown>;
  /** Whether the tool is annotated idempotentHint (so a lost tools/call may be sent again). */
  idempotentTool(name: string): boolean;
  /** Answers one input request with the handlers a legacy server's request reaches. */
  fulfil(who: string, request: InputRequest, key: string, signal: AbortSignal | undefined): Promise<JsonObject>;
  onProblem(message: string): void;
  /** The methods a task result (`resultType: "task"`) may answer: tools/call when the tasks extension is declared. */
  taskMethods: ReadonlySet<string>;
  /**
   * The headers of a request (Mcp-Method, Mcp-Name, Mcp-Param-*: request-headers.ts), for a
   * transport that sends headers; undefined for one that does not (stdio): then none are made.
   */
  headers: ((method: string, params: Params | undefined) => Record<string, string>) | undefined;
}

/**
 * The era link of the 2026-07-28 wire: each request to its final result — a -32022 answered by
 * retrying once with a version from `supported`; an input_required result fulfilled and retried
 * as a new request (spec 2026-07-28 mrtr), at most maxInputRounds times; a lost response stream
 * re-issued when that is safe.
 */
export function modernLink(wire: ModernWire): Middleware {
  return {
    name: "era (2026-07-28)",
    // One request, through `next` (the links below the era's), to its final result.
    send: (next: Send): Send => async (method, params, options) => {
      const who = `${wire.name}: ${method}${typeof params?.name === "string" ? ` "${params.name}"` : ""}`;
      let extra: Params | undefined;
      let rounds = 0;
      let versionRetried = false;
      let headersRefreshed = false;
      let reissues = 0;
      for (;;) {
        let result: Params;
        try {
          // Made each round: a -32020 retry sends them again from the tools just listed.
          const headers = wire.headers?.(method, params);
          const sendOptions = headers === undefined
            ? options
            : { ...options, headers: options.headers === undefined ? headers : { ...options.headers, ...headers } };
          // withRequestMeta, inline with the fields made once: every request's path.
          const given = params?._meta;
          const fields = typeof given === "object" && given !== null && !Array.isArray(given) ? { ...given, ...wire.fields } : wire.fields;
          result = await next(method, { ...params, ...extra, _meta: fields }, sendOptions);
        } catch (raw) {
          const error = typedRpcError(raw);
          if (error instanceof UnsupportedProtocolVersionError && !versionRetried) {
            // spec 2026-07-28 basic/versioning: select a mutually supported version and retry.
            const next = MODERN_PROTOCOL_VERSIONS.find((candidate) => error.supported.includes(candidate));
            if (next === undefined) {
              throw new UnsupportedProtocolVersionError(
                `${who}: the server no longer supports ${wire.meta.protocolVersion} (it supports ${error.supported.join(", ") || "none listed"}; ` +
                  `mcpwire speaks ${MODERN_PROTOCOL_VERSIONS.join(", ")} on this wire); reconnect with protocol: auto`,
                { data: error.data, cause: error },
              );
            }
            versionRetried = true;
            wire.retryWith(next);
            continue;
          }
          if (error instanceof HeaderMismatchError && method === "tools/call" && !headersRefreshed) {
            // spec 2026-07-28 streamable-http ("Client Behavior"): re-list tools, then retry with the right headers.
            headersRefreshed = true;
            await wire.relistTools().catch(() => {});
            continue;
          }
          if (raw instanceof TransportError && raw.code === "stream-lost") {
            if (safeToReissue(wire, method, params) && reissues < MAX_REISSUES && !options.signal?.aborted) {
              reissues++;
              wire.onProblem(`${who}: the response stream was lost; sending the request again as a new request`);
              continue;
            }
            throw new OutcomeUnknownError(
              `${who}: the response stream broke before the answer, and the request is not safe to send again ` +
                `(not a read, and the tool is not annotated idempotentHint): the outcome is unknown; check before retrying`,
              { method, cause: raw },
            );
          }
          throw error;
        }
        if (result.resultType === "task" && !wire.taskMethods.has(method)) {
          // tasks extension ("Capability Negotiation"): a CreateTaskResult to an unsupported request
          // (or to a client that did not declare the extension) MUST be taken as an invalid response.
          throw new ProtocolError(
            `${who}: the server answered with a task (resultType "task"), which ` +
              (wire.taskMethods.size === 0 ? "this client did not accept (the tasks extension is off)" : `only ${[...wire.taskMethods].join(", ")} may`) +
              `; the server is not following the tasks extension: report it to its authors`,
            "task-not-allowed",
            { method },
          );
        }
        // input-requests.ts isInputRequired, inline: this is every request's path.
        if (result.resultType !== "input_required") return result;
        // A bridge passes it to its host as it came (client-options.ts PassThroughOptions).
        if ((options as PassThroughOptions).inputRequired === "return") return result;
        // spec 2026-07-28 mrtr ("Supported Requests"): only tools/call, prompts/get, resources/read.
        if (!INPUT_CAPABLE_METHODS.has(method)) {
          throw new ProtocolError(
            `${who}: the server answered input_required, which only tools/call, prompts/get and resources/read may`,
            "input-not-allowed",
            { method },
          );
        }
        if (++rounds > wire.maxInputRounds) {
          throw new InputRoundsExceededError(
            `${who}: the server still wanted input after ${wire.maxInputRounds} round trips; stopped (raise maxInputRounds if that is expected)`,
            { method, rounds: wire.maxInputRounds },
          );
        }
        const required = readInputRequired(who, result);
        const responses = required.inputRequests === undefined
          ? undefined
          : await fulfilInputRequests(required.inputRequests, (request, key) => wire.fulfil(who, request, key, options.signal));
        // spec 2026-07-28 mrtr ("Client Requirements" 2-4): a new request, the state echoed, nothing else carried over.
        extra = retryFields(required, responses);
      }
    },
  };
}

function safeToReissue(wire: ModernWire, method: string, params: Params | undefined): boolean {
  if (SAFE_TO_REISSUE.has(method)) return true;
  return method === "tools/call" && typeof params?.name === "string" && wire.idempotentTool(params.name);
}

/**
 * The params of a modern request: the caller's params, its `_meta` kept (a progress token,
 * trace context) with the protocol fields set, plus `extra` (the inputResponses and
 * requestState of a multi round-trip retry).
 */
export function withRequestMeta(params: JsonObject | undefined, meta: RequestMeta, extra?: JsonObject): JsonObject {
  const given = params?._meta;
  const fields = metaFields(meta);
  return { ...params, ...extra, _meta: typeof given === "object" && given !== null && !Array.isArray(given) ? { ...given, ...fields } : fields };
}

/** The `_meta` keys of the per-request protocol fields — spec 2026-07-28 basic/index ("Per-request protocol fields"). */
export function metaFields(meta: RequestMeta): JsonObject {
  const fields: JsonObject = {
    [META_PROTOCOL_VERSION]: meta.protocolVersion,
    [META_CLIENT_CAPABILITIES]: meta.capabilities,
    [META_CLIENT_INFO]: meta.clientInfo,
  };
  if (meta.logLevel !== undefined) fields[META_LOG_LEVEL] = meta.logLevel;
  return fields;
}

/** The wire's protocol fields changed (a version retry, a log level): each request from now on carries these. */
export function setRequestMeta(wire: ModernWire, meta: RequestMeta): void {
  wire.meta = meta;
  wire.fields = metaFields(meta);
}
