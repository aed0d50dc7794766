// Era and version negotiation: which wire a connection speaks and the handshake that settles it —
// spec 2025-11-25 basic/lifecycle ("Initialization", "Version Negotiation"); spec 2026-07-28
// basic/versioning ("Backward Compatibility"), server/discover; 2024-11-05 basic/transports
// ("HTTP with SSE": the legacy transport carries the handshake era only).

import { durationText } from "../common/duration.ts";
import { errorOf, messageOf } from "../common/error-text.ts";
import { isObject } from "../common/json.ts";
import { withTimeout } from "../common/timing.ts";
import { type CloseDetails, ConnectionClosedError, describeClose, RequestTimeoutError, RpcError } from "../jsonrpc/errors.ts";
import type { Send } from "../jsonrpc/middleware.ts";
import type { Params, Peer } from "../jsonrpc/peer.ts";
import { traceTransportName } from "../transport/tracing.ts";
import { type ClientTransport, TransportError } from "../transport/transport.ts";
import { type EraCacheEntry, rememberedEra, rememberEra } from "./era-cache.ts";
import {
  HeaderMismatchError,
  MissingClientCapabilityError,
  ProtocolError,
  ProtocolVersionError,
  typedRpcError,
  UnsupportedProtocolVersionError,
} from "./errors.ts";
import {
  isModernProtocolVersion,
  isSupportedProtocolVersion,
  LATEST_MODERN_PROTOCOL_VERSION,
  LATEST_PROTOCOL_VERSION,
  MODERN_PROTOCOL_VERSIONS,
  type ModernProtocolVersion,
  type ProtocolChoice,
  type ProtocolEra,
  type ProtocolVersion,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "./protocol-version.ts";
import { requestHeaders } from "./request-headers.ts";
import { META_SERVER_INFO } from "./request-meta.ts";
import type { Implementation, InitializeResult, ServerCapabilities } from "./types.ts";

/** Default bound of the auto probe; a legacy stdio server may never answer it. */
export const DEFAULT_DISCOVER_TIMEOUT_MS = 5000;

/** What a negotiation is doing: choosing the era, probing, or running the handshake. */
export type NegotiationStep = "connect" | "server/discover" | "initialize";

/** What a negotiation needs from the Client that runs it. */
export interface NegotiationContext {
  /** Names the server in messages (`server "github"`). */
  name: string;
  peer: Peer;
  /** Sends a request through the connection's chain as it is now (a restart composes a new one). */
  send: Send;
  transport: ClientTransport;
  /** The `protocol` option. */
  choice: ProtocolChoice;
  /** Where the era is remembered under `auto`, and this server's key there. */
  eraCache: EraCacheEntry | undefined;
  discoverTimeoutMs: number;
  /** The bound of the whole connect (initializeTimeoutMs), and when it runs out (epoch ms). */
  budgetMs: number;
  deadline: number;
  signal: AbortSignal | undefined;
  /** True once close() was called. */
  closing(): boolean;
  /** Throws when the connect cannot go on (close() was called, or the connection ended). */
  proceed(): void;
  /** The params of a 2026-07-28 request sent at `version` (the protocol fields in `_meta`). */
  modernParams(version: ModernProtocolVersion): Params;
  /** The params of the initialize request. */
  initializeParams: Params;
  /**
   * Whether restart() can start the server again: the Client was given a function that makes
   * the transport (Client.connect(() => transport)), not one transport.
   */
  canRestart: boolean;
  /**
   * Starts the server again on a new transport from the function connect() was given (the old
   * transport's process exited on the probe) and attaches a new Peer to it; resolves once it
   * is started.
   */
  restart(): Promise<{ peer: Peer; transport: ClientTransport }>;
  /** The server's answer is known: a DiscoverResult or an InitializeResult, checked. */
  found(init: InitializeResult): void;
  /** The initialize request is on its way (the handshake era): `initializing` may be announced. */
  handshaking(): void;
  onProblem(message: string): void;
}

/**
 * One connect's negotiation: the era to speak (the probe under `auto`), then the initialize
 * handshake when the server is not modern. `step` says where a failure happened.
 */
export class Negotiation {
  readonly #context: NegotiationContext;
  #step: NegotiationStep = "connect";
  /** The connection in use: the context's, or after a restart the new one. */
  #peer: Peer;
  #transport: ClientTransport;
  #choice: ProtocolChoice | undefined;
  #restarted = false;
  /** The handshake runs because the cache remembered a legacy era (not because a probe said so). */
  #fromCache = false;

  constructor(context: NegotiationContext) {
    this.#context = context;
    this.#peer = context.peer;
    this.#transport = context.transport;
  }

  get step(): NegotiationStep {
    return this.#step;
  }

  /**
   * True while a close of the connection would be answered by starting the server again: the
   * `auto` probe is in flight, the Client can make a new transport, and no restart was made.
   * The Client then lets the close end the probe without failing the connect.
   */
  get restartsOnClose(): boolean {
    const probing = this.#step === "server/discover" && this.#choice === "auto";
    const remembered = this.#step === "initialize" && this.#fromCache;
    return (probing || remembered) && !this.#restarted && this.#context.canRestart;
  }

  /**
   * Settles the era; rejects with the error a user should read (a timeout names
   * initializeTimeoutMs). Under `auto` with an era cache: a remembered legacy era goes straight
   * to the handshake; the era found is recorded.
   */
  async run(): Promise<ProtocolEra> {
    const choice = this.#choice = eraChoice(this.#context);
    const cache = choice === "auto" ? this.#context.eraCache : undefined;
    let stored = cache === undefined ? undefined : await rememberedEra(cache);
    let era: ProtocolEra | undefined;
    if (cache !== undefined && stored === "legacy") {
      era = await this.#rememberedLegacy(cache);
      if (era === undefined) stored = undefined; // forgotten: found afresh below
    }
    era ??= await this.#negotiate(choice);
    if (cache !== undefined && era !== stored) await rememberEra(cache, era);
    return era;
  }

  /**
   * The handshake, for a server remembered as legacy; undefined when that failed in a way that
   * says the era may have changed (an error answer to initialize, or a process that exited on
   * it): the entry is forgotten and the era is to be found afresh — spec 2026-07-28
   * basic/versioning: "re-probing if the cached assumption later fails".
   */
  async #rememberedLegacy(cache: EraCacheEntry): Promise<ProtocolEra | undefined> {
    this.#fromCache = true;
    this.#step = "initialize";
    try {
      return await this.#handshake("auto");
    } catch (error) {
      this.#fromCache = false;
      await rememberEra(cache, undefined);
      const { closing, signal, name } = this.#context;
      const exited = error instanceof ConnectionClosedError;
      const refused = error instanceof RpcError || error instanceof ProtocolVersionError;
      if (closing() || signal?.aborted || this.#remaining() === 0 || !(exited || refused)) throw error;
      if (exited && (this.#restarted || !this.#context.canRestart)) throw error;
      this.#context.onProblem(`${name}: the legacy era remembered for it failed (${messageOf(error)}); finding its era afresh`);
      if (exited) await this.#restart();
      return undefined;
    }
  }

  /** The era found by asking the server: the probe under `auto` (or `modern`), then the handshake if it is not modern. */
  async #negotiate(choice: ProtocolChoice): Promise<ProtocolEra> {
    if (choice !== "legacy") {
      this.#step = "server/discover";
      const outcome = await this.#discover(choice);
      this.#context.proceed();
      if (outcome === "modern") return "modern";
      if (outcome === "exited") await this.#restart();
    }
    this.#step = "initialize";
    return await this.#handshake(choice);
  }

  /**
   * The server exited on the probe without answering it (rmcp servers exit when the first
   * message is not initialize): a legacy server. Start it once more for the handshake.
   */
  async #restart(): Promise<void> {
    this.#restarted = true;
    this.#step = "connect";
    const { peer, transport } = await this.#context.restart();
    this.#peer = peer;
    this.#transport = transport;
    this.#context.proceed();
  }

  #remaining(): number {
    return Math.max(0, this.#context.deadline - Date.now());
  }

  async #discover(choice: ProtocolChoice): Promise<ProbeOutcome> {
    try {
      const outcome = await this.#probe(choice);
      // Unanswered until the connect's time ran out: no time is left for a handshake.
      if (outcome !== "modern" && this.#remaining() === 0) throw this.#timeout("server/discover");
      return outcome;
    } catch (raw) {
      const error = raw instanceof RequestTimeoutError && this.#remaining() === 0 ? this.#timeout("server/discover") : raw;
      throw errorOf(error);
    }
  }

  /**
   * Finds out whether the server speaks the 2026-07-28 wire — spec 2026-07-28
   * basic/versioning ("Backward Compatibility"), stdio ("Backward Compatibility"),
   * streamable-http ("Backward Compatibility"). A DiscoverResult, or a recognized modern
   * error, means modern (a -32022 is answered by retrying with a version from `supported`);
   * any other error, an HTTP refusal, or silence until the timeout means legacy — unless
   * `modern` was pinned, which then fails with what the server said. A server process that
   * exits on the probe is legacy too (`exited`: it is started again) when the transport can
   * start it again (restartsOnClose).
   */
  async #probe(choice: ProtocolChoice): Promise<ProbeOutcome> {
    const { name, signal } = this.#context;
    const peer = this.#peer;
    const transport = this.#transport;
    let version: ModernProtocolVersion = LATEST_MODERN_PROTOCOL_VERSION;
    for (let attempt = 0;; attempt++) {
      transport.setProtocolVersion?.(version);
      // Never past the connect's own bound (initializeTimeoutMs).
      const timeoutMs = choice === "auto" ? Math.min(this.#context.discoverTimeoutMs, this.#remaining()) : this.#remaining();
      let result: Params;
      try {
        // spec 2026-07-28 streamable-http ("Request Metadata"): Mcp-Method, where the transport sends headers.
        const options = transport.sendsHeaders === true ? { timeoutMs, signal, headers: requestHeaders("server/discover", undefined) } : { timeoutMs, signal };
        result = await this.#context.send("server/discover", this.#context.modernParams(version), options);
      } catch (error) {
        if (this.#context.closing() || signal?.aborted) throw error;
        if (error instanceof ConnectionClosedError) {
          if (this.restartsOnClose) return "exited";
          throw exitedOnProbe(name, error, choice);
        }
        if (peer.isClosed) throw error;
        if (error instanceof RequestTimeoutError && this.#remaining() === 0) throw error; // the connect's time is up
        const typed = typedRpcError(error);
        if (typed instanceof UnsupportedProtocolVersionError) {
          const next = MODERN_PROTOCOL_VERSIONS.find((candidate) => typed.supported.includes(candidate));
          if (next !== undefined && attempt === 0) {
            version = next;
            continue;
          }
          // Refused twice (or no modern version in common): a listed handshake version wins under auto.
          const legacy = typed.supported.some((candidate) => isSupportedProtocolVersion(candidate));
          if (legacy && choice === "auto") {
            transport.setProtocolVersion?.(undefined);
            return "legacy";
          }
          throw new ProtocolVersionError(
            `${name} does not support a protocol version mcpwire speaks: it supports ${typed.supported.join(", ") || "(none listed)"}; ` +
              `mcpwire speaks ${[...MODERN_PROTOCOL_VERSIONS, ...SUPPORTED_PROTOCOL_VERSIONS].join(", ")}` +
              (legacy && choice === "modern" ? `; set protocol: legacy (or auto) for this server` : ""),
            "no-common-version",
            { offered: version, received: typed.supported, supported: [...MODERN_PROTOCOL_VERSIONS, ...SUPPORTED_PROTOCOL_VERSIONS], cause: typed },
          );
        }
        if (typed instanceof HeaderMismatchError || typed instanceof MissingClientCapabilityError) {
          throw new ProtocolError(`${name} is a 2026-07-28 server but refused server/discover: ${typed.message}`, "refused-discover", {
            method: "server/discover",
            cause: typed,
          });
        }
        if (!meansLegacy(error)) throw error; // a dead process, a refused connection, a 5xx: no era to choose
        if (choice === "modern") {
          throw new ProtocolVersionError(
            `${name} did not answer server/discover as a 2026-07-28 server (${describeProbeFailure(error)}); ` +
              `it probably speaks only the initialize handshake: set protocol: legacy (or auto) for this server`,
            "no-common-version",
            { offered: version, received: undefined, supported: MODERN_PROTOCOL_VERSIONS, cause: error },
          );
        }
        // A legacy server: the handshake follows, with no version header until it has run.
        transport.setProtocolVersion?.(undefined);
        return "legacy";
      }
      const accepted = this.#acceptDiscover(result, version, choice);
      if (accepted === undefined) {
        transport.setProtocolVersion?.(undefined);
        return "legacy";
      }
      if (accepted !== version) transport.setProtocolVersion?.(accepted);
      return "modern";
    }
  }

  /**
   * spec 2026-07-28 server/discover ("DiscoverResult"): picks the newest mutual modern version;
   * undefined when the server lists none and `auto` may fall back to the handshake.
   */
  #acceptDiscover(result: Params, asked: ModernProtocolVersion, choice: ProtocolChoice): ModernProtocolVersion | undefined {
    const { name } = this.#context;
    const listed = Array.isArray(result.supportedVersions) ? result.supportedVersions.filter((v): v is string => typeof v === "string") : [];
    const version = MODERN_PROTOCOL_VERSIONS.find((candidate) => listed.includes(candidate));
    if (version === undefined) {
      // Not a DiscoverResult we can use (some legacy servers answer unknown methods with {}):
      // under auto the handshake decides.
      if (choice === "auto") return undefined;
      throw new ProtocolVersionError(
        `${name} answered server/discover with supportedVersions ${JSON.stringify(listed)}, none of which mcpwire speaks ` +
          `(${[...MODERN_PROTOCOL_VERSIONS, ...SUPPORTED_PROTOCOL_VERSIONS].join(", ")})`,
        "no-common-version",
        { offered: asked, received: listed, supported: MODERN_PROTOCOL_VERSIONS },
      );
    }
    const capabilities = result.capabilities;
    if (!isObject(capabilities)) {
      throw new ProtocolError(`${name}: the server/discover result has no "capabilities" object`, "bad-result", { method: "server/discover" });
    }
    // serverInfo goes in _meta (spec 2026-07-28 basic/index); some servers put it beside the fields.
    const meta = isObject(result._meta) ? result._meta : undefined;
    const info = meta?.[META_SERVER_INFO] ?? result.serverInfo;
    const serverInfo = isObject(info) && typeof info.name === "string"
      ? info as unknown as Implementation
      : { name: "(server gave no serverInfo)", version: "" };
    this.#context.found({
      protocolVersion: version,
      capabilities: capabilities as ServerCapabilities,
      serverInfo,
      instructions: typeof result.instructions === "string" ? result.instructions : undefined,
    });
    return version;
  }

  /**
   * spec 2025-11-25 basic/lifecycle ("Initialization"): initialize, then initialized. The
   * request is on its way before `initializing` is announced, so a ping sent from a
   * statechange listener cannot overtake it.
   */
  async #handshake(choice: ProtocolChoice): Promise<ProtocolEra> {
    const { name } = this.#context;
    const peer = this.#peer;
    const transport = this.#transport;
    const initialize = this.#context.send("initialize", this.#context.initializeParams, {
      timeoutMs: this.#remaining(),
      signal: this.#context.signal,
    });
    this.#context.handshaking();
    try {
      const result = await initialize;
      if (choice === "auto" && isModernProtocolVersion(result.protocolVersion)) {
        // The probe went unanswered in time, but the server answers initialize with a modern
        // version: it is a modern server after all. Speak that wire; no initialized follows.
        const init = checkInitializeResult(name, result, true);
        this.#context.found(init);
        transport.setProtocolVersion?.(init.protocolVersion);
        this.#context.onProblem(
          `${name}: server/discover went unanswered, but initialize was answered with ${init.protocolVersion}; using the 2026-07-28 wire`,
        );
        return "modern";
      }
      const init = checkInitializeResult(name, result);
      this.#context.found(init);
      // spec 2025-11-25 basic/transports (Protocol Version Header): HTTP sends it from now on.
      transport.setProtocolVersion?.(init.protocolVersion);
      // spec 2025-11-25 basic/lifecycle: after a successful initialize the client MUST send
      // initialized. Over HTTP its POST waits for a 202 (spec 2025-11-25 basic/transports):
      // that wait is part of the connect and bounded by what is left of initializeTimeoutMs.
      await withTimeout(peer.notify("notifications/initialized"), this.#remaining(), () => this.#timeout("notifications/initialized"));
      return "legacy";
    } catch (raw) {
      const error = raw instanceof RequestTimeoutError && raw.method === "initialize" && this.#remaining() === 0 ? this.#timeout("initialize") : raw;
      throw handshakeFailure(name, error, choice);
    }
  }

  /** connect() ran out of initializeTimeoutMs while waiting on `method`. */
  #timeout(method: "server/discover" | "initialize" | "notifications/initialized"): RequestTimeoutError {
    const { name, budgetMs } = this.#context;
    const waited = method === "notifications/initialized"
      ? "the server did not accept notifications/initialized in time (over HTTP: no 202 to its POST)"
      : `no answer to ${method}`;
    return new RequestTimeoutError(
      `${name}: ${method} timed out: connect did not finish within initializeTimeoutMs (${durationText(budgetMs)}): ${waited}; ` +
        "raise initializeTimeoutMs, or check the server's stderr",
      { method, timeoutMs: budgetMs, kind: "total" },
    );
  }
}

