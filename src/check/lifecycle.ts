// The check's lifecycle family (docs/check.md): how the server settles a version and an era —
// spec 2025-11-25 basic/lifecycle ("Initialization", "Version Negotiation"); spec 2026-07-28
// basic/versioning, basic/index ("Per-request protocol fields" under `_meta`), server/discover.
// What the session's negotiation showed is judged as it was; what needs a fresh connection (an
// initialize at a version nobody speaks, the eras offered) is sent on one of the check's own.

import { LATEST_MODERN_PROTOCOL_VERSION, LATEST_PROTOCOL_VERSION } from "../client/protocol-version.ts";
import { requestHeaders } from "../client/request-headers.ts";
import { isObject } from "../common/json.ts";
import { clipJson } from "../common/preview.ts";
import type { TraceSink } from "../transport/trace-event.ts";
import { answeredText, type CheckAnswer, describeAnswer, errorCode, resultOf, seenAt } from "./answer.ts";
import { DEFAULT_CHECK_TIMEOUT_MS } from "./check-options.ts";
import type { Observed } from "./observed.ts";
import { type Judge, rule } from "./rule.ts";
import { type CheckConnection, checkInitializeParams, checkRequestMeta, type CheckSession, openConnection, type SessionLog } from "./session.ts";
import type { CheckTarget } from "./target.ts";

/** A version no server speaks: what the probes ask for to see a refusal. */
export const UNSUPPORTED_VERSION = "1999-01-01";

/** The rules of the lifecycle family. */
export const LifecycleRules = {
  unsupportedVersion: rule(
    "lifecycle/unsupported-version",
    "MUST",
    "An initialize asking for a version the server does not support is answered with another version it supports",
    { source: "2025-11-25", page: "basic/lifecycle", section: "Version Negotiation" },
    "Answer an initialize whose protocolVersion you do not support with the latest version you do support (never echo the one asked for), or with an error naming the versions you support.",
  ),
  initializeResult: rule(
    "lifecycle/initialize-result",
    "MUST",
    "The initialize result holds protocolVersion (a string), capabilities (an object) and serverInfo (name and version)",
    { source: "2025-11-25", page: "basic/lifecycle", section: "Initialization" },
    "Answer initialize with { protocolVersion, capabilities, serverInfo: { name, version } }, as the InitializeResult schema requires.",
  ),
  discoverResult: rule(
    "lifecycle/discover-result",
    "MUST",
    "The server/discover result holds supportedVersions (strings, among them the version spoken) and capabilities (an object)",
    { source: "2026-07-28", page: "server/discover", section: "DiscoverResult" },
    "Answer server/discover with supportedVersions listing every version you serve and your capabilities object, as the DiscoverResult schema requires.",
  ),
  discoverServerInfo: rule(
    "lifecycle/discover-server-info",
    "SHOULD",
    "The server/discover result names the server in _meta io.modelcontextprotocol/serverInfo",
    { source: "2026-07-28", page: "server/discover", section: "DiscoverResult" },
    'Put { "io.modelcontextprotocol/serverInfo": { "name": …, "version": … } } in the server/discover result\'s _meta.',
  ),
  missingProtocolFields: rule(
    "lifecycle/missing-protocol-fields",
    "MUST",
    "A 2026-07-28 request without the required per-request protocol fields in _meta is refused with -32602",
    { source: "2026-07-28", page: "basic/index", section: "_meta" },
    "Refuse a request lacking io.modelcontextprotocol/protocolVersion or io.modelcontextprotocol/clientCapabilities in _meta with JSON-RPC error -32602 (Invalid params).",
  ),
  unsupportedModernVersion: rule(
    "lifecycle/unsupported-modern-version",
    "MUST",
    "A 2026-07-28 request at a version the server does not support is answered -32022 with data.supported listing its versions",
    { source: "2026-07-28", page: "basic/versioning", section: "Protocol Version Negotiation" },
    "Answer a request whose _meta protocolVersion you do not implement with error -32022 (UnsupportedProtocolVersionError), data: { supported: [your versions], requested }.",
  ),
  modernOnlyInitialize: rule(
    "lifecycle/modern-only-initialize",
    "SHOULD",
    "A server that speaks only 2026-07-28 names the versions it supports in the error it gives initialize",
    { source: "2026-07-28", page: "basic/versioning", section: "Backward Compatibility with Initialization-Based Versions" },
    "Refuse initialize with an error whose message or data names the protocol versions you support (2026-07-28): it is all a legacy client can show its user.",
  ),
} as const;

