// Errors the client raises itself (as opposed to RpcError, which the server sent).

import { isObject } from "../common/json.ts";
import { McpwireError } from "../common/mcpwire-error.ts";
import { RequestError, type RequestErrorOptions, RpcError, type RpcErrorOptions } from "../jsonrpc/errors.ts";

/**
 * Why a method cannot run in the client's state (`state` says which state it was):
 * - `not-connected`: before connect();
 * - `connecting`: a request other than ping before connect() resolved (spec 2025-11-25 basic/lifecycle);
 * - `failed`: the connection failed or ended without our asking (`cause` says how);
 * - `closed`: after close() (closing or closed);
 * - `already-connected`: connect() called a second time;
 * - `closed-while-connecting`: close() was called while connect() ran;
 * - `cannot-restart`: the server must be started again and its transport cannot do that;
 * - `session-ended`: the server ended the session while the client was not ready;
 * - `roots-not-declared`: setRoots() on a client that did not declare roots.
 */
export type ClientStateErrorCode =
  | "not-connected"
  | "connecting"
  | "failed"
  | "closed"
  | "already-connected"
  | "closed-while-connecting"
  | "cannot-restart"
  | "session-ended"
  | "roots-not-declared";

/** A method was called in a state that does not allow it (before connect, after close, …). */
export class ClientStateError<C extends string = ClientStateErrorCode> extends McpwireError<C> {
  override readonly name: string = "ClientStateError";
  /** The client's state when it was refused (a ClientState: `new`, `failed`, `closed`, …). */
  readonly state: string;
  constructor(message: string, code: C, options: { state: string; cause?: unknown }) {
    super(message, code, options);
    this.state = options.state;
  }
}

/**
 * Why no protocol version could be agreed:
 * - `no-common-version`: the server speaks none of the versions mcpwire speaks (it refused
 *   ours, listed others, or answered initialize with another);
 * - `era-not-carried`: `protocol: modern` over the legacy HTTP+SSE transport, which carries
 *   only the handshake era.
 */
export type ProtocolVersionErrorCode = "no-common-version" | "era-not-carried";

/** The server and mcpwire have no protocol version in common (spec 2025-11-25 basic/lifecycle, 2026-07-28 basic/versioning). */
export class ProtocolVersionError extends McpwireError<ProtocolVersionErrorCode> {
  override readonly name = "ProtocolVersionError";
  /** The version mcpwire offered. */
  readonly offered: string;
  /** What the server answered or listed. */
  readonly received: unknown;
  /** The versions mcpwire would have accepted. */
  readonly supported: readonly string[];
  constructor(
    message: string,
    code: ProtocolVersionErrorCode,
    options: { offered: string; received: unknown; supported: readonly string[]; cause?: unknown },
  ) {
    super(message, code, options);
    this.offered = options.offered;
    this.received = options.received;
    this.supported = options.supported;
  }
}

/** The one code of CapabilityError: the server did not declare the capability a method needs. */
export type CapabilityErrorCode = "missing-server-capability";

/** The server did not declare the capability a method needs (`capability` names it: `tools`, `tasks.list`, …). */
export class CapabilityError extends McpwireError<CapabilityErrorCode> {
  override readonly name = "CapabilityError";
  readonly capability: string;
  constructor(message: string, options: { capability: string; cause?: unknown }) {
    super(message, "missing-server-capability", options);
    this.capability = options.capability;
  }
}

/**
 * How a server broke the protocol:
 * - `bad-result`: a result lacks what the spec requires of it, or has it in the wrong shape;
 * - `cursor-loop`: a list's pages repeat a cursor;
 * - `too-many-pages`: a list has more pages than maxPages;
 * - `refused-discover`: a 2026-07-28 server refused server/discover;
 * - `input-not-allowed`: an input_required result for a method that cannot have one;
 * - `input-failed`: an input request of the server could not be fulfilled;
 * - `undeclared-capability`: the server asked for a capability this client did not declare;
 * - `task-not-allowed`: a task result (`resultType: "task"`) for a method that cannot have one;
 * - `bad-task`: a task in the wrong shape, or whose status went back from a terminal state.
 */
