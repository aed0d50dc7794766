// The schema family of `mcpwire check` (docs/check.md, area `schema`): every message the server
// sent, validated against the definition its kind and method call for in the official JSON
// Schema of the negotiated revision (spec-schemas.ts) — a result by the method it answers
// (tools/list → ListToolsResult), an error response's `error`, a notification or a request of
// the server by its method. Each violation is a finding at the JSON Pointer of the value inside
// the whole message (`/result/tools/3/inputSchema/type`). spec 2025-11-25 basic/index, "Schema":
// the schema is the protocol's messages, so what it requires is a MUST.

import type { JsonSchemaValidator, SchemaFailure } from "../client/schema/schema-validator.ts";
import { boundedJson } from "../common/bounded.ts";
import { messageOf } from "../common/error-text.ts";
import { isObject } from "../common/json.ts";
import { pointerKey } from "../common/json-pointer.ts";
import { clipText } from "../common/preview.ts";
import type { Observed } from "./observed.ts";
import { type Judge, type Rule, rule, type Seen, type SeenMessage, type SpecSource } from "./rule.ts";
import { type EraSchema, loadEraSchema, SHIPPED_SCHEMA_VERSIONS } from "./spec-schemas.ts";

/** Findings kept per message (a value broken everywhere is reported by its first places, then a count). */
export const MAX_FAILURES_PER_MESSAGE = 5;
/** Findings kept per rule over the session (a notification broken the same way 500 times is told by the first ones and a count). */
export const MAX_FAILURES_PER_RULE = 25;
/** Longest excerpt of a violating value. */
const EXCERPT_CHARS = 120;

type SchemaKind = "result" | "error" | "notification" | "request";

const TITLES: Record<SchemaKind, [string, string]> = {
  result: [
    "A result matches the result definition of the method it answers in the negotiated revision's JSON Schema",
    "Return the result the schema defines for that method (its required members, their types): the finding names the definition and the place.",
  ],
  error: [
    "An error response's error object matches the negotiated revision's JSON Schema (an integer code, a string message)",
    "Answer a failed request with error: { code: <integer>, message: <string>, data?: … }.",
  ],
  notification: [
    "A notification from the server matches its method's definition in the negotiated revision's JSON Schema",
    "Send the params the schema defines for that notification method.",
  ],
  request: [
    "A request from the server matches its method's definition in the negotiated revision's JSON Schema",
    "Send the params the schema defines for that request method.",
  ],
};

function makeRules(source: SpecSource) {
  const make = (kind: SchemaKind) => rule(`schema/${kind}`, "MUST", TITLES[kind][0], { source, page: "schema" }, TITLES[kind][1]);
  return { result: make("result"), error: make("error"), notification: make("notification"), request: make("request") } as const;
}

/**
 * The schema family's rules, as the catalogue lists them (cited to 2025-11-25's schema; a finding
 * cites the schema of the version the session negotiated: the same ids, so a report keys them by id).
 */
export const SchemaRules = makeRules("2025-11-25");

/** The versions a rule can cite (rule.ts SpecSource): those whose schema a session can be judged by. */
const CITABLE = new Set<string>(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]);
const rulesByVersion = new Map<string, ReturnType<typeof makeRules>>([["2025-11-25", SchemaRules]]);

/** The rules citing `version`'s schema; for a version no rule can cite (the server's own string), the catalogue's. */
function rulesFor(version: string): ReturnType<typeof makeRules> {
  if (!CITABLE.has(version)) return SchemaRules;
  let rules = rulesByVersion.get(version);
  if (rules === undefined) rulesByVersion.set(version, rules = makeRules(version as SpecSource));
  return rules;
}

/** The value at `pointer` inside `root` (undefined when it is not there). */
function valueAt(root: unknown, pointer: string): unknown {
  let value = root;
  for (const raw of pointer.split("/").slice(1)) {
    const name = pointerKey(raw);
    if (Array.isArray(value)) value = value[Number(name)];
    else if (isObject(value) && Object.hasOwn(value, name)) value = value[name];
    else return undefined;
  }
  return value;
}

/**
 * The failures worth reading, in order: where an `anyOf`/`oneOf` failed at a place, the
 * alternatives' own failures inside it are dropped (each alternative refused the value for its
 * own reason: a `const` of `type` most of them), and the one failure is reported there.
 */
function readable(failures: SchemaFailure[]): SchemaFailure[] {
  const unions = failures.filter((failure) => failure.keyword === "anyOf" || failure.keyword === "oneOf").map((failure) => failure.path);
  const inside = (path: string) => unions.some((union) => path === union || path.startsWith(union + "/"));
  return failures.filter((failure) => failure.keyword === "anyOf" || failure.keyword === "oneOf" || !inside(failure.path));
}

/** A failure as reported: where an alternative was picked by the value's `type`, the definition it was read as. */
interface Reported extends SchemaFailure {
  /** `ImageContent`: the one definition whose `type` constant the value carries. */
  readAs?: string;
}

