// A bounded call of a built-in tool: its handler run with context.timeoutMs and context.signal
// enforced. The handler gets a signal that aborts on either, and the call settles at once even if
// the handler ignores it.

import type { JsonObject } from "../client/types.ts";
import { durationText } from "../common/duration.ts";
import { cancelled, describeTool } from "./call-failure.ts";
import { ToolCallError } from "./tool-call-error.ts";
import type { RegisteredTool, ToolCallContext, ToolDefinition, ToolOutput } from "./types.ts";

/** setTimeout holds a signed 32-bit delay; longer limits are treated as none. */
const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/** Runs `handler` (the built-in `tool`'s) bounded by context.timeoutMs and context.signal. */
export function runBounded(tool: RegisteredTool, handler: ToolDefinition["handler"], args: JsonObject, context: ToolCallContext): Promise<ToolOutput> {
  const outer = context.signal;
  const timeoutMs = context.timeoutMs;
  return new Promise<ToolOutput>((resolve, reject) => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = () => {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onAbort);
    };
    const onAbort = () => {
      finish();
      const error = cancelled(tool, outer!);
      controller.abort(error);
      reject(error);
    };
    outer?.addEventListener("abort", onAbort, { once: true });
    if (timeoutMs !== undefined && Number.isFinite(timeoutMs) && timeoutMs <= MAX_TIMER_DELAY_MS) {
      timer = setTimeout(() => {
        finish();
        const error = new ToolCallError(
          `${describeTool(tool)}: timed out after ${durationText(timeoutMs)}; raise the timeout or check the tool's handler`,
          "timeout",
          { tool: tool.name, origin: tool.origin },
        );
        controller.abort(error);
        reject(error);
      }, Math.max(0, timeoutMs));
    }
    Promise.resolve()
      .then(() => handler(args, { ...context, signal: controller.signal }))
      .then(
        (value) => {
          finish();
          resolve(value);
        },
        (error: unknown) => {
          finish();
          reject(error);
        },
      );
  });
}