export type ProtocolErrorCode =
  | "bad-result"
  | "cursor-loop"
  | "too-many-pages"
  | "refused-discover"
  | "input-not-allowed"
  | "input-failed"
  | "undeclared-capability"
  | "task-not-allowed"
  | "bad-task";

/** The server broke the protocol: a result without the shape the spec gives it, and the like. */
export class ProtocolError extends McpwireError<ProtocolErrorCode> {
  override readonly name = "ProtocolError";
  /** The method whose answer broke it, when one did. */
  readonly method: string | undefined;
  constructor(message: string, code: ProtocolErrorCode, options: { method?: string; cause?: unknown } = {}) {
    super(message, code, options);
    this.method = options.method;
  }
}

/**
 * Why a tool's result was refused against its outputSchema:
 * - `output-missing`: the tool declares an outputSchema but returned no structuredContent;
 * - `output-mismatch`: the structuredContent does not match the schema;
 * - `output-unchecked`: the structuredContent could not be checked at all (nested too deeply
 *   for the validator), so it is not accepted either.
 */
export type OutputValidationCode = "output-missing" | "output-mismatch" | "output-unchecked";

/** A tool's structuredContent does not match the outputSchema it listed. */
export class OutputValidationError extends McpwireError<OutputValidationCode> {
  override readonly name = "OutputValidationError";
  readonly tool: string;
  /** JSON Pointer of the first failing place in structuredContent ("" is the root). */
  readonly path: string;
  readonly errors: readonly { path: string; message: string }[];
  constructor(
    message: string,
    code: OutputValidationCode,
    options: { tool: string; errors: readonly { path: string; message: string }[]; cause?: unknown },
  ) {
    super(message, code, options);
    this.tool = options.tool;
    this.path = options.errors[0]?.path ?? "";
    this.errors = options.errors;
  }
}

// --- the error codes of the 2026-07-28 revision (spec 2026-07-28 basic/index "Error Codes") ---

/**
 * -32022: the server does not implement the protocol version of the request; `supported`
 * lists those it does (spec 2026-07-28 basic/versioning). Code "unsupported-protocol-version".
 */
export class UnsupportedProtocolVersionError extends RpcError<"unsupported-protocol-version"> {
  override readonly name = "UnsupportedProtocolVersionError";
  readonly supported: readonly string[];
  readonly requested: string | undefined;
  constructor(message: string, options: RpcErrorOptions = {}) {
    super(message, -32022, options, "unsupported-protocol-version");
    const fields = isObject(options.data) ? options.data : {};
    this.supported = Array.isArray(fields.supported) ? fields.supported.filter((v): v is string => typeof v === "string") : [];
    this.requested = typeof fields.requested === "string" ? fields.requested : undefined;
  }
}

/**
 * -32020: HTTP headers and body disagree, or a required header is missing (spec 2026-07-28
 * streamable-http). Code "header-mismatch".
 */
export class HeaderMismatchError extends RpcError<"header-mismatch"> {
  override readonly name = "HeaderMismatchError";
  constructor(message: string, options: RpcErrorOptions = {}) {
    super(message, -32020, options, "header-mismatch");
  }
}

/**
 * -32021: the request needs a client capability this client did not declare;
 * `requiredCapabilities` says which. Code "missing-client-capability".
 */
export class MissingClientCapabilityError extends RpcError<"missing-client-capability"> {
  override readonly name = "MissingClientCapabilityError";
  readonly requiredCapabilities: unknown;
  /** rpcCode -32021 (2026-07-28 core) or -32003 (the tasks extension's text names it so). */
  constructor(message: string, options: RpcErrorOptions & { rpcCode?: -32021 | -32003 } = {}) {
    super(message, options.rpcCode ?? -32021, options, "missing-client-capability");
    this.requiredCapabilities = isObject(options.data) ? options.data.requiredCapabilities : undefined;
  }
}