/** Which eras a server offers, as fresh connections found (erasOffered). */
export interface ErasOffered {
  /** server/discover answered as a 2026-07-28 server (a DiscoverResult, or -32022 naming modern versions). */
  modern: boolean;
  /** initialize (at 2025-11-25) answered with a result. */
  legacy: boolean;
  /** The versions server/discover (or its -32022) listed, as strings. */
  supportedVersions?: string[];
}

/** Options of the probes that open connections of their own. */
export interface ProbeConnectionOptions {
  /** The check's log (one numbering for the whole check) and trace. */
  log?: SessionLog;
  trace?: TraceSink;
  /** Bound of each wait. Default 10 s (server/discover on a fresh connection: at most 5 s). */
  timeoutMs?: number;
}

const DISCOVER_TIMEOUT_MS = 5_000;

/** The raw answers erasOffered works from (probeLifecycle judges the initialize refusal too). */
interface EraProbe {
  offered: ErasOffered;
  initialize?: CheckAnswer;
}

/**
 * Which eras `target` offers: server/discover on one fresh connection, initialize (2025-11-25)
 * on another — spec 2026-07-28 basic/versioning ("Backward Compatibility with
 * Initialization-Based Versions"). For `--era all`: each era offered gets a session of its own.
 */
export async function erasOffered(target: CheckTarget, options: ProbeConnectionOptions = {}): Promise<ErasOffered> {
  return (await probeEras(target, options)).offered;
}

async function probeEras(target: CheckTarget, options: ProbeConnectionOptions): Promise<EraProbe> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  const offered: ErasOffered = { modern: false, legacy: false };
  const discover = await onFreshConnection(
    target,
    { ...options, protocolVersion: LATEST_MODERN_PROTOCOL_VERSION },
    (connection) =>
      connection.raw(
        { jsonrpc: "2.0", id: connection.rawId(), method: "server/discover", params: { _meta: checkRequestMeta(LATEST_MODERN_PROTOCOL_VERSION) } },
        {
          timeoutMs: Math.min(timeoutMs, DISCOVER_TIMEOUT_MS),
          headers: requestHeaders("server/discover", undefined),
        },
      ),
  );
  const listed = discover === undefined ? undefined : supportedOf(discover);
  if (listed !== undefined) offered.supportedVersions = listed;
  // spec 2026-07-28 basic/versioning: a DiscoverResult, or a recognized modern error, means modern.
  offered.modern = listed !== undefined && (errorCode(discover!) === -32022 || resultOf(discover!) !== undefined) &&
    listed.some((version) => version >= LATEST_MODERN_PROTOCOL_VERSION);
  const initialize = await onFreshConnection(
    target,
    options,
    (connection) => connection.raw(initializeRequest(connection, LATEST_PROTOCOL_VERSION), { timeoutMs }),
  );
  offered.legacy = initialize !== undefined && resultOf(initialize) !== undefined;
  return initialize === undefined ? { offered } : { offered, initialize };
}

/** Runs `probe` on a fresh connection and closes it; undefined when the connection could not be opened. */
async function onFreshConnection(
  target: CheckTarget,
  options: ProbeConnectionOptions & { protocolVersion?: string },
  probe: (connection: CheckConnection) => Promise<CheckAnswer>,
): Promise<CheckAnswer | undefined> {
  let connection: CheckConnection;
  try {
    connection = await openConnection(target, options);
  } catch {
    return undefined;
  }
  try {
    return await probe(connection);
  } finally {
    await connection.close();
  }
}

