// The calls family: a tools/call answer judged against the tool as it was listed — its content
// items of the types the negotiated version defines, base64 that decodes, `isError` a boolean,
// structuredContent that conforms to the tool's outputSchema and is repeated as text, and the
// two ways of failing (a JSON-RPC error for an unknown tool, `isError` for the tool's own
// failure) — spec 2025-11-25 server/tools ("Tool Result", "Structured Content", "Output Schema",
// "Error Handling") and schema (CallToolResult). A call has side effects: the check makes one
// only when asked (`--call`, `--call-read-only`); tool-arguments.ts makes the arguments.

import { interpretingValidator } from "../client/schema/interpreting-validator.ts";
import { jsonEqual } from "../client/schema/json-equal.ts";
import { OutputValidators } from "../client/schema/output-validator.ts";
import { dialectOf } from "../client/schema/schema-validator.ts";
import type { JsonObject } from "../client/types.ts";
import { isObject, jsonKind } from "../common/json.ts";
import { clipJson, clipText } from "../common/preview.ts";
import { type Judge, type Rule, rule, type Seen, type SeenMessage } from "./rule.ts";

const TOOLS_2025 = (section: string) => ({ source: "2025-11-25", page: "server/tools", section }) as const;

/** The rules judgeCallResult reports (area `calls`). */
export const CallRules = {
  contentItems: rule(
    "calls/content-items",
    "MUST",
    "A tool result's content is an array of content items of the version's types, each with its required fields",
    TOOLS_2025("Tool Result"),
    "Return content as an array of {type:'text',text}, {type:'image'|'audio',data,mimeType}, {type:'resource_link',uri,name} or " +
      "{type:'resource',resource:{uri,text|blob}} items, only of the types the negotiated version defines.",
  ),
  base64: rule(
    "calls/base64-data",
    "MUST",
    "Image and audio data and embedded blobs are valid base64",
    { source: "2025-11-25", page: "schema", section: "ImageContent" },
    "Encode binary data with standard base64 (RFC 4648 §4: A–Z a–z 0–9 + /, padded with =), not base64url, not a data: URL, not raw text.",
  ),
  isErrorBoolean: rule(
    "calls/is-error-boolean",
    "MUST",
    "isError, when present, is a boolean",
    { source: "2025-11-25", page: "schema", section: "CallToolResult" },
    'Set "isError": true or false (a JSON boolean), not a string or a number.',
  ),
  outputSchema: rule(
    "calls/output-schema",
    "MUST",
    "A tool with an outputSchema returns structuredContent that conforms to it",
    TOOLS_2025("Output Schema"),
    "Return structuredContent on every successful call of a tool that declares an outputSchema, shaped as that schema says " +
      "(or correct the schema to what the tool returns).",
  ),
  structuredText: rule(
    "calls/structured-content-text",
    "SHOULD",
    "A result with structuredContent also holds it serialized as JSON in a text item",
    TOOLS_2025("Structured Content"),
    "Add a {type:'text', text: JSON.stringify(structuredContent)} item to content, for clients that read only content.",
  ),
  unknownToolError: rule(
    "calls/unknown-tool-error",
    "SHOULD",
    "A call of a tool the server does not list is answered with a JSON-RPC error",
    TOOLS_2025("Error Handling"),
    'Answer a tools/call for an unknown name with a protocol error (-32602, "Unknown tool: …"), not with a result.',
  ),
  toolErrorInResult: rule(
    "calls/tool-error-in-result",
    "SHOULD",
    "A tool's own failure on arguments its inputSchema accepts is a result with isError: true, not a JSON-RPC error",
    // The schema's words (CallToolResult.isError): "Any errors that originate from the tool SHOULD be reported inside the result".
    { source: "2025-11-25", page: "schema", section: "CallToolResult" },
    "Report input validation, API and business-logic failures as a result with isError: true and a text item saying what went wrong, " +
      "so that the model can correct itself; keep JSON-RPC errors for unknown tools and malformed requests.",
  ),
} as const;

/** What judgeCallResult knows of the call besides the tool and its answer. */
export interface CallContext {
  /** The negotiated version (which content types exist; whether outputSchema applies). Default "2025-11-25". */
  protocolVersion?: string;
  /** The arguments the call was made with (to tell a tool's failure on valid arguments). */
  arguments?: unknown;
}

