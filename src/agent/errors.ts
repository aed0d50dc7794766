// The agent layer's error codes in one union. The classes live with what they are about:
// HistoryError (history.ts), HookConfigError (hooks.ts), RunnerError (runner.ts),
// ModelStringError (providers/model-string.ts), ProviderError (providers/types.ts).

import type { HistoryErrorCode } from "./history.ts";
import type { HookConfigErrorCode } from "./hooks.ts";
import type { ModelStringErrorCode } from "./providers/model-string.ts";
import type { ProviderErrorCode } from "./providers/types.ts";
import type { RunnerErrorCode } from "./runner.ts";

/** Every code of the agent layer's errors: a run's, a provider's, a model string's, a history's or a hook config's. */
export type AgentErrorCode = RunnerErrorCode | ProviderErrorCode | ModelStringErrorCode | HistoryErrorCode | HookConfigErrorCode;