function initializeRequest(connection: CheckConnection, version: string): object {
  return {
    jsonrpc: "2.0",
    id: connection.rawId(),
    method: "initialize",
    params: checkInitializeParams(version),
  };
}

/** The versions a DiscoverResult or a -32022 error lists; undefined when neither lists any. */
function supportedOf(answer: CheckAnswer): string[] | undefined {
  const list = "result" in answer
    ? answer.result.supportedVersions
    : "error" in answer && isObject(answer.error.data)
    ? answer.error.data.supported
    : undefined;
  return Array.isArray(list) ? list.filter((item): item is string => typeof item === "string") : undefined;
}

/** What probeLifecycle needs: the session, and the target when the server can be reached again. */
export interface LifecycleContext extends ProbeConnectionOptions {
  session: CheckSession;
  /** Undefined for a bare transport (`checkServer(transport)`): the probes on fresh connections are skipped. */
  target?: CheckTarget;
  judge: Judge;
}

/**
 * The lifecycle family: the session's negotiation judged, the 2026-07-28 refusals probed on the
 * session (when it speaks that era), and, on fresh connections, an initialize at a version
 * nobody speaks and the initialize refusal of a modern-only server. Returns the eras offered
 * (undefined without a target).
 */
export async function probeLifecycle(context: LifecycleContext): Promise<ErasOffered | undefined> {
  const { session, judge, target } = context;
  judgeNegotiation(session.observed(), judge);
  const R = LifecycleRules;
  const eras = target === undefined ? undefined : await probeEras(target, context);
  if (session.era === "modern") await probeModernRefusals(session, judge, eras?.offered, context.timeoutMs);
  else {
    judge.skip(R.missingProtocolFields, "the session speaks the initialize handshake (no per-request protocol fields)");
    judge.skip(R.unsupportedModernVersion, "the session speaks the initialize handshake");
  }
  if (target === undefined || eras === undefined) {
    const why = "the check was given one transport: it cannot open a fresh connection to the server";
    judge.skip(R.unsupportedVersion, why);
    judge.skip(R.modernOnlyInitialize, why);
    return undefined;
  }
  judgeModernOnlyInitialize(eras, judge);
  if (!eras.offered.legacy) judge.skip(R.unsupportedVersion, "the server does not answer initialize: it speaks no version of the handshake");
  else {
    const timeoutMs = context.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
    const answer = await onFreshConnection(target, context, (connection) => connection.raw(initializeRequest(connection, UNSUPPORTED_VERSION), { timeoutMs }));
    judgeUnsupportedVersion(answer, judge, timeoutMs);
  }
  return eras.offered;
}