/** What the probe found: a modern server, a legacy one, or a process that exited on it (to start again). */
type ProbeOutcome = "modern" | "legacy" | "exited";

/**
 * The era choice that holds over this transport: the legacy HTTP+SSE transport carries the
 * handshake era only, so `auto` over it is `legacy` (no probe) and `modern` is refused.
 */
function eraChoice({ name, transport, choice }: NegotiationContext): ProtocolChoice {
  if (!carriesHandshakeOnly(transport)) return choice;
  if (choice === "modern") {
    throw new ProtocolVersionError(
      `${name}: protocol: modern needs the 2026-07-28 wire, which the legacy HTTP+SSE transport (2024-11-05) cannot carry; ` +
        `set protocol: auto (or legacy) for this server, or connect to its Streamable HTTP endpoint`,
      "era-not-carried",
      { offered: LATEST_MODERN_PROTOCOL_VERSION, received: undefined, supported: SUPPORTED_PROTOCOL_VERSIONS },
    );
  }
  return "legacy";
}

/**
 * Whether `transport` is (or wraps: a TracingTransport, an AutoHttpTransport that chose sse) the
 * legacy HTTP+SSE transport — spec 2024-11-05 basic/transports ("HTTP with SSE"); the
 * 2026-07-28 wire needs Streamable HTTP or stdio.
 */
