// Prompts and argument completion, the client's side — spec 2025-11-25 server/prompts ("Listing
// Prompts", "Getting a Prompt") and server/utilities/completion. Client's methods call these
// with their context (client-context.ts).

import type { Params, RequestOptions } from "../jsonrpc/peer.ts";
import { type ClientContext, lacksCapability, requireCapability } from "./client-context.ts";
import { ProtocolError } from "./errors.ts";
import { collectPages, DEFAULT_MAX_PAGES } from "./pagination.ts";
import { featuresOf } from "./protocol-version.ts";
import type { CompleteReference, CompleteResult, GetPromptResult, Prompt } from "./types.ts";

/** prompts/list, every page; [] without the prompts capability. */
export function listPrompts(context: ClientContext, options: RequestOptions): Promise<Prompt[]> {
  if (lacksCapability(context, "prompts")) return Promise.resolve([]);
  return collectPages<Prompt>(
    `${context.name}: prompts/list`,
    "prompts/list",
    "prompts",
    (cursor) => context.request("prompts/list", cursor === undefined ? undefined : { cursor }, options),
    context.options.maxPages ?? DEFAULT_MAX_PAGES,
  );
}

/** prompts/get, its answer checked for `messages`. */
export async function getPrompt(context: ClientContext, name: string, args: Record<string, string>, options: RequestOptions): Promise<GetPromptResult> {
  requireCapability(context, "prompts", "prompts/get");
  const result = await context.request("prompts/get", { name, arguments: args }, options);
  if (!Array.isArray(result.messages)) {
    // spec 2025-11-25 schema: GetPromptResult requires messages.
    throw new ProtocolError(`${context.name}: prompts/get "${name}" returned no "messages" array, which the spec requires`, "bad-result", {
      method: "prompts/get",
    });
  }
  return result as GetPromptResult;
}

/** completion/complete, its answer checked for `completion.values`. */
export async function complete(
  context: ClientContext,
  ref: CompleteReference,
  argument: { name: string; value: string },
  completionContext: { arguments?: Record<string, string> } | undefined,
  options: RequestOptions,
): Promise<CompleteResult> {
  // Before 2025-03-26 servers did not advertise completion; the method still existed.
  if (context.version !== undefined && featuresOf(context.version).completionsCapability) {
    requireCapability(context, "completions", "completion/complete");
  }
  const params: Params = { ref, argument };
  if (completionContext !== undefined) params.context = completionContext;
  const result = await context.request("completion/complete", params, options);
  const completion = result.completion as CompleteResult | undefined;
  if (typeof completion !== "object" || completion === null || !Array.isArray(completion.values)) {
    // spec 2025-11-25 schema: CompleteResult requires completion.values.
    throw new ProtocolError(`${context.name}: completion/complete returned no "completion.values" array, which the spec requires`, "bad-result", {
      method: "completion/complete",
    });
  }
  return completion;
}