/** Content item types by the version that introduced them (schema ContentBlock of each revision). */
const CONTENT_TYPES: readonly { type: string; since: string }[] = [
  { type: "text", since: "2024-11-05" },
  { type: "image", since: "2024-11-05" },
  { type: "resource", since: "2024-11-05" },
  { type: "audio", since: "2025-03-26" },
  { type: "resource_link", since: "2025-06-18" },
];
/** outputSchema and structuredContent: 2025-06-18 on. */
const STRUCTURED_SINCE = "2025-06-18";
/** RFC 4648 §4 base64, padded; whitespace is not allowed inside. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** Items judged per result, and places reported per rule. */
const MAX_ITEMS = 1000;
const MAX_PLACES = 3;
/** Text items longer than this are not parsed to compare with structuredContent. */
const MAX_TEXT_PARSED = 4 * 1024 * 1024;

/** Reports a rule's places, at most MAX_PLACES of them, or its pass. */
function report(judge: Judge, target: Rule, places: { detail: string; seen: Seen }[]): void {
  if (places.length === 0) return judge.pass(target);
  places.slice(0, MAX_PLACES).forEach((place, at, shown) => {
    const more = at === shown.length - 1 && places.length > shown.length ? ` (and ${places.length - shown.length} more)` : "";
    judge.fail(target, place.detail + more, place.seen);
  });
}

/** What is wrong with one content item at `version`, with the pointer inside it; undefined when nothing. */
function itemProblem(item: unknown, version: string): { detail: string; at: string } | undefined {
  if (!isObject(item)) return { detail: `is ${jsonKind(item)}, not a content item object`, at: "" };
  const type = item.type;
  if (typeof type !== "string") return { detail: `has no string "type"`, at: "/type" };
  const known = CONTENT_TYPES.find((each) => each.type === type);
  if (known === undefined) return { detail: `has type "${clipText(type, 40)}", which no version of MCP defines`, at: "/type" };
  if (version < known.since) return { detail: `has type "${type}", which protocol ${version} does not define (it came with ${known.since})`, at: "/type" };
  const needs = (field: string, value: unknown = item[field]) =>
    typeof value === "string"
      ? undefined
      : { detail: `(${type}) has ${value === undefined ? "no" : `a non-string (${jsonKind(value)})`} "${field}"`, at: `/${field}` };
  switch (type) {
    case "text":
      return needs("text");
    case "image":
    case "audio":
      return needs("data") ?? needs("mimeType");
    case "resource_link":
      return needs("uri") ?? needs("name");
    default: {
      const resource = item.resource;
      if (!isObject(resource)) {
        return { detail: `(resource) has ${resource === undefined ? "no" : `a non-object (${jsonKind(resource)})`} "resource"`, at: "/resource" };
      }
      if (typeof resource.uri !== "string") return { detail: `(resource) has a resource without a string "uri"`, at: "/resource/uri" };
      if (typeof resource.text !== "string" && typeof resource.blob !== "string") {
        return { detail: `(resource) has a resource with neither a string "text" nor a string "blob"`, at: "/resource" };
      }
      return undefined;
    }
  }
}

/** The base64 fields of an item: [pointer inside the item, value]. */
function base64Fields(item: Record<string, unknown>): [string, string][] {
  if ((item.type === "image" || item.type === "audio") && typeof item.data === "string") return [["/data", item.data]];
  if (item.type === "resource" && isObject(item.resource) && typeof item.resource.blob === "string") return [["/resource/blob", item.resource.blob]];
  return [];
}

function isBase64(text: string): boolean {
  return text.length % 4 === 0 && BASE64.test(text);
}

/** The tool's name and schemas as listed, read defensively (the listing is untrusted). */
function toolOf(tool: unknown): { name: string; inputSchema?: JsonObject; outputSchema?: JsonObject } | undefined {
  if (!isObject(tool) || typeof tool.name !== "string") return undefined;
  return {
    name: tool.name,
    ...(isObject(tool.inputSchema) ? { inputSchema: tool.inputSchema } : {}),
    ...(isObject(tool.outputSchema) ? { outputSchema: tool.outputSchema } : {}),
  };
}

