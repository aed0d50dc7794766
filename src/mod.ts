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
export {
  DEFAULT_HTTP_CLOSE_TIMEOUT_MS,
  DEFAULT_HTTP_TIMEOUT_MS,
  StreamableHttpTransport,
} from "./transport/streamable-http.ts";
export type { StreamableHttpTransportOptions } from "./transport/streamable-http.ts";
export { HttpStatusError } from "./transport/http-errors.ts";
export { DEFAULT_RECONNECT } from "./transport/sse-reconnect.ts";
export type { ReconnectOptions } from "./transport/sse-reconnect.ts";
export { DEFAULT_ENDPOINT_TIMEOUT_MS, DEFAULT_POST_TIMEOUT_MS, SseLegacyTransport } from "./transport/sse-legacy.ts";
export type { SseLegacyTransportOptions } from "./transport/sse-legacy.ts";
export { AutoHttpTransport } from "./transport/auto-http.ts";
export type { AutoHttpTransportOptions, HttpTransportKind } from "./transport/auto-http.ts";
export { SseParser } from "./transport/sse-parser.ts";
export type { SseEvent, SseParserOptions } from "./transport/sse-parser.ts";
export type { TraceDirection } from "./transport/tracing.ts";

export { Client, ClientEvent, DEFAULT_LOG_BUFFER_SIZE } from "./client/client.ts";
export { applyDefaults, checkRequestedSchema, UrlElicitationRequiredError, validateAnswer } from "./client/elicitation.ts";
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
export type { CallOptions, ClientEvents, ClientEventType, ClientOptions, ListOptions } from "./client/client.ts";
export { DEFAULT_DISCOVER_TIMEOUT_MS } from "./client/client.ts";
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
export { encodeHeaderValue, paramHeadersOf } from "./transport/mcp-headers.ts";
export { LOGGING_LEVELS } from "./client/types.ts";
export type * from "./client/types.ts";

export { DEFAULT_TOOLSET, RegistryEvent, ToolCallError, ToolRegistry } from "./registry/tool-registry.ts";
export type { ToolCallErrorKind } from "./registry/tool-registry.ts";
export { registerMcpServer } from "./registry/mcp-server.ts";
export {
  DEFAULT_NAMING,
  fitToolName,
  isValidToolName,
  MAX_TOOL_NAME_LENGTH,
  namingFormatProblem,
  sanitizeName,
  toolName,
} from "./registry/naming.ts";
export { filterToolNames, globToRegExp, matchesAny } from "./registry/filters.ts";
export type { FilterOutcome, ToolFilter } from "./registry/filters.ts";
export {
  blockText,
  capText,
  DEFAULT_MAX_RESULT_CHARS,
  errorString,
  formatToolResultText,
  formatValueText,
  isCallToolResult,
  resultString,
} from "./registry/result-format.ts";
export type { ResultFormatOptions } from "./registry/result-format.ts";
export type * from "./registry/types.ts";

