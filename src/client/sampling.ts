// The policy around a sampling handler: token cap, rate limit, model allowlist, timeout,
// tools only when declared — spec 2025-11-25 client/sampling ("Tools in Sampling",
// "Error Handling", "Security Considerations": clients SHOULD implement rate limiting).

import { isObject } from "../common/json.ts";
import { checkOptions, optionNames } from "../common/options.ts";
import { ErrorCode, RpcError } from "../jsonrpc/errors.ts";
import type { HandlerContext, SamplingHandler } from "./handlers.ts";
import type { CreateMessageRequest, CreateMessageResult, JsonObject } from "./types.ts";

/** The limits on a server's sampling requests: tokens, rate, models, tools, timeout. */
export interface SamplingPolicy {
  /** Cap on `maxTokens`: a larger request is lowered to this before the handler sees it. */
  maxTokens?: number;
  /** At most this many sampling requests from this server per rolling minute; more get -1. */
  requestsPerMinute?: number;
  /** Models the handler may answer with; a result naming another model is not sent. */
  models?: string[];
  /** How long the handler may take. Default 5 minutes. */
  timeoutMs?: number;
  /** Declare `sampling.tools` and pass `tools` / `toolChoice` to the handler. Default false. */
  tools?: boolean;
}

export const DEFAULT_SAMPLING_TIMEOUT_MS = 300_000;

/** spec 2025-11-25 client/sampling ("Error Handling"): a user rejection is code -1. */
export const SAMPLING_REJECTED = -1;

/** Throw this from a sampling handler when the user says no; the server gets code -1. */
export class SamplingRejectedError extends RpcError<"user-rejected"> {
  override readonly name = "SamplingRejectedError";
  constructor(message = "User rejected sampling request") {
    super(message, SAMPLING_REJECTED);
  }
}

/** Every setting of a SamplingPolicy (the SamplingGate constructor checks them). */
const SAMPLING_POLICY_OPTIONS = optionNames<SamplingPolicy>({ maxTokens: true, requestsPerMinute: true, models: true, timeoutMs: true, tools: true });

/** Runs one server's sampling requests through the policy, then the handler. */
export class SamplingGate {
  readonly #policy: SamplingPolicy;
  readonly #handler: SamplingHandler;
  readonly #now: () => number;
  /** Start times of the requests in the last minute, oldest first. */
  readonly #recent: number[] = [];

  constructor(handler: SamplingHandler, policy: SamplingPolicy = {}, now: () => number = Date.now) {
    checkOptions("SamplingGate", policy, SAMPLING_POLICY_OPTIONS);
    this.#handler = handler;
    this.#policy = policy;
    this.#now = now;
  }

  async run(params: JsonObject | undefined, context: HandlerContext): Promise<CreateMessageResult> {
    const who = `${context.server}: sampling/createMessage`;
    const request = this.#checkRequest(who, params);
    this.#takeRateSlot(who);

    const timeoutMs = this.#policy.timeoutMs ?? DEFAULT_SAMPLING_TIMEOUT_MS;
    const controller = new AbortController();
    const onAbort = () => controller.abort(context.signal.reason);
    context.signal.addEventListener("abort", onAbort, { once: true });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new RpcError(
          `${who}: the client's sampling handler did not answer within ${timeoutMs} ms; try again or ask the user to raise sampling.timeoutMs`,
          ErrorCode.InternalError,
        );
        controller.abort(error);
        reject(error);
      }, timeoutMs);
    });
    try {
      const result = await Promise.race([
        this.#handler(request, {
          ...context,
          signal: controller.signal,
          ...(this.#policy.models !== undefined ? { allowedModels: this.#policy.models } : {}),
        }),
        timedOut,
      ]);
      return this.#checkResult(who, result);
    } finally {
      clearTimeout(timer);
      context.signal.removeEventListener("abort", onAbort);
    }
  }

  #checkRequest(who: string, params: JsonObject | undefined): CreateMessageRequest {
    if (!isObject(params) || !Array.isArray(params.messages)) {
      throw new RpcError(`${who}: params need a "messages" array`, ErrorCode.InvalidParams);
    }
    if (typeof params.maxTokens !== "number" || !(params.maxTokens > 0)) {
      throw new RpcError(`${who}: params need a positive "maxTokens"`, ErrorCode.InvalidParams);
    }
    // spec 2025-11-25 client/sampling ("Tools in Sampling"): servers MUST NOT send tools
    // unless the client declared sampling.tools; we refuse them as invalid params.
    if (!this.#policy.tools && (params.tools !== undefined || params.toolChoice !== undefined)) {
      throw new RpcError(
        `${who}: the request has "tools"/"toolChoice" but this client did not declare the sampling.tools capability; send it without tools`,
        ErrorCode.InvalidParams,
      );
    }
    const request = { ...params } as CreateMessageRequest;
    // spec 2025-11-25 client/sampling: includeContext "thisServer"/"allServers" is
    // soft-deprecated and we do not declare sampling.context, so it is ignored.
    delete request.includeContext;
    const cap = this.#policy.maxTokens;
    if (cap !== undefined && request.maxTokens > cap) request.maxTokens = cap;
    return request;
  }

  /** spec 2025-11-25 client/sampling ("Security Considerations" 4): rate limiting. */
  #takeRateSlot(who: string): void {
    const limit = this.#policy.requestsPerMinute;
    if (limit === undefined) return;
    const now = this.#now();
    while (this.#recent.length > 0 && this.#recent[0]! <= now - 60_000) this.#recent.shift();
    if (this.#recent.length >= limit) {
      const retryInS = Math.ceil((this.#recent[0]! + 60_000 - now) / 1000);
      throw new RpcError(
        `${who}: rejected by the client's rate limit (${limit} sampling requests per minute); retry in ${retryInS} s`,
        SAMPLING_REJECTED,
      );
    }
    this.#recent.push(now);
  }

  #checkResult(who: string, result: unknown): CreateMessageResult {
    const invalid = (detail: string) => new RpcError(`${who}: the client's sampling handler ${detail}; nothing was sent`, ErrorCode.InternalError);
    if (!isObject(result)) throw invalid("returned no object");
    if (result.role !== "assistant" && result.role !== "user") throw invalid(`returned role ${JSON.stringify(result.role)}`);
    if (typeof result.model !== "string") throw invalid(`returned no "model" name`);
    if (!isObject(result.content) && !Array.isArray(result.content)) throw invalid(`returned no "content"`);
    const models = this.#policy.models;
    if (models !== undefined && !models.includes(result.model)) {
      throw invalid(`answered with model "${result.model}", which is not in the allowed models (${models.join(", ")})`);
    }
    return result as CreateMessageResult;
  }
}
