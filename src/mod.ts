// mcpwire — a from-scratch Model Context Protocol client toolkit for Node and Deno.
// The root entry (`mcpwire`): the minimal client — JSON-RPC, the transports, `Client`, their
// errors and types. It loads no yaml, model provider, OAuth or worker module; the other layers
// have entries of their own: `mcpwire/registry`, `mcpwire/host`, `mcpwire/agent`, `mcpwire/auth`.
// What an embedder names, and nothing internal: api/mcpwire.api.md lists it (`npm run api`).

// JSON-RPC 2.0: messages, errors, the line framer and the Peer
export { ConnectionClosedError, ErrorCode, RequestAbortedError, RequestTimeoutError, RpcError, UndeliverableResponseError } from "./jsonrpc/errors.ts";
export type { CloseDetails, JsonRpcErrorCode, UndeliverableReason, UndeliverableResponse } from "./jsonrpc/errors.ts";
export type { JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse, RequestId } from "./jsonrpc/messages.ts";
export { LineDecoder } from "./jsonrpc/line-decoder.ts";
export { Peer } from "./jsonrpc/peer.ts";
export type { Params, PeerOptions, Progress, RequestOptions, SendOptions } from "./jsonrpc/peer.ts";

// The base of every mcpwire error: test `code`, a named value (README "Errors").
export { McpwireError } from "./common/mcpwire-error.ts";
export type { McpwireErrorOptions } from "./common/mcpwire-error.ts";

// A misspelt or missing option of a constructor (StdioTransport, Client, …): code "invalid-options".
export { InvalidOptionsError } from "./common/options.ts";

// Transports
export { TransportError, UndeliverableMessageError } from "./transport/transport.ts";
export type { ClientTransport, HttpTransportHooks, Transport, TransportErrorCode } from "./transport/transport.ts";
export { StdioTransport } from "./transport/stdio.ts";
export type { StdioTransportOptions } from "./transport/stdio.ts";
export type { EnvMode } from "./transport/child-env.ts";
export { StreamableHttpTransport } from "./transport/streamable-http/mod.ts";
export type { StreamableHttpTransportOptions } from "./transport/streamable-http/mod.ts";
export { SseLegacyTransport } from "./transport/sse-legacy.ts";
export type { SseLegacyTransportOptions } from "./transport/sse-legacy.ts";
export { AutoHttpTransport } from "./transport/auto-http.ts";
export type { AutoHttpTransportOptions, HttpTransportKind } from "./transport/auto-http.ts";
export { HttpStatusError } from "./transport/http-errors.ts";
export type { HttpErrorCode } from "./transport/http-errors.ts";
export { MemoryTransport } from "./transport/memory.ts";
export { TracingTransport } from "./transport/tracing.ts";
export type { TraceFn, TracingOptions } from "./transport/tracing.ts";
// ClientOptions.trace and McpManagerOptions.trace: the trace event model (version 1), one event per message, HTTP exchange, process event, lifecycle step
export type { TraceEvent, TraceSink } from "./transport/trace-event.ts";

// The client, its options, events and errors
export { Client } from "./client/client.ts";
export type { CallOptions, ClientOptions, ListOptions } from "./client/client-options.ts";
export { ClientEvent } from "./client/client-events.ts";
export type { ClientEvents } from "./client/client-events.ts";
export type { ClientState, StateChange } from "./client/client-state.ts";
export { MemoryEraCache } from "./client/era-cache.ts";
export type { EraCache } from "./client/era-cache.ts";
export type { ConnectOptions } from "./client/client-connection.ts";
export { EXTENSIONS } from "./client/extension-negotiation.ts";
export type { ExtensionOptions } from "./client/extension-negotiation.ts";
export type { ElicitationHandlers, HandlerContext, RootsHandler, SamplingHandler } from "./client/handlers.ts";
export { UrlElicitationRequiredError } from "./client/elicitation.ts";
export { SamplingRejectedError } from "./client/sampling.ts";
export type { SamplingPolicy } from "./client/sampling.ts";
export type { RootInput } from "./client/roots.ts";
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
export type { ClientErrorCode } from "./client/errors.ts";
export type { ProtocolChoice, ProtocolEra, ProtocolVersion } from "./client/protocol-version.ts";

// Tasks (spec 2025-11-25 basic/utilities/tasks; the 2026-07-28 io.modelcontextprotocol/tasks extension)
export { TaskError, TaskFailedError } from "./client/errors.ts";
export type { TaskInfo, TaskStatus, TaskStatusUpdate, ToolTask } from "./client/tasks/tasks.ts";
export { tasksExtension, tasksOf } from "./client/tasks/tasks-extension.ts";

// MCP Apps (io.modelcontextprotocol/ui): a tool's UI metadata and its ui:// resource.

// The MCP types an embedder names most (spec 2025-11-25 schema); the others are reachable
// through these (`CallToolResult["content"][number]`).
export type {
  CallToolResult,
  ClientCapabilities,
  ContentBlock,
  CreateMessageRequest,
  CreateMessageResult,
  ElicitFormRequest,
  ElicitResult,
  GetPromptResult,
  ImageContent,
  Implementation,
  JsonObject,
  LoggingLevel,
  LogMessage,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Root,
  ServerCapabilities,
  TextContent,
  Tool,
} from "./client/types.ts";