export { configSearchPaths, loadConfig, parseConfig } from "./host/config.ts";
export type { ConfigFormat, Env as ConfigEnv, LoadConfigOptions, ParseConfigOptions } from "./host/config.ts";
export { ConfigError, DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_TOOL_TIMEOUT_MS } from "./host/config-types.ts";
export type { McpwireConfig, ServerConfig, TransportKind } from "./host/config-types.ts";
export { CONFIG_SCHEMA } from "./host/config-schema.ts";
export { interpolate, InterpolationError } from "./host/interpolate.ts";
export {
  CHILD_ENV_BASELINE,
  CHILD_ENV_BASELINE_PREFIXES,
  CHILD_ENV_BASELINE_WINDOWS,
  childEnvironment,
  isBaselineVariable,
} from "./host/env.ts";
export type { ChildEnvironmentOptions } from "./host/env.ts";
export {
  DEFAULT_CLOSE_TIMEOUT_MS,
  DEFAULT_CONNECT_RETRIES,
  DEFAULT_MAX_RECONNECT_ATTEMPTS,
  DEFAULT_PROBE_INTERVAL_MS,
  ManagerEvent,
  McpManager,
  ServerUnavailableError,
} from "./host/manager.ts";
export type { ManagerEventType, ManagerEvents, McpManagerOptions, ServerState, ServerStatus } from "./host/manager.ts";
export { backoffBase, backoffDelay } from "./host/backoff.ts";
export type { BackoffOptions } from "./host/backoff.ts";
export {
  AnthropicProvider,
  createProvider,
  DEFAULT_PROVIDER_TIMEOUT_MS,
  GoogleProvider,
  ModelStringError,
  OllamaProvider,
  OpenAiProvider,
  parseModelString,
  PROVIDER_NAMES,
  toGeminiSchema,
} from "./host/providers/mod.ts";
export type { CreateProviderOptions, ProviderName, ProviderSettings } from "./host/providers/mod.ts";
export { ProviderError } from "./host/providers/types.ts";
export type { ChatMessage, ChatRequest, ChatResponse, ModelToolCall, Provider } from "./host/providers/types.ts";
export { DEFAULT_MAX_STEPS, HistoryError, Runner, RunnerError } from "./host/runner.ts";
export type { RetryOptions, RunnerErrorKind, RunnerEvent, RunnerOptions, RunnerRegistry, SavedHistory } from "./host/runner.ts";
export { APPROVAL_POLICIES, approvalPolicy, isReadOnly, parseApprovalPolicy, runsWithoutAsking } from "./host/approval.ts";
export type { ApprovalAnswer, ApprovalPolicy, ApprovalRequest, ApproveFunction } from "./host/approval.ts";
export { DEFAULT_HOOK_TIMEOUT_MS, HOOK_EVENTS, HookConfigError, Hooks } from "./host/hooks.ts";
export type { HookCommand, HookEventName, HookInput, HookOutcome, HookProblem, HooksConfig, HooksOptions } from "./host/hooks.ts";
export { chooseModel, mcpStopReason, providerSamplingHandler, toChatMessages } from "./host/provider-sampling.ts";
export type { ProviderSamplingOptions } from "./host/provider-sampling.ts";
export type { ProviderSettings as ConfigProviderSettings } from "./host/config-types.ts";

export {
  createSyncBridge,
  DEFAULT_BRIDGE_CLOSE_TIMEOUT_MS,
  DEFAULT_BRIDGE_START_TIMEOUT_MS,
  SyncBridgeError,
} from "./host/sync-bridge.ts";
export type {
  DispatchSyncOptions,
  SyncBridge,
  SyncBridgeManagerOptions,
  SyncBridgeOptions,
  SyncBridgeSource,
} from "./host/sync-bridge.ts";
export { serveSyncWorker, SyncWorker } from "./registry/sync-bridge.ts";
export type { SyncCallOptions, SyncOutcome, SyncService, SyncWorkerOptions } from "./registry/sync-bridge.ts";

// authorization (issue 8): OAuth for HTTP servers
export * from "./auth/mod.ts";
export {
  clientCredentialsGrant,
  enterpriseManagedGrant,
  exchangeToken,
  GRANT_CLIENT_CREDENTIALS,
  GRANT_JWT_BEARER,
  GRANT_TOKEN_EXCHANGE,
  jwtBearerGrant,
  TOKEN_TYPE,
  tokenEndpointOf,
} from "./auth/grants.ts";
export type {
  ClientCredentialsOptions,
  EnterpriseIdp,
  EnterpriseManagedOptions,
  Grant,
  GrantRequestOptions,
  JwtBearerOptions,
  TokenExchangeRequest,
  TokenExchangeResult,
  TokenSource,
} from "./auth/grants.ts";
export { clientAuthentication, extensionAuth, tokenSource } from "./auth/extensions.ts";
export type { ClientCredentialsConfig, ExtensionAuth, ExtensionConfig, ExtensionGrantConfig, TokenSourceConfig } from "./auth/extensions.ts";
export { accessTokenHash, dpopFetch, isUseDpopNonceChallenge } from "./auth/dpop.ts";
export type { DpopFetchOptions, DpopProofOptions } from "./auth/dpop.ts";
export {
  decodeJwt,
  generateSigningKeyPair,
  importPrivateKey,
  importPublicKey,
  JWS_ALGORITHMS,
  jwkThumbprint,
  JwtKeyError,
  publicJwk,
  signJwt,
  verifyJwt,
} from "./auth/jwt.ts";
export type { DecodedJwt, JwsAlgorithm } from "./auth/jwt.ts";
export { base64UrlDecode, base64UrlEncode } from "./auth/base64url.ts";
export { basicCredentials, CLIENT_ASSERTION_TYPE, DEFAULT_TOKEN_TIMEOUT_MS } from "./auth/token-endpoint.ts";
export { defaultAuthDirectory, dpopSignerFor, serverKey } from "./auth/token-store.ts";
export type { FileTokenStoreOptions, StoredDpopKey } from "./auth/token-store.ts";
export { REDACTED, redactHeaderValue } from "./auth/redact.ts";