/**
 * resources/read of a URI the server does not have: rpcCode -32002 in the handshake era,
 * -32602 from 2026-07-28. Code "resource-not-found" for both.
 */
export class ResourceNotFoundError extends RpcError<"resource-not-found"> {
  override readonly name = "ResourceNotFoundError";
  readonly uri: string;
  constructor(message: string, rpcCode: number, options: RpcErrorOptions & { uri: string }) {
    super(message, rpcCode, options, "resource-not-found");
    this.uri = options.uri;
  }
}

/**
 * A request whose response stream broke on the 2026-07-28 wire (no resumption there) and
 * that was not safe to send again: the server may or may not have done it. Code "outcome-unknown".
 */
export class OutcomeUnknownError extends RequestError<"outcome-unknown"> {
  override readonly name = "OutcomeUnknownError";
  constructor(message: string, options: RequestErrorOptions) {
    super(message, "outcome-unknown", options);
  }
}

/**
 * A multi round-trip request still wanted input after the allowed number of rounds. Code
 * "input-rounds-exceeded".
 */
export class InputRoundsExceededError extends RequestError<"input-rounds-exceeded"> {
  override readonly name = "InputRoundsExceededError";
  readonly rounds: number;
  constructor(message: string, options: RequestErrorOptions & { rounds: number }) {
    super(message, "input-rounds-exceeded", options);
    this.rounds = options.rounds;
  }
}

/** The typed error for the 2026-07-28 error codes (spec 2026-07-28 basic/index "Error Codes"); others unchanged. */
export function typedRpcError(error: unknown): unknown {
  if (!(error instanceof RpcError) || error.constructor !== RpcError) return error;
  switch (error.rpcCode) {
    case -32020:
      return new HeaderMismatchError(error.message, { data: error.data });
    case -32021:
      return new MissingClientCapabilityError(error.message, { data: error.data });
    case -32003:
      // The tasks extension (SEP-2663) names the missing-capability error -32003; same meaning.
      return new MissingClientCapabilityError(error.message, { data: error.data, rpcCode: -32003 });
    case -32022:
      return new UnsupportedProtocolVersionError(error.message, { data: error.data });
    default:
      return error;
  }
}

// --- tasks (spec 2025-11-25 basic/utilities/tasks; the io.modelcontextprotocol/tasks extension) ---

/**
 * Why a task did not give a result:
 * - `task-cancelled`: the task ended `cancelled` (on the server, or by another tasks/cancel);
 * - `timeout`: the call's timeout ran out while the task ran (the task was cancelled);
 * - `cancelled`: the caller's signal aborted (the task was cancelled): the code every layer
 *   gives a call its caller stopped;
 * - `lost`: the connection ended while the task ran; the task may still run on the server;
 * - `unknown-task`: the server does not know the task id (expired, or never created);
 * - `unsupported`: the server or wire has no such task operation (tasks/list on 2026-07-28,
 *   tasks/cancel without the capability).
 */
export type TaskErrorCode = "task-cancelled" | "timeout" | "cancelled" | "lost" | "unknown-task" | "unsupported";

/** A task that ended without a result, or a task operation that cannot be done. */
export class TaskError extends McpwireError<TaskErrorCode> {
  override readonly name = "TaskError";
  /** The task's id ("" when no task was created). */
  readonly taskId: string;
  constructor(message: string, code: TaskErrorCode, options: { taskId?: string; cause?: unknown } = {}) {
    super(message, code, options);
    this.taskId = options.taskId ?? "";
  }
}

/**
 * A task that ended `failed`: the JSON-RPC error the underlying request gave (its `rpcCode`,
 * `message`, `data`; `code` names the number as for any RpcError). A tool that completed with
 * `isError: true` is not this: that is a completed task whose result says so (spec 2026-07-28
 * tasks extension, "Task Execution Errors").
 */