/** Whether `value` conforms to `schema` (the interpreting validator: synchronous, nothing to load); undefined when it cannot be told. */
export function conforms(schema: JsonObject, value: unknown): boolean | undefined {
  const dialect = dialectOf(schema);
  if (dialect === undefined) return undefined;
  try {
    return interpretingValidator.compile(schema, dialect)(value) === undefined;
  } catch {
    return undefined;
  }
}

/**
 * Judges one tools/call answer (`answer`, as seen on the wire) against the tool as listed (`tool`:
 * undefined when the server does not list it) and reports CallRules into `judge`.
 */
export async function judgeCallResult(tool: unknown, answer: SeenMessage, judge: Judge, context: CallContext = {}): Promise<void> {
  const version = context.protocolVersion ?? "2025-11-25";
  const listed = toolOf(tool);
  const message = answer.message as unknown;
  const resultRules = [CallRules.contentItems, CallRules.base64, CallRules.isErrorBoolean, CallRules.outputSchema, CallRules.structuredText];
  const skipAll = (rules: readonly Rule[], reason: string) => rules.forEach((each) => judge.skip(each, reason));
  if (!isObject(message) || !("result" in message || "error" in message)) {
    return skipAll([...resultRules, CallRules.unknownToolError, CallRules.toolErrorInResult], "the answer is not a JSON-RPC response");
  }
  const result = message.result;
  const failed = !("result" in message);

  // spec 2025-11-25 server/tools ("Error Handling"): an unknown tool is a protocol error.
  if (listed !== undefined) judge.skip(CallRules.unknownToolError, "the tool called is listed");
  else if (failed) judge.pass(CallRules.unknownToolError);
  else {judge.fail(CallRules.unknownToolError, "a call of a tool the server does not list was answered with a result, not a JSON-RPC error", {
      index: answer.index,
      pointer: "/result",
    });}

  judgeToolError(judge, listed, message, answer.index, context);
  if (failed) return skipAll(resultRules, "the call was answered with a JSON-RPC error");
  if (!isObject(result)) return skipAll(resultRules, `the result is ${jsonKind(result)}, not an object`);
  // spec 2026-07-28 server/tools ("Input Required Tool Results") and the tasks extension: not the call's final result.
  if (typeof result.resultType === "string" && result.resultType !== "complete") {
    return skipAll(resultRules, `the result is not final (resultType "${clipText(result.resultType, 40)}")`);
  }

  const at = (pointer: string): Seen => ({ index: answer.index, pointer: `/result${pointer}` });
  const content = result.content;
  const contentPlaces: { detail: string; seen: Seen }[] = [];
  const base64Places: { detail: string; seen: Seen }[] = [];
  const items = Array.isArray(content) ? content.slice(0, MAX_ITEMS) : [];
  if (!Array.isArray(content)) {
    contentPlaces.push({
      detail: content === undefined ? 'the result has no "content"' : `"content" is ${jsonKind(content)}, not an array`,
      seen: at("/content"),
    });
  }
  items.forEach((item: unknown, index) => {
    const problem = itemProblem(item, version);
    if (problem !== undefined) contentPlaces.push({ detail: `content item ${index} ${problem.detail}`, seen: at(`/content/${index}${problem.at}`) });
    if (!isObject(item)) return;
    for (const [pointer, data] of base64Fields(item)) {
      if (!isBase64(data)) {
        base64Places.push({
          detail: `content item ${index} (${String(item.type)}) holds data that is not base64`,
          seen: { ...at(`/content/${index}${pointer}`), excerpt: clipText(data, 60) },
        });
      }
    }
  });
  report(judge, CallRules.contentItems, contentPlaces);
  if (items.some((item) => isObject(item) && base64Fields(item).length > 0)) report(judge, CallRules.base64, base64Places);
  else judge.skip(CallRules.base64, "the result holds no image, audio or blob");

  const isError = result.isError;
  if (isError === undefined) judge.skip(CallRules.isErrorBoolean, "the result has no isError");
  else if (typeof isError === "boolean") judge.pass(CallRules.isErrorBoolean);
  else judge.fail(CallRules.isErrorBoolean, `isError is ${jsonKind(isError)} (${clipJson(isError, 40)}), not a boolean`, at("/isError"));

  await judgeStructured(judge, listed, result, version, items, at);
}

