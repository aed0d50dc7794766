// What comes back: the answers link of a client's chain (docs/architecture.md, "The chain") —
// every failed request's error typed (an RpcError code that has a class of its own, spec
// 2026-07-28 basic/index "Error Codes"; a URL elicitation the server requires, spec 2025-11-25
// client/elicitation "URL Elicitation Required Error"), and every tools/call result checked:
// `content` as the schema requires, structuredContent against the tool's outputSchema — spec
// 2025-11-25 server/tools ("Tool Result", "Output Schema"), schema CallToolResult. It sits
// inside the extensions' links, so a task's polls are typed too, and outside the era's link, so
// it sees one final answer per call, whatever the wire did to get it.

import { isObject, jsonKind } from "../common/json.ts";
import type { Middleware, Send } from "../jsonrpc/middleware.ts";
import type { Params } from "../jsonrpc/peer.ts";
import type { PassThroughOptions } from "./client-options.ts";
import { surfaceUrlElicitation } from "./elicitation.ts";
import { OutputValidationError, ProtocolError, typedRpcError } from "./errors.ts";
import type { OutputValidators } from "./schema/output-validator.ts";
import type { CallToolResult, Tool } from "./types.ts";

/** What the answers link reads of its connection, each time (client-connection.ts keeps it current). */
export interface AnswersView {
  /** Names the server in messages. */
  readonly name: string;
  /** The last full tool listing, by name: where outputSchemas are looked up. */
  readonly tools: ReadonlyMap<string, Tool>;
  /** Whether an outputSchema applies at the negotiated version (2025-06-18 on). */
  readonly structuredOutput: boolean;
  /** The negotiated version, when it says structuredContent is a JSON object (2025-06-18 to 2025-11-25). */
  readonly objectOnly: string | undefined;
  readonly validators: OutputValidators;
  readonly reportProblem: (message: string) => void;
  /** URL-mode elicitation ids seen and not completed: a -32042 error opens them. */
  readonly openElicitations: Set<string>;
  /** tools/call and ping requests answered with a result (Client.answeredCalls). */
  answered: number;
}

/**
 * The answers link: errors typed on every request, tools/call results checked and counted.
 * A tools/call answered with a task (a CreateTaskResult; 2026-07-28 `resultType: "task"`) is
 * passed on unchecked: the tasks extension's link, outside this one, follows it to its result.
 */
export function answersLink(c: AnswersView): Middleware {
  // Made once: a tools/call's rejection handler needs nothing of the call.
  const callFailed = (error: unknown): never => failed(c, "tools/call", error);
  return {
    name: "answers",
    send: (next: Send): Send => (method, params, options) => {
      if (method !== "tools/call") {
        const sent = next(method, params, options);
        return method === "ping"
          ? sent.then((result) => (c.answered++, result), (error: unknown) => failed(c, method, error))
          : sent.catch((error: unknown) => failed(c, method, error));
      }
      // The plain tool call's path: one closure (the result's, which needs the tool's name).
      return next(method, params, options).then(
        (result) => {
          c.answered++;
          if (result.resultType === "task" || (params?.task !== undefined && isObject(result.task))) return result;
          // A bridge's pass-through (PassThroughOptions): the host answers it. Any other is checked (and refused) as a result.
          if (result.resultType === "input_required" && (options as PassThroughOptions).inputRequired === "return") return result;
          return checkToolResult(c, result, params!.name as string) as Params | Promise<Params>;
        },
        callFailed,
      );
    },
  };
}

/** A failed request's error, typed: never returns. */
function failed(c: AnswersView, what: string, error: unknown): never {
  throw surfaceUrlElicitation(`${c.name}: ${what}`, typedRpcError(error), c.openElicitations);
}

/**
 * A tools/call result checked, as the answers link and a task's final result (client-connection.ts
 * toolResult) both take it: the CallToolResult, or the ProtocolError / OutputValidationError that
 * says what is wrong. At once (no promise) unless the tool's outputSchema needs the validators
 * loaded first (once per process). `tool` undefined (a resumed task of unknown tool) skips the
 * outputSchema.
 */
export function checkToolResult(c: AnswersView, result: Params, tool: string | undefined, loaded = false): CallToolResult | Promise<CallToolResult> {
  const server = c.name;
  const validators = c.validators;
  const objectOnly = c.objectOnly;
  const outputSchema = c.structuredOutput && tool !== undefined ? c.tools.get(tool)?.outputSchema : undefined;
  if (outputSchema !== undefined && !loaded) return validators.load().then(() => checkToolResult(c, result, tool, true));
  const who = `${server}: tools/call "${tool ?? "(resumed task)"}"`;
  // spec 2025-11-25 schema (and 2026-07-28, 2025-06-18, 2024-11-05): CallToolResult requires
  // `content`, an array — also beside structuredContent ("SHOULD also return the serialized JSON").
  if (result.content === undefined) {
    throw new ProtocolError(
      `${who} returned a result without "content", which the spec requires (an array, empty if need be); ` +
        `the server is not following the protocol: report it to its authors`,
      "bad-result",
      { method: "tools/call" },
    );
  }
  if (!Array.isArray(result.content)) {
    throw new ProtocolError(`${who} returned "content" that is not an array (${jsonKind(result.content)})`, "bad-result", { method: "tools/call" });
  }
  // structuredContent is left as it is: an object up to 2025-11-25, any JSON value from
  // 2026-07-28 on (spec 2026-07-28 server/tools "Structured Content"); an outputSchema judges it below.
  const checked = result as CallToolResult;
  if (checked.isError === true || outputSchema === undefined) {
    // spec 2025-11-25 server/tools ("Structured Content"; schema CallToolResult): a JSON object.
    // Without an outputSchema to refuse it, the result stands, its text content unchanged.
    const structured: unknown = checked.structuredContent;
    if (objectOnly !== undefined && structured !== undefined && !isObject(structured)) {
      c.reportProblem(
        `${who} returned structuredContent that is not a JSON object (${jsonKind(structured)}), which protocol ${objectOnly} ` +
          `requires (spec ${objectOnly} server/tools, "Structured Content"); the result is used as it is, its text content unchanged; ` +
          `the server is not following the protocol: report it to its authors`,
      );
    }
    return checked; // tool errors are not validated
  }
  // spec 2025-11-25 server/tools: with an outputSchema, servers MUST return conforming structuredContent.
  if (checked.structuredContent === undefined) {
    throw new OutputValidationError(
      `${server}: tool "${tool}" declares an outputSchema but returned no structuredContent`,
      "output-missing",
      { tool: tool!, errors: [{ path: "", message: "structuredContent is missing" }] },
    );
  }
  const outcome = validators.judge(tool!, outputSchema, checked.structuredContent);
  if (outcome === undefined) return checked;
  if ("unchecked" in outcome) {
    throw new OutputValidationError(
      `${server}: tool "${tool}" returned structuredContent that could not be checked against its outputSchema: ` +
        `${outcome.unchecked}; the result is refused (ask the server's authors to return flatter data)`,
      "output-unchecked",
      { tool: tool!, errors: [{ path: "", message: outcome.unchecked }] },
    );
  }
  throw new OutputValidationError(
    `${server}: tool "${tool}" returned structuredContent that does not match its outputSchema: ` +
      outcome.failures.map((failure) => failure.message).join("; "),
    "output-mismatch",
    { tool: tool!, errors: outcome.failures },
  );
}
