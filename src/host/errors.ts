// The host layer's error codes in one union. The classes live with what they are about:
// ConfigError (config/types.ts), InterpolationError (interpolate.ts), ServerUnavailableError
// (server-status.ts, a ClientStateError of the client layer with host codes), ServerConnectionError
// (server-status.ts), TraceReadError
// (trace-reader.ts), ReplayError (replay.ts), SandboxError (sandbox-availability.ts).

import type { InterpolationErrorCode } from "./config/interpolate.ts";
import type { ConfigErrorCode } from "./config/types.ts";
import type { SandboxErrorCode } from "./sandbox/sandbox-availability.ts";
import type { ServerConnectionErrorCode, ServerUnavailableCode } from "./servers/server-status.ts";
import type { ReplayErrorCode } from "./trace/replay.ts";
import type { TraceReadErrorCode } from "./trace/trace-reader.ts";

/** Every code of the host layer's errors: ConfigError's, InterpolationError's, ServerUnavailableError's, ServerConnectionError's, TraceReadError's, ReplayError's and SandboxError's. */
export type HostErrorCode =
  | ConfigErrorCode
  | InterpolationErrorCode
  | ServerUnavailableCode
  | ServerConnectionErrorCode
  | TraceReadErrorCode
  | ReplayErrorCode
  | SandboxErrorCode;
