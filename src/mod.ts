// mcpwire — a from-scratch Model Context Protocol client toolkit for Node and Deno.
// The root entry (`mcpwire`): the minimal client — JSON-RPC, the transports, `Client`, their
// errors and types. It loads no yaml, model provider, OAuth or worker module; the other layers
// have entries of their own: `mcpwire/registry`, `mcpwire/host`, `mcpwire/agent`, `mcpwire/auth`.

export {
  ConnectionClosedError,
  ErrorCode,
  errorCodeName,
  RequestAbortedError,
  RequestTimeoutError,
  RpcError,
  UndeliverableResponseError,
} from "./jsonrpc/errors.ts";
export type { CloseDetails, UndeliverableReason, UndeliverableResponse } from "./jsonrpc/errors.ts";
export {
  isErrorResponse,
  isJsonRpcMessage,
  isNotification,
  isRequest,
  isResponse,
  whyNotJsonRpc,
} from "./jsonrpc/messages.ts";
export type {
  JsonRpcErrorResponse,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  JsonRpcResultResponse,
  RequestId,
} from "./jsonrpc/messages.ts";
export { DEFAULT_MAX_MESSAGE_BYTES, LineDecoder } from "./jsonrpc/line-decoder.ts";
export type { DecodeProblem, LineDecoderOptions } from "./jsonrpc/line-decoder.ts";
export { encodeLine } from "./jsonrpc/line-encoder.ts";
export { DEFAULT_MAX_TOTAL_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS, Peer } from "./jsonrpc/peer.ts";
export type {
  IncomingRequestContext,
  NotificationHandler,
  Params,
  PeerOptions,
  Progress,
  RequestHandler,
  RequestOptions,
  SendOptions,
} from "./jsonrpc/peer.ts";

// A misspelt or missing option of a constructor (StdioTransport, Client, …).
export { InvalidOptionsError } from "./common/options.ts";
export type { InvalidOptionsCode } from "./common/options.ts";
export { TransportError, UndeliverableMessageError } from "./transport/transport.ts";
export type { ClientTransport, HttpTransportHooks, Transport, TransportErrorCode } from "./transport/transport.ts";
export { DEFAULT_INHERITED_ENV_VARS, defaultChildEnv, StdioTransport } from "./transport/stdio.ts";
export type { StdioTransportOptions } from "./transport/stdio.ts";
export {
  CHILD_ENV_BASELINE,
  CHILD_ENV_BASELINE_PREFIXES,
  CHILD_ENV_BASELINE_WINDOWS,
  childEnvironment,
  ENV_MODES,
  isBaselineVariable,
} from "./transport/child-env.ts";
export type { ChildEnvironmentOptions, EnvMode } from "./transport/child-env.ts";
export { MemoryTransport } from "./transport/memory.ts";
export { TracingTransport } from "./transport/tracing.ts";
export {
  DEFAULT_HTTP_CLOSE_TIMEOUT_MS,
  DEFAULT_HTTP_TIMEOUT_MS,
  StreamableHttpTransport,
} from "./transport/streamable-http/mod.ts";
export type { StreamableHttpTransportOptions } from "./transport/streamable-http/mod.ts";
export { HttpStatusError } from "./transport/http-errors.ts";
export type { HttpErrorCode } from "./transport/http-errors.ts";
export type { HttpConnectionOptions } from "./transport/http-options.ts";
export { DEFAULT_MAX_RETRY_AFTER_MS } from "./transport/retry-after.ts";
export { DEFAULT_RECONNECT } from "./transport/sse-reconnect.ts";
export type { ReconnectOptions } from "./transport/sse-reconnect.ts";
export { DEFAULT_ENDPOINT_TIMEOUT_MS, DEFAULT_POST_TIMEOUT_MS, SseLegacyTransport } from "./transport/sse-legacy.ts";
export type { SseLegacyTransportOptions } from "./transport/sse-legacy.ts";
export { AutoHttpTransport } from "./transport/auto-http.ts";
export type { AutoHttpTransportOptions, HttpTransportKind } from "./transport/auto-http.ts";
export type { TraceDirection, TraceFn, TracingOptions } from "./transport/tracing.ts";