function carriesHandshakeOnly(transport: ClientTransport): boolean {
  for (let current: ClientTransport | undefined = transport; current !== undefined; current = (current as { inner?: ClientTransport }).inner) {
    // By its name, not `instanceof`: that would load the legacy transport into every client.
    if (traceTransportName(current) === "sse") return true;
  }
  return false;
}

/**
 * The initialize handshake once more, on a new session (the server ended the old one, HTTP 404)
 * — spec 2025-11-25 basic/transports ("Session Management" 4) and basic/lifecycle.
 */
export async function handshakeAgain(
  name: string,
  send: Send,
  peer: Peer,
  transport: ClientTransport,
  initializeParams: Params,
  timeoutMs: number | undefined,
): Promise<InitializeResult> {
  const init = checkInitializeResult(name, await send("initialize", initializeParams, { timeoutMs }));
  transport.setProtocolVersion?.(init.protocolVersion);
  await peer.notify("notifications/initialized");
  return init;
}

/** An InitializeResult checked against the spec's shape, or the error that says what is wrong. */
function checkInitializeResult(name: string, result: Params, modern = false): InitializeResult {
  const version = result.protocolVersion;
  // spec 2025-11-25 basic/lifecycle: if the client does not support the server's version it SHOULD disconnect.
  if (!isSupportedProtocolVersion(version) && !(modern && isModernProtocolVersion(version))) {
    throw new ProtocolVersionError(
      `${name} answered initialize with protocol version ${JSON.stringify(version)}, which mcpwire does not speak ` +
        `(offered ${LATEST_PROTOCOL_VERSION}; accepts ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")}); disconnected`,
      "no-common-version",
      { offered: LATEST_PROTOCOL_VERSION, received: version, supported: SUPPORTED_PROTOCOL_VERSIONS },
    );
  }
  const capabilities = result.capabilities;
  const serverInfo = result.serverInfo;
  if (!isObject(capabilities)) {
    throw new ProtocolError(`${name}: initialize result has no "capabilities" object`, "bad-result", { method: "initialize" });
  }
  if (!isObject(serverInfo) || typeof serverInfo.name !== "string") {
    throw new ProtocolError(`${name}: initialize result has no "serverInfo" with a name`, "bad-result", { method: "initialize" });
  }
  return {
    protocolVersion: version,
    capabilities: capabilities as ServerCapabilities,
    serverInfo: serverInfo as unknown as Implementation,
    instructions: typeof result.instructions === "string" ? result.instructions : undefined,
  };
}

