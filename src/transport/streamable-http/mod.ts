// The Streamable HTTP client transport — spec 2025-11-25 basic/transports ("Streamable HTTP"),
// and its stateless form of 2026-07-28. Read in this order: streamable-http-options.ts (what can be set),
// wire.ts (what the parts share), streamable-http.ts (POST, answers, sessions, close),
// sse-stream.ts (reading and resuming SSE streams), stateless.ts (the 2026-07-28 wire),
// abort.ts (cancellation).

export { StreamableHttpTransport } from "./streamable-http.ts";
export { DEFAULT_HTTP_CLOSE_TIMEOUT_MS, DEFAULT_HTTP_TIMEOUT_MS } from "./streamable-http-options.ts";
export type { StreamableHttpTransportOptions } from "./streamable-http-options.ts";