export { Client } from "./client/client.ts";
export { MemoryEraCache } from "./client/era-cache.ts";
export type { EraCache } from "./client/era-cache.ts";
export { ClientEvent } from "./client/client-events.ts";
export { DEFAULT_LOG_BUFFER_SIZE } from "./client/server-notifications.ts";
export { applyDefaults, checkRequestedSchema, UrlElicitationRequiredError, validateAnswer } from "./client/elicitation.ts";
export { loadJsonSchema } from "./client/json-schema.ts";
export {
  DEFAULT_SAMPLING_TIMEOUT_MS,
  SAMPLING_REJECTED,
  SamplingGate,
  SamplingRejectedError,
} from "./client/sampling.ts";
export type { SamplingPolicy } from "./client/sampling.ts";
export { pathToFileUri, toRoots } from "./client/roots.ts";
export type { RootInput } from "./client/roots.ts";
export type {
  ClientHandlers,
  ElicitationHandlers,
  HandlerContext,
  RootsHandler,
  SamplingContext,
  SamplingHandler,
  UrlElicitationRequest,
} from "./client/handlers.ts";
export type { ClientEvents, ClientEventType } from "./client/client-events.ts";
export type { CallOptions, ClientOptions, ListOptions } from "./client/client-options.ts";
export type { TaskReceiverOptions } from "./client/tasks/task-store.ts";
export { defaultExtensions, EXTENSIONS, type ExtensionOptions, type KnownExtension } from "./client/extensions.ts";
// MCP Apps (io.modelcontextprotocol/ui): a tool's UI metadata and its ui:// resource.
export {
  APP_MIME_TYPE,
  AppResourceError,
  isAppCallable,
  isAppOnly,
  readToolUi,
  toolUi,
  type AppResource,
  type AppResourceErrorCode,
  type ReadToolUiOptions,
  type ToolUi,
  type ToolVisibility,
} from "./client/apps/apps.ts";
export { DEFAULT_DISCOVER_TIMEOUT_MS } from "./client/negotiation.ts";
export type { ClientState, StateChange } from "./client/client-state.ts";
export {
  CapabilityError,
  ClientStateError,
  HeaderMismatchError,
  InputRoundsExceededError,
  MissingClientCapabilityError,
  OutcomeUnknownError,
  OutputValidationError,
  ProtocolError,
  ProtocolVersionError,
  ResourceNotFoundError,
  UnsupportedProtocolVersionError,
} from "./client/errors.ts";
export type { OutputValidationCode, ProtocolErrorCode } from "./client/errors.ts";
// Tasks (spec 2025-11-25 basic/utilities/tasks; the 2026-07-28 io.modelcontextprotocol/tasks extension)
export { TaskError, TaskFailedError, type TaskErrorCode } from "./client/errors.ts";
export type { TaskInfo, TaskResultOptions, TaskStatus, TaskStatusUpdate, ToolTask } from "./client/tasks/tasks.ts";
export {
  isModernProtocolVersion,
  LATEST_MODERN_PROTOCOL_VERSION,
  LATEST_PROTOCOL_VERSION,
  MODERN_PROTOCOL_VERSIONS,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "./client/protocol-version.ts";
export type {
  LegacyProtocolVersion,
  ModernProtocolVersion,
  ProtocolChoice,
  ProtocolEra,
  ProtocolVersion,
} from "./client/protocol-version.ts";
export { DEFAULT_MAX_INPUT_ROUNDS } from "./client/input-requests.ts";
export type { NotificationFilter } from "./client/subscriptions.ts";
export { paramHeadersOf } from "./transport/mcp-headers.ts";
export { LOGGING_LEVELS } from "./client/types.ts";
export type * from "./client/types.ts";