/**
 * A refused initialize, as the user should read it. spec 2026-07-28 basic/versioning: a
 * modern-only server names its versions in the error it gives an initialize request.
 */
function handshakeFailure(name: string, error: unknown, choice: ProtocolChoice): Error {
  // The server process ended: say so, with its exit and stderr, not as a failed request.
  if (error instanceof ConnectionClosedError && processEnded(error.details)) {
    return new ConnectionClosedError(`${name} stopped during the initialize handshake: ${describeClose(error.details)}`, {
      details: error.details,
      cause: error,
    });
  }
  const typed = typedRpcError(error);
  if (typed instanceof UnsupportedProtocolVersionError) {
    const modern = typed.supported.some((version) => isModernProtocolVersion(version));
    return new ProtocolVersionError(
      `${name} refused the initialize handshake: it supports ${typed.supported.join(", ") || "(none listed)"}` +
        (modern && choice === "legacy" ? "; it speaks the 2026-07-28 wire: set protocol: auto (or modern) for this server" : ""),
      "no-common-version",
      { offered: LATEST_PROTOCOL_VERSION, received: typed.supported, supported: SUPPORTED_PROTOCOL_VERSIONS, cause: typed },
    );
  }
  return errorOf(typed);
}

/**
 * What a failed server/discover tells about a server that is not modern — spec 2026-07-28
 * basic/versioning: a JSON-RPC error (any code but the modern ones), no answer in time, or
 * an HTTP 4xx without a modern error body. Other failures are failures.
 */