/** The initialize or server/discover result of the session, against what its era requires. */
export function judgeNegotiation(observed: Observed, judge: Judge): void {
  const R = LifecycleRules;
  const negotiation = observed.negotiation;
  if (observed.era === "legacy") {
    judge.skip(R.discoverResult, "the session speaks the initialize handshake");
    judge.skip(R.discoverServerInfo, "the session speaks the initialize handshake");
    if (negotiation === undefined || !isObject(negotiation.result)) return judge.skip(R.initializeResult, "no initialize result was seen");
    const result = negotiation.result;
    const info = result.serverInfo;
    const broken: [string, string][] = [];
    if (typeof result.protocolVersion !== "string") broken.push(["/result/protocolVersion", "protocolVersion is not a string"]);
    if (!isObject(result.capabilities)) broken.push(["/result/capabilities", "capabilities is missing or not an object"]);
    if (!isObject(info)) broken.push(["/result/serverInfo", "serverInfo is missing or not an object"]);
    else {
      if (typeof info.name !== "string") broken.push(["/result/serverInfo/name", "serverInfo.name is not a string"]);
      if (typeof info.version !== "string") broken.push(["/result/serverInfo/version", "serverInfo.version is not a string"]);
    }
    if (broken.length === 0) judge.pass(R.initializeResult);
    for (const [pointer, what] of broken) judge.fail(R.initializeResult, `the initialize result: ${what}`, { index: negotiation.index, pointer });
    return;
  }
  judge.skip(R.initializeResult, "the session speaks the 2026-07-28 wire (no initialize)");
  if (negotiation === undefined || !isObject(negotiation.result)) {
    judge.skip(R.discoverResult, "no server/discover result was seen");
    judge.skip(R.discoverServerInfo, "no server/discover result was seen");
    return;
  }
  const result = negotiation.result;
  const versions = result.supportedVersions;
  const broken: [string, string][] = [];
  if (!Array.isArray(versions) || versions.some((version) => typeof version !== "string")) {
    broken.push(["/result/supportedVersions", "supportedVersions is missing or not an array of strings"]);
  } else if (!versions.includes(observed.protocolVersion)) {
    broken.push([
      "/result/supportedVersions",
      `supportedVersions ${clipJson(versions, 200)} does not list ${observed.protocolVersion}, the version it serves`,
    ]);
  }
  if (!isObject(result.capabilities)) broken.push(["/result/capabilities", "capabilities is missing or not an object"]);
  if (broken.length === 0) judge.pass(R.discoverResult);
  for (const [pointer, what] of broken) judge.fail(R.discoverResult, `the server/discover result: ${what}`, { index: negotiation.index, pointer });
  const meta = isObject(result._meta) ? result._meta : undefined;
  const info = meta?.["io.modelcontextprotocol/serverInfo"];
  if (isObject(info) && typeof info.name === "string") judge.pass(R.discoverServerInfo);
  else {
    judge.fail(R.discoverServerInfo, "the server/discover result has no io.modelcontextprotocol/serverInfo with a name in its _meta", {
      index: negotiation.index,
      pointer: "/result/_meta",
    });
  }
}

/**
 * On a 2026-07-28 session: a request without the protocol fields, and one at a version nobody
 * speaks. The first is judged only for a server that speaks no handshake version: to a dual-era
 * server a request without `_meta` may be a legacy one (spec 2026-07-28 basic/versioning: it
 * "selects its behavior from how the client opens"), which the -32602 rule does not reach.
 */
async function probeModernRefusals(session: CheckSession, judge: Judge, eras: ErasOffered | undefined, timeoutMs = DEFAULT_CHECK_TIMEOUT_MS): Promise<void> {
  const R = LifecycleRules;
  const discovered = session.observed().negotiation?.result;
  const listed = isObject(discovered) && Array.isArray(discovered.supportedVersions) ? discovered.supportedVersions : [];
  // Without fresh connections to tell, the versions its server/discover lists say whether it speaks the handshake.
  const dualEra = eras !== undefined ? eras.legacy : listed.some((version) => typeof version === "string" && version < LATEST_MODERN_PROTOCOL_VERSION);
  // server/discover: every 2026-07-28 server MUST implement it (basic/versioning), so it is there to refuse.
  const bare = dualEra ? undefined : await session.raw({ jsonrpc: "2.0", id: session.rawId(), method: "server/discover", params: {} }, { timeoutMs });
  if (bare === undefined) {
    judge.skip(R.missingProtocolFields, "the server also answers initialize: to a dual-era server a request without _meta may be a legacy request");
  } else if ("failed" in bare) judge.skip(R.missingProtocolFields, `the request without _meta got no JSON-RPC answer: ${bare.failed}`);
  else if (errorCode(bare) === -32602) judge.pass(R.missingProtocolFields);
  else {
    judge.fail(R.missingProtocolFields, `server/discover without _meta ${answeredText(bare, timeoutMs)}, not error -32602`, seenAt(bare));
  }
  const params = { _meta: checkRequestMeta(UNSUPPORTED_VERSION) };
  // Over HTTP the version header says the same as _meta (spec 2026-07-28 streamable-http: they must agree).
  const headers = { ...requestHeaders("server/discover", params), "MCP-Protocol-Version": UNSUPPORTED_VERSION };
  const old = await session.raw({ jsonrpc: "2.0", id: session.rawId(), method: "server/discover", params }, { timeoutMs, headers });
  if ("failed" in old) return judge.skip(R.unsupportedModernVersion, `the request at ${UNSUPPORTED_VERSION} got no JSON-RPC answer: ${old.failed}`);
  const supported = "error" in old && isObject(old.error.data) ? old.error.data.supported : undefined;
  if (errorCode(old) !== -32022) {
    judge.fail(
      R.unsupportedModernVersion,
      `server/discover at version ${UNSUPPORTED_VERSION} ${answeredText(old, timeoutMs)}, not error -32022`,
      seenAt(old),
    );
  } else if (!Array.isArray(supported) || supported.length === 0 || supported.some((version) => typeof version !== "string")) {
    judge.fail(
      R.unsupportedModernVersion,
      "the -32022 error does not list the supported versions in data.supported (an array of strings)",
      seenAt(old, "/error/data"),
    );
  } else judge.pass(R.unsupportedModernVersion);
}

