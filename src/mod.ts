// mcpwire — a from-scratch Model Context Protocol client toolkit for Node and Deno.
// The public entry: everything an embedder imports comes from here.

export { ConnectionClosedError, ErrorCode, errorCodeName, RequestTimeoutError, RpcError } from "./jsonrpc/errors.ts";
export type { CloseDetails } from "./jsonrpc/errors.ts";
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
} from "./jsonrpc/peer.ts";

export { TransportError } from "./transport/transport.ts";
export type { Transport } from "./transport/transport.ts";
export { DEFAULT_INHERITED_ENV_VARS, defaultChildEnv, StdioTransport } from "./transport/stdio.ts";
export type { StdioTransportOptions } from "./transport/stdio.ts";
export { MemoryTransport } from "./transport/memory.ts";
export { TracingTransport } from "./transport/tracing.ts";
export type { TraceDirection } from "./transport/tracing.ts";

export { Client, ClientEvent } from "./client/client.ts";
export type { CallOptions, ClientEvents, ClientEventType, ClientOptions } from "./client/client.ts";
export type { ClientState, StateChange } from "./client/client-state.ts";
export {
  CapabilityError,
  ClientStateError,
  OutputValidationError,
  ProtocolError,
  ProtocolVersionError,
} from "./client/errors.ts";
export {
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "./client/protocol-version.ts";
export type { ProtocolVersion } from "./client/protocol-version.ts";
export { LOGGING_LEVELS } from "./client/types.ts";
export type * from "./client/types.ts";