/**
 * Where a value matched none of a union's alternatives and carries a `type` that exactly one
 * definition of the schema has as its constant (`"image"` → ImageContent), that definition's
 * own failures, at their places: "must have required property 'data'" says more than "must
 * match a schema in anyOf". Otherwise the union's one failure.
 */
function refined(era: EraSchema, root: unknown, failures: SchemaFailure[]): Reported[] {
  const reported: Reported[] = [];
  for (const failure of failures) {
    const value = failure.keyword === "anyOf" || failure.keyword === "oneOf" ? valueAt(root, failure.path) : undefined;
    const definition = isObject(value) && typeof value.type === "string" ? era.definitionOfType(value.type) : undefined;
    let inner: SchemaFailure[] | undefined;
    try {
      inner = definition === undefined ? undefined : era.check(definition)(value);
    } catch {
      inner = undefined; // too deep to walk: the union's own failure stands
    }
    if (definition === undefined || inner === undefined) reported.push(failure);
    else for (const each of readable(inner)) reported.push({ ...each, path: failure.path + each.path, readAs: definition });
  }
  return reported;
}

/** What one message is judged as: the rule, the definition (or `$ref`), the name printed, the place validated. */
interface Target {
  kind: SchemaKind;
  definition: string;
  label: string;
  /** The member validated (`/result`, `/error`, or "" for the whole message). */
  at: "/result" | "/error" | "";
  /** What is said of the message: "tools/list result", "notifications/message". */
  what: string;
}

/** The client's requests by id (1 and "1" apart), to read what a response was asked (a task-augmented tools/call). */
function requestsSent(messages: readonly SeenMessage[]): Map<unknown, Record<string, unknown>> {
  const sent = new Map<unknown, Record<string, unknown>>();
  for (const seen of messages) {
    const message = seen.message as unknown;
    if (seen.dir === "send" && isObject(message) && typeof message.method === "string" && "id" in message) sent.set(message.id, message);
  }
  return sent;
}

/** A message of a kind judged here that the schema has no definition for. */
interface Unknown {
  kind: SchemaKind;
  unknown: string;
}

/** What `seen` is judged as, why it is not (the schema does not know its method), or undefined when it is no kind judged here. */
function targetOf(era: EraSchema, seen: SeenMessage, sent: Map<unknown, Record<string, unknown>>): Target | Unknown | undefined {
  const message = seen.message as unknown;
  if (!isObject(message)) return undefined;
  if (typeof message.method === "string") {
    const method = clipText(message.method, 80);
    const isRequest = "id" in message && !method.startsWith("notifications/");
    const kind: SchemaKind = isRequest ? "request" : "notification";
    const definition = era.memberFor(isRequest ? "ServerRequest" : "ServerNotification", method);
    if (definition === undefined) return { kind, unknown: `${method} (no ${isRequest ? "ServerRequest" : "ServerNotification"} of the ${era.version} schema)` };
    return { kind, definition, label: definition, at: "", what: method };
  }
  if ("error" in message && !("result" in message)) {
    const what = `error response${seen.method ? ` to ${clipText(seen.method, 80)}` : ""}`;
    // spec 2026-07-28 schema: some codes have a definition of their own, with the data they carry.
    const specific = isObject(message.error) ? era.errorFor(message.error.code) : undefined;
    if (specific !== undefined) return { kind: "error", definition: specific.ref, label: specific.name, at: "/error", what };
    const ref = era.errorRef();
    if (ref === undefined) return undefined;
    return { kind: "error", definition: ref, label: era.has("Error") ? "Error" : "JSONRPCError", at: "/error", what };
  }
  if (!("result" in message)) return undefined;
  if (seen.method === undefined) return { kind: "result", unknown: "a result to a request not seen (its method unknown)" };
  const method = clipText(seen.method, 80);
  let definition = era.resultFor(seen.method);
  if (definition === undefined) return { kind: "result", unknown: `${method} (no ClientRequest of the ${era.version} schema)` };
  const result = message.result;
  // spec 2026-07-28 server/tools, "Multi Round-Trip Requests": a result may ask for input instead.
  if (isObject(result) && result.resultType === "input_required" && era.has("InputRequiredResult")) definition = "InputRequiredResult";
  // spec 2025-11-25 basic/utilities/tasks: a task-augmented request is answered with CreateTaskResult.
  const params = sent.get(message.id)?.params;
  if (isObject(params) && isObject(params.task) && era.has("CreateTaskResult")) definition = "CreateTaskResult";
  return { kind: "result", definition, label: definition, at: "/result", what: `${method} result` };
}

/** One failure said plainly: the definition, the place, the keyword and ajv's words. */
function describe(era: EraSchema, target: Target, failure: Reported, pointer: string): string {
  const property = failure.property === undefined ? "" : ` ('${failure.property}')`;
  const label = failure.readAs === undefined ? target.label : `${target.label}, its value read as ${failure.readAs} by its type`;
  return `${target.what}: ${pointer || "the message"} ${failure.message}${property} (${label}, keyword ${failure.keyword}; spec ${era.version} schema)`;
}

/** How judgeSchema validates. */
export interface SchemaJudgeOptions {
  /** The JSON Schema validator (the Client's `jsonSchema` option); default: ajv where code generation is allowed, else the interpreting one. */
  jsonSchema?: JsonSchemaValidator;
}

