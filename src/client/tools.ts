// Tools as the client checks them: a tools/list indexed by name (a tool without one refused, one
// whose x-mcp-header annotations break the rules left out), and a tools/call result checked —
// `content` as the schema requires, structuredContent against the tool's outputSchema — spec
// 2025-11-25 server/tools ("Listing Tools", "Tool Result", "Output Schema"), schema Tool and
// CallToolResult; spec 2026-07-28 streamable-http ("Custom Headers from Tool Parameters").

import { isObject } from "../common/json.ts";
import type { Params } from "../jsonrpc/peer.ts";
import { paramHeadersOf } from "./request-headers.ts";
import { OutputValidationError, ProtocolError } from "./errors.ts";
import type { OutputValidators } from "./output-validator.ts";
import type { CallToolResult, JsonObject, Tool } from "./types.ts";

/**
 * The tools of a tools/list, and the same by name. On the 2026-07-28 wire (`modern`) a tool whose
 * inputSchema breaks the x-mcp-header rules is left out, and `onProblem` says so.
 */
export function indexTools(
  server: string,
  listed: Tool[],
  modern: boolean,
  onProblem: (message: string) => void,
): { tools: Tool[]; byName: Map<string, Tool> } {
  const tools = modern
    ? listed.filter((tool) => {
      const headers = paramHeadersOf(tool?.inputSchema);
      if (!("problem" in headers)) return true;
      onProblem(`${server}: tool ${JSON.stringify(tool?.name)} left out: its inputSchema is invalid: ${headers.problem}`);
      return false;
    })
    : listed;
  const byName = new Map<string, Tool>();
  for (const tool of tools) {
    // spec 2025-11-25 schema: Tool requires name (and inputSchema, left to the caller to judge).
    if (typeof tool?.name !== "string") {
      throw new ProtocolError(`${server}: tools/list returned a tool without a name`, "bad-result", { method: "tools/list" });
    }
    byName.set(tool.name, tool);
  }
  return { tools, byName };
}

/** What checking one result needs to know. */
export interface ToolResultCheck {
  /** Names the server in messages. */
  server: string;
  tool: string;
  /** The tool's outputSchema from the last tools/list; undefined skips the structured check. */
  outputSchema: JsonObject | undefined;
  validators: OutputValidators;
  /**
   * The negotiated version, when it says structuredContent is a JSON object (2025-06-18 to
   * 2025-11-25): any other value is reported through `onProblem` and the result kept as it is.
   */
  objectOnly?: string;
  onProblem?: (message: string) => void;
}

/** The result as a CallToolResult, or the ProtocolError / OutputValidationError that says what is wrong. */
export function checkToolResult(result: Params, { server, tool, outputSchema, validators, objectOnly, onProblem }: ToolResultCheck): CallToolResult {
  const who = `${server}: tools/call "${tool}"`;
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
    throw new ProtocolError(`${who} returned "content" that is not an array (${kindOf(result.content)})`, "bad-result", { method: "tools/call" });
  }
  // structuredContent is left as it is: an object up to 2025-11-25, any JSON value from
  // 2026-07-28 on (spec 2026-07-28 server/tools "Structured Content"); an outputSchema judges it below.
  const checked = result as CallToolResult;
  if (checked.isError === true || outputSchema === undefined) {
    // spec 2025-11-25 server/tools ("Structured Content"; schema CallToolResult): a JSON object.
    // Without an outputSchema to refuse it, the result stands, its text content unchanged.
    const structured: unknown = checked.structuredContent;
    if (objectOnly !== undefined && structured !== undefined && !isObject(structured)) {
      onProblem?.(
        `${who} returned structuredContent that is not a JSON object (${kindOf(structured)}), which protocol ${objectOnly} ` +
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
      { tool, errors: [{ path: "", message: "structuredContent is missing" }] },
    );
  }
  const outcome = validators.judge(tool, outputSchema, checked.structuredContent);
  if (outcome === undefined) return checked;
  if ("unchecked" in outcome) {
    throw new OutputValidationError(
      `${server}: tool "${tool}" returned structuredContent that could not be checked against its outputSchema: ` +
        `${outcome.unchecked}; the result is refused (ask the server's authors to return flatter data)`,
      "output-unchecked",
      { tool, errors: [{ path: "", message: outcome.unchecked }] },
    );
  }
  throw new OutputValidationError(
    `${server}: tool "${tool}" returned structuredContent that does not match its outputSchema: ` +
      outcome.failures.map((failure) => failure.message).join("; "),
    "output-mismatch",
    { tool, errors: outcome.failures },
  );
}

/** What kind of JSON value this is, for error messages: "a string", "null", "an array". */
function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}