export class TaskFailedError extends RpcError {
  override readonly name = "TaskFailedError";
  readonly taskId: string;
  constructor(message: string, rpcCode: number, options: RpcErrorOptions & { taskId: string }) {
    super(message, rpcCode, options);
    this.taskId = options.taskId;
  }
}

// --- the extensions' refusals (their classes live with them: skills/skill-entry.ts, apps/apps.ts) ---

/**
 * Why a skill was refused:
 * - `not-declared`: the server (or this client) did not declare the extension, so skills/* is not sent;
 * - `not-implemented`: the server declared the extension but answered skills/* with -32601;
 * - `not-found`: no such skill (skills/get answered -32602, or no listed skill has the name);
 * - `bad-entry`: the entry lacks what the spec requires (uri, frontmatter, resources, a digest…);
 * - `missing-field`: the frontmatter has no `name` or no `description`;
 * - `bad-name`: the name breaks the Agent Skills naming rules, or is not the URI's final path segment;
 * - `too-large`: the skill is over a limit (512 files, 16 MiB), or a file is larger than it says;
 * - `outside-skill`: a path or URI that leaves the skill's directory (`../`, another skill's root), or
 *   could (an encoded separator or dot segment, a backslash, NUL, a path that does not decode);
 * - `unlisted`: a file the held entry does not list (a verification failure, skills.mdx "The Acting Window");
 * - `digest-mismatch`: the bytes read do not hash to the entry's digest;
 * - `size-mismatch`: the bytes read are not as many as the entry's size;
 * - `bad-frontmatter`: the SKILL.md read does not begin with YAML frontmatter that parses to an object;
 * - `frontmatter-mismatch`: the SKILL.md's frontmatter differs from the entry's;
 * - `bad-content`: resources/read answered without the file's text or bytes.
 */
export type SkillErrorCode =
  | "not-declared"
  | "not-implemented"
  | "not-found"
  | "bad-entry"
  | "missing-field"
  | "bad-name"
  | "too-large"
  | "outside-skill"
  | "unlisted"
  | "digest-mismatch"
  | "size-mismatch"
  | "bad-frontmatter"
  | "frontmatter-mismatch"
  | "bad-content";

/**
 * Why a tool's UI resource was refused:
 * - `no-ui-resource`: the tool names no UI resource;
 * - `not-ui-uri`: the URI it names does not use the `ui://` scheme;
 * - `not-found`: the server has no resource at that URI (apps.mdx: it MUST exist);
 * - `read-failed`: resources/read failed otherwise (an error, no resources capability, …);
 * - `no-content`: the result holds no text or base64 blob to read;
 * - `not-html`: the content is not HTML of the MCP App type (`text/html;profile=mcp-app`).
 */
export type AppResourceErrorCode = "no-ui-resource" | "not-ui-uri" | "not-found" | "read-failed" | "no-content" | "not-html";

/**
 * Every code of the client layer's own errors (ClientStateError, ProtocolVersionError,
 * CapabilityError, ProtocolError, OutputValidationError, TaskError, SkillError,
 * AppResourceError, OutcomeUnknownError, InputRoundsExceededError, TelemetryError,
 * ValidatorNotLoadedError, and the SchemaError `validator-unavailable` of a jsonSchema this
 * build lacks); the codes of RpcError
 * and its subclasses are JsonRpcErrorCode's.
 */
export type ClientErrorCode =
  | "outcome-unknown"
  | "telemetry-unavailable"
  | "validator-unavailable"
  | "input-rounds-exceeded"
  | "validator-not-loaded"
  | ClientStateErrorCode
  | ProtocolVersionErrorCode
  | CapabilityErrorCode
  | ProtocolErrorCode
  | OutputValidationCode
  | TaskErrorCode
  | SkillErrorCode
  | AppResourceErrorCode;