/**
 * Judges every message the server sent (dir "receive") against the definition of the negotiated
 * version's JSON Schema its kind and method call for, into the schema rules (`schema/result`,
 * `schema/error`, `schema/notification`, `schema/request`). A version whose schema mcpwire does
 * not ship, and methods the schema does not define, are skipped, saying so.
 */
export async function judgeSchema(observed: Observed, judge: Judge, options: SchemaJudgeOptions = {}): Promise<void> {
  const rules = rulesFor(observed.protocolVersion);
  const all: Rule[] = [rules.result, rules.error, rules.notification, rules.request];
  const loading = loadEraSchema(observed.protocolVersion, options.jsonSchema);
  if (loading === undefined) {
    const reason = `mcpwire ships no JSON Schema for protocol version ${JSON.stringify(observed.protocolVersion)} (it has ${
      SHIPPED_SCHEMA_VERSIONS.join(", ")
    })`;
    for (const each of all) judge.skip(each, reason);
    return;
  }
  let era: EraSchema;
  try {
    era = await loading;
  } catch (error) {
    for (const each of all) judge.skip(each, `the ${observed.protocolVersion} schema could not be loaded: ${messageOf(error)}`);
    return;
  }
  const evaluated = new Map<SchemaKind, number>();
  const unknown = new Map<SchemaKind, Set<string>>();
  const unjudged: string[] = [];
  // Findings in message order, at most MAX_FAILURES_PER_RULE of a rule; `count` is all it had.
  const findings: { kind: SchemaKind; detail: string; seen: Seen }[] = [];
  const counts = new Map<SchemaKind, { count: number; kept: number }>();
  const sent = requestsSent(observed.messages);
  for (const seen of observed.messages) {
    if (seen.dir !== "receive") continue;
    const target = targetOf(era, seen, sent);
    if (target === undefined) continue;
    if ("unknown" in target) {
      let set = unknown.get(target.kind);
      if (set === undefined) unknown.set(target.kind, set = new Set());
      if (set.size < 20) set.add(target.unknown);
      continue;
    }
    const value = target.at === "" ? seen.message : (seen.message as unknown as Record<string, unknown>)[target.at.slice(1)];
    let failures: SchemaFailure[] | undefined;
    try {
      failures = era.check(target.definition)(value);
    } catch (error) {
      // A value nested past the validator's bound (a RangeError), or a definition it cannot compile: not judged.
      unjudged.push(`message ${seen.index}: ${messageOf(error)}`);
      continue;
    }
    evaluated.set(target.kind, (evaluated.get(target.kind) ?? 0) + 1);
    if (failures === undefined) continue;
    // The envelope (`jsonrpc`, `id`) of a whole message is the json-rpc family's (envelope.ts): not reported twice.
    const shown = refined(era, value, readable(failures)).filter((failure) => target.at !== "" || (failure.path !== "/jsonrpc" && failure.path !== "/id"));
    if (shown.length === 0) continue;
    let counted = counts.get(target.kind);
    if (counted === undefined) counts.set(target.kind, counted = { count: 0, kept: 0 });
    const kept = shown.slice(0, MAX_FAILURES_PER_MESSAGE);
    kept.forEach((failure, at) => {
      counted.count++;
      if (counted.kept >= MAX_FAILURES_PER_RULE) return;
      counted.kept++;
      const pointer = target.at + failure.path;
      const more = at === kept.length - 1 && shown.length > kept.length ? ` (and ${shown.length - kept.length} more in this message)` : "";
      const excerpt = boundedJson(valueAt(seen.message, pointer), { maxDepth: 3, maxChars: EXCERPT_CHARS });
      findings.push({ kind: target.kind, detail: describe(era, target, failure, pointer) + more, seen: { index: seen.index, pointer, excerpt } });
    });
  }
  const emitted = new Map<SchemaKind, number>();
  for (const { kind, detail, seen } of findings) {
    const { count, kept } = counts.get(kind)!;
    const at = (emitted.get(kind) ?? 0) + 1;
    emitted.set(kind, at);
    judge.fail(rules[kind], at === kept && count > kept ? `${detail} (and ${count - kept} more findings in later messages)` : detail, seen);
  }
  for (const kind of ["result", "error", "notification", "request"] as const) {
    if (counts.has(kind)) continue;
    if ((evaluated.get(kind) ?? 0) > 0) {
      judge.pass(rules[kind]);
      continue;
    }
    const methods = [...(unknown.get(kind) ?? [])];
    const none = { result: "no result", error: "no error response", notification: "no notification", request: "no request" }[kind];
    judge.skip(
      rules[kind],
      methods.length > 0
        ? `not judged: the schema defines none of what the server sent: ${methods.slice(0, 5).join("; ")}${
          methods.length > 5 ? `; and ${methods.length - 5} more` : ""
        }`
        : unjudged.length > 0
        ? `not judged: ${unjudged.slice(0, 3).join("; ")}`
        : `the server sent ${none}`,
    );
  }
}