/** A server that answers only 2026-07-28: does its refusal of initialize name its versions? */
function judgeModernOnlyInitialize(eras: EraProbe, judge: Judge): void {
  const R = LifecycleRules;
  if (!eras.offered.modern || eras.offered.legacy) {
    return judge.skip(
      R.modernOnlyInitialize,
      eras.offered.legacy ? "the server answers initialize (it is not modern-only)" : "the server does not answer server/discover as a 2026-07-28 server",
    );
  }
  const answer = eras.initialize;
  if (answer === undefined || !("error" in answer)) {
    return judge.skip(R.modernOnlyInitialize, `initialize got ${answer === undefined ? "no connection" : describeAnswer(answer)}, not an error to read`);
  }
  let text = String(answer.error.message);
  try {
    text += JSON.stringify(answer.error.data ?? null);
  } catch {
    // data that cannot be written out names nothing
  }
  if (/\d{4}-\d{2}-\d{2}/.test(text)) judge.pass(R.modernOnlyInitialize);
  else judge.fail(R.modernOnlyInitialize, `initialize was refused with ${describeAnswer(answer)}, which names no protocol version`, seenAt(answer));
}

/** The answer to an initialize at UNSUPPORTED_VERSION, judged. */
function judgeUnsupportedVersion(answer: CheckAnswer | undefined, judge: Judge, timeoutMs: number): void {
  const R = LifecycleRules;
  if (answer === undefined) return judge.skip(R.unsupportedVersion, "a fresh connection to the server could not be opened");
  if ("error" in answer) {
    // spec 2025-11-25 basic/lifecycle ("Error Handling"): its example refuses an unsupported version with an error.
    return judge.pass(R.unsupportedVersion);
  }
  const result = resultOf(answer);
  if (result === undefined) {
    return judge.fail(
      R.unsupportedVersion,
      `initialize at version ${UNSUPPORTED_VERSION} ${answeredText(answer, timeoutMs)}`,
      seenAt(answer),
    );
  }
  const version = result.protocolVersion;
  if (typeof version !== "string") {
    judge.fail(
      R.unsupportedVersion,
      `initialize at version ${UNSUPPORTED_VERSION} was answered without a protocolVersion string`,
      seenAt(answer, "/result/protocolVersion"),
    );
  } else if (version === UNSUPPORTED_VERSION) {
    judge.fail(
      R.unsupportedVersion,
      `initialize at version ${UNSUPPORTED_VERSION}, which no server supports, was answered with that same version`,
      seenAt(answer, "/result/protocolVersion"),
    );
  } else judge.pass(R.unsupportedVersion);
}