function meansLegacy(error: unknown): boolean {
  if (error instanceof RpcError || error instanceof RequestTimeoutError) return true;
  if (!(error instanceof TransportError) || error.code !== "http-status") return false;
  const status = (error as TransportError & { status?: unknown }).status;
  return typeof status === "number" && status >= 400 && status < 500;
}

/** Whether a connection ended because its server process did (stdio): it has an exit code or a signal. */
function processEnded(details: CloseDetails): boolean {
  return typeof details.exitCode === "number" || (typeof details.signal === "string" && details.signal !== "");
}

/**
 * The connection closed on the server/discover probe and the server is not started again
 * (`modern` pinned, or a transport that cannot): the probe is the likely cause, so say so.
 */
function exitedOnProbe(name: string, error: ConnectionClosedError, choice: ProtocolChoice): ConnectionClosedError {
  if (!processEnded(error.details)) return error;
  // Under auto the Client starts such a server again when connect() was given a function that makes its transport.
  const fix = choice === "modern"
    ? "it probably speaks only the initialize handshake: set protocol: legacy (or auto) for this server"
    : "if it speaks only the initialize handshake, set protocol: legacy for this server, or give connect() a function that makes the transport";
  return new ConnectionClosedError(
    `${name} stopped on server/discover, the first message of the 2026-07-28 era probe: ${describeClose(error.details)}; ${fix}`,
    { details: error.details, cause: error },
  );
}

/** Why the probe did not find a modern server, in a few words. */
function describeProbeFailure(error: unknown): string {
  if (error instanceof RpcError) return `error ${error.rpcCode}: ${error.message}`;
  return messageOf(error);
}

/**
 * ClientOptions.session: the transport joins the session another client initialized, at the
 * version it settled; no handshake runs (spec 2025-11-25 basic/transports, Session Management
 * 2: its id goes on every request), so the server's capabilities and info stay unknown. Returns
 * the version joined at.
 */
export function joinSession(name: string, transport: ClientTransport, session: { id: string; protocolVersion?: string }): ProtocolVersion {
  const version = session.protocolVersion ?? LATEST_PROTOCOL_VERSION;
  if (!(SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(version)) {
    throw new TypeError(
      `${name}: session.protocolVersion must be a version of the initialize handshake (${SUPPORTED_PROTOCOL_VERSIONS.join(", ")}); got "${version}"`,
    );
  }
  if (transport.joinSession === undefined) {
    throw new TypeError(`${name}: session ${session.id} cannot be joined: ${transport.description} has no sessions (Streamable HTTP has)`);
  }
  transport.joinSession(session.id, version);
  return version as ProtocolVersion;
}