/** calls/tool-error-in-result: a listed tool answered -32602 for arguments its own inputSchema accepts. */
function judgeToolError(judge: Judge, listed: ReturnType<typeof toolOf>, message: Record<string, unknown>, index: number, context: CallContext): void {
  const rule = CallRules.toolErrorInResult;
  if (listed === undefined) return judge.skip(rule, "the tool called is not listed");
  if ("result" in message) return judge.pass(rule);
  const error = message.error;
  const code = isObject(error) ? error.code : undefined;
  // Only -32602 (invalid params) can be told apart: another code may be one of the "exceptional
  // conditions" the schema (CallToolResult.isError) leaves to a JSON-RPC error.
  if (code !== -32602) return judge.skip(rule, `the call was answered with error ${JSON.stringify(code)}, which may be a protocol error`);
  if (context.arguments === undefined || listed.inputSchema === undefined) {
    return judge.skip(rule, "the call's arguments or the tool's inputSchema are not known");
  }
  if (conforms(listed.inputSchema, context.arguments) !== true) {
    return judge.skip(rule, "the arguments do not conform to the tool's inputSchema: -32602 is right");
  }
  const said = isObject(error) && typeof error.message === "string" ? `: ${clipText(error.message, 200)}` : "";
  judge.fail(rule, `tool "${clipText(listed.name, 80)}" answered arguments its inputSchema accepts with a -32602 JSON-RPC error${said}`, {
    index,
    pointer: "/error",
  });
}

async function judgeStructured(
  judge: Judge,
  listed: ReturnType<typeof toolOf>,
  result: Record<string, unknown>,
  version: string,
  items: unknown[],
  at: (pointer: string) => Seen,
): Promise<void> {
  const structured = result.structuredContent;
  if (version < STRUCTURED_SINCE) {
    const why = `protocol ${version} has no structured content (it came with ${STRUCTURED_SINCE})`;
    judge.skip(CallRules.outputSchema, why);
    judge.skip(CallRules.structuredText, why);
    return;
  }
  // spec 2025-11-25 server/tools ("Structured Content"): SHOULD also return the serialized JSON in a TextContent block.
  if (structured === undefined) judge.skip(CallRules.structuredText, "the result has no structuredContent");
  else if (items.some((item) => isObject(item) && item.type === "text" && typeof item.text === "string" && sameJson(item.text, structured))) {
    judge.pass(CallRules.structuredText);
  } else judge.fail(CallRules.structuredText, "no text item of content holds structuredContent serialized as JSON", at("/content"));

  const schema = listed?.outputSchema;
  if (schema === undefined) {
    return judge.skip(CallRules.outputSchema, listed === undefined ? "the tool called is not listed" : "the tool declares no outputSchema");
  }
  // A failed call has nothing to conform (the client does not validate tool errors either).
  if (result.isError === true) return judge.skip(CallRules.outputSchema, "the call failed (isError: true)");
  if (structured === undefined) {
    return judge.fail(CallRules.outputSchema, `tool "${clipText(listed!.name, 80)}" declares an outputSchema but returned no structuredContent`, at(""));
  }
  let broken: string | undefined;
  const validators = new OutputValidators((problem) => (broken = problem));
  await validators.load();
  const outcome = validators.judge(listed!.name, schema, structured);
  if (broken !== undefined) return judge.skip(CallRules.outputSchema, `the outputSchema cannot be used to validate: ${clipText(broken, 300)}`);
  if (outcome === undefined) return judge.pass(CallRules.outputSchema);
  if ("unchecked" in outcome) return judge.skip(CallRules.outputSchema, `structuredContent could not be checked: ${clipText(outcome.unchecked, 300)}`);
  outcome.failures.slice(0, MAX_PLACES).forEach((failure, index, shown) => {
    const more = index === shown.length - 1 && outcome.failures.length > shown.length ? ` (and ${outcome.failures.length - shown.length} more)` : "";
    judge.fail(
      CallRules.outputSchema,
      `structuredContent does not match the outputSchema: ${clipText(failure.message, 300)}${more}`,
      at(`/structuredContent${failure.path}`),
    );
  });
}

/** Whether the text is JSON equal to `value` (parsed within bounds; a deep value that overflows is not equal). */
function sameJson(text: string, value: unknown): boolean {
  if (text.length > MAX_TEXT_PARSED) return false;
  try {
    return jsonEqual(JSON.parse(text), value);
  } catch {
    return false;
  }
}
