// The definitions family of `mcpwire check` (docs/check.md): what the server lists, item by item,
// judged after the walk — tool names (spec 2025-11-25 server/tools "Tool Names"), inputSchema and
// outputSchema (a JSON Schema valid for its dialect, of an object: basic "JSON Schema Usage"),
// annotations, resource URIs (RFC 3986) and templates (RFC 6570), prompt arguments, icons and
// titles (spec 2025-11-25 schema). Each rule applies only from the revision that has it on.

import { paramHeadersOf } from "../client/request-headers.ts";
import { loadJsonSchema } from "../client/schema/json-schema.ts";
import { dialectOf } from "../client/schema/schema-validator.ts";
import type { JsonObject } from "../client/types.ts";
import { isObject, jsonKind } from "../common/json.ts";
import { pointerToken } from "../common/json-pointer.ts";
import { clipJson, clipText } from "../common/preview.ts";
import { uriProblem } from "../common/uri-syntax.ts";
import { templateSyntaxProblem } from "../common/uri-template.ts";
import type { ListedItem, Observed } from "./observed.ts";
import { type Judge, type Rule, rule, type Seen } from "./rule.ts";
import { atLeast, Tally } from "./tally.ts";

/** The rules of the definitions family, by name. */
export const DefinitionRules = {
  name: rule(
    "definitions/name",
    "MUST",
    "Every tool, prompt, resource and resource template has a string name",
    { source: "2025-11-25", page: "schema", section: "BaseMetadata" },
    "Give each listed item a `name` string (its identifier; `title` is for display).",
  ),
  toolNameLength: rule(
    "definitions/tool-name-length",
    "SHOULD",
    "A tool name is 1 to 128 characters long",
    { source: "2025-11-25", page: "server/tools", section: "Tool Names" },
    "Shorten the tool name to at most 128 characters (and never leave it empty); put the explanation in `description`.",
  ),
  toolNameCharacters: rule(
    "definitions/tool-name-characters",
    "SHOULD",
    "A tool name holds only A-Z, a-z, 0-9, '_', '-' and '.'",
    { source: "2025-11-25", page: "server/tools", section: "Tool Names" },
    "Rename the tool using ASCII letters, digits, underscore, hyphen and dot only: no spaces, commas, slashes or other characters.",
  ),
  inputSchema: rule(
    "definitions/input-schema",
    "MUST",
    'A tool\'s inputSchema is a JSON Schema object whose type is "object"',
    { source: "2025-11-25", page: "server/tools", section: "Tool" },
    'Give every tool an `inputSchema` object with `"type": "object"` at its root; a tool without parameters uses `{ "type": "object", "additionalProperties": false }`.',
  ),
  outputSchema: rule(
    "definitions/output-schema",
    "MUST",
    'A tool\'s outputSchema, when present, is a JSON Schema object (up to 2025-11-25: of type "object")',
    { source: "2025-11-25", page: "schema", section: "Tool" },
    'Make `outputSchema` a schema object; for protocol 2025-06-18 and 2025-11-25 its root must say `"type": "object"` (structuredContent is an object there).',
  ),
  schemaValid: rule(
    "definitions/schema-valid",
    "MUST",
    "inputSchema and outputSchema are valid for their declared or default (2020-12) dialect",
    { source: "2025-11-25", page: "basic", section: "JSON Schema Usage" },
    "Fix the schema so that it validates against its dialect's meta-schema (2020-12 when it has no `$schema`): keyword values of the right type, `$ref`s that resolve.",
  ),
  mcpHeader: rule(
    "definitions/x-mcp-header",
    "MUST",
    "x-mcp-header annotations are tokens, unique, on primitive parameters reachable through properties",
    { source: "2026-07-28", page: "server/tools", section: "x-mcp-header" },
    "Put `x-mcp-header` only on string, integer or boolean parameters reached from the root through `properties` alone, each a distinct HTTP token; a client over Streamable HTTP drops the tool otherwise.",
  ),
  toolAnnotations: rule(
    "definitions/tool-annotations",
    "MUST",
    "Tool annotations are an object: title a string, the four hints booleans",
    { source: "2025-11-25", page: "schema", section: "ToolAnnotations" },
    "Send `annotations` as an object whose `readOnlyHint`, `destructiveHint`, `idempotentHint` and `openWorldHint` are true or false (not strings) and whose `title` is a string.",
  ),
  title: rule(
    "definitions/title",
    "MUST",
    "A title, where given, is a string",
    { source: "2025-11-25", page: "schema", section: "BaseMetadata" },
    "Send `title` as a string (the display name), or leave it out.",
  ),
  resourceUri: rule(
    "definitions/resource-uri",
    "MUST",
    "A resource's uri is a URI by RFC 3986",
    { source: "2025-11-25", page: "server/resources", section: "Custom URI Schemes" },
    "Give each resource an absolute URI with a scheme (`file:///…`, `https://…`, `myapp://…`), percent-encoding spaces and non-ASCII characters.",
  ),
  uriTemplate: rule(
    "definitions/uri-template",
    "MUST",
    "A resource template's uriTemplate is a URI template by RFC 6570",
    { source: "2025-11-25", page: "server/resources", section: "Resource Templates" },
    "Write `uriTemplate` in RFC 6570 syntax: expressions `{name}`, `{+path}`, `{?a,b}` with closed braces and variable names of letters, digits and '_'.",
  ),
  mimeType: rule(
    "definitions/mime-type",
    "SHOULD",
    "A mimeType is a MIME type (type/subtype)",
    { source: "2025-11-25", page: "server/resources", section: "Resource" },
    'Give `mimeType` as a media type such as "text/plain" or "image/png", or leave it out when unknown.',
  ),
  resourceAnnotations: rule(
    "definitions/resource-annotations",
    "MUST",
    'Resource annotations: audience of "user"/"assistant", priority a number from 0 to 1, lastModified a string',
    { source: "2025-11-25", page: "server/resources", section: "Annotations" },
    'Send `annotations.audience` as an array of "user" and "assistant", `priority` as a number between 0 and 1, `lastModified` as an ISO 8601 string.',
  ),
  promptArguments: rule(
    "definitions/prompt-arguments",
    "MUST",
    "A prompt's arguments are objects with a string name and, where given, a boolean required",
    { source: "2025-11-25", page: "schema", section: "PromptArgument" },
    'Send `arguments` as an array of `{ "name": string, "description"?: string, "required"?: boolean }` (`required` true or false, not "true").',
  ),
  icons: rule(
    "definitions/icons",
    "MUST",
    "Icons are objects with a src URI, a string mimeType, string sizes and a light or dark theme",
    { source: "2025-11-25", page: "schema", section: "Icon" },
    'Send `icons` as an array of `{ "src": URI, "mimeType"?: string, "sizes"?: string[], "theme"?: "light" | "dark" }`.',
  ),
  iconScheme: rule(
    "definitions/icon-scheme",
    "SHOULD",
    "An icon's src is an https:, http: or data: URI",
    { source: "2025-11-25", page: "basic", section: "icons" },
    "Serve icons over HTTPS or inline them as `data:` URIs; clients MUST reject other schemes (`file:`, `javascript:`, `ftp:`, `ws:`, app schemes).",
  ),
  iconSizes: rule(
    "definitions/icon-sizes",
    "SHOULD",
    'An icon\'s sizes are "WxH" or "any"',
    { source: "2025-11-25", page: "schema", section: "Icon" },
    'Write each size as width "x" height in pixels ("48x48") or "any" for a scalable image.',
  ),
} as const;

/** What a listed item is, for messages: "tool", "resource"… */
type Kind = "tool" | "prompt" | "resource" | "resource template" | "server";

const ASCII_NAME = /^[A-Za-z0-9_.-]*$/;
const MIME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:\s*;.*)?$/s;
const SIZE = /^(?:[1-9][0-9]*[xX][1-9][0-9]*|any)$/;
/** A `$ref` that is not a fragment of the schema itself (`#/$defs/x`), as it appears in the schema's JSON text. */
const EXTERNAL_REF = /"\$ref":"(?!#)/;
const HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

/** Revisions a field first appears in (older ones do not judge it). */
const SINCE = { annotations: "2025-03-26", title: "2025-06-18", outputSchema: "2025-06-18", icons: "2025-11-25", toolNames: "2025-11-25" } as const;

function seenAt(item: ListedItem, path: (string | number)[], excerpt?: unknown): Seen {
  const seen: Seen = { index: item.index, pointer: item.pointer + path.map((key) => `/${pointerToken(key)}`).join("") };
  if (typeof excerpt === "string") seen.excerpt = clipText(excerpt, 120);
  else if (excerpt !== undefined) seen.excerpt = clipJson(excerpt, 120);
  return seen;
}

/** How an item is named in a finding: `tool "get_weather"`, `resource #3` when it has no usable name. */
function label(kind: Kind, item: ListedItem): string {
  const value = item.value;
  const key = kind === "resource" ? "uri" : kind === "resource template" ? "uriTemplate" : "name";
  const name = isObject(value) ? value[key] ?? value.name : undefined;
  return typeof name === "string" ? `${kind} ${JSON.stringify(clipText(name, 80))}` : `${kind} at ${item.pointer}`;
}

/**
 * Judges the definitions in `observed.lists`: each rule passes when every item it applies to
 * keeps it, fails once per place it is broken, and is skipped when nothing listed is of its kind
 * or the negotiated revision does not have it.
 */
export async function judgeDefinitions(observed: Observed, judge: Judge): Promise<void> {
  const tally = new Tally(judge);
  const version = observed.protocolVersion;
  const { tools = [], prompts = [], resources = [], resourceTemplates = [] } = observed.lists;
  const groups: [Kind, ListedItem[]][] = [["tool", tools], ["prompt", prompts], ["resource", resources], ["resource template", resourceTemplates]];

  for (const [kind, items] of groups) {
    for (const item of items) {
      const value = item.value;
      if (!isObject(value)) {
        tally.fail(DefinitionRules.name, `${label(kind, item)} is ${jsonKind(value)}, not an object`, seenAt(item, []));
        continue;
      }
      judgeName(tally, kind, item, value);
      if (atLeast(version, SINCE.title)) judgeTitle(tally, kind, item, value);
      if (atLeast(version, SINCE.icons)) judgeIcons(tally, kind, item, value.icons);
    }
  }
  // spec 2025-11-25 basic "icons": icons (and a title) can be attached to the Implementation too.
  const server = implementationOf(observed);
  if (server !== undefined && isObject(server.value)) {
    if (atLeast(version, SINCE.title)) judgeTitle(tally, "server", server, server.value);
    if (atLeast(version, SINCE.icons)) judgeIcons(tally, "server", server, server.value.icons);
  }
  for (const item of tools) if (isObject(item.value)) await judgeTool(tally, version, item, item.value);
  for (const item of prompts) if (isObject(item.value)) judgePromptArguments(tally, item, item.value);
  for (const item of resources) if (isObject(item.value)) judgeResource(tally, item, item.value);
  for (const item of resourceTemplates) if (isObject(item.value)) judgeTemplate(tally, item, item.value);

  const none = (what: string) => `the server listed no ${what}`;
  const older = (since: string) => `protocol ${version} has no such rule (it starts with ${since})`;
  const anyListed = tools.length + prompts.length + resources.length + resourceTemplates.length > 0;
  tally.done(DefinitionRules.name, none("tools, prompts, resources or templates"));
  for (const each of [DefinitionRules.toolNameLength, DefinitionRules.toolNameCharacters]) {
    tally.done(each, atLeast(version, SINCE.toolNames) ? none("tools") : older(SINCE.toolNames));
  }
  tally.done(DefinitionRules.inputSchema, none("tools"));
  tally.done(
    DefinitionRules.outputSchema,
    atLeast(version, SINCE.outputSchema) ? "no tool declares an outputSchema" : older(SINCE.outputSchema),
  );
  tally.done(
    DefinitionRules.schemaValid,
    atLeast(version, "2025-11-25") ? "no tool schema could be judged (an unknown $schema dialect, or a $ref to another document)" : older("2025-11-25"),
  );
  tally.done(DefinitionRules.mcpHeader, atLeast(version, "2026-07-28") ? "no tool carries an x-mcp-header annotation" : older("2026-07-28"));
  tally.done(DefinitionRules.toolAnnotations, atLeast(version, SINCE.annotations) ? "no tool carries annotations" : older(SINCE.annotations));
  tally.done(DefinitionRules.title, atLeast(version, SINCE.title) ? (anyListed ? "no listed item has a title" : none("items")) : older(SINCE.title));
  tally.done(DefinitionRules.resourceUri, none("resources"));
  tally.done(DefinitionRules.uriTemplate, none("resource templates"));
  tally.done(DefinitionRules.mimeType, "no resource, template or icon gives a mimeType");
  tally.done(DefinitionRules.resourceAnnotations, "no resource or template carries annotations");
  tally.done(DefinitionRules.promptArguments, "no prompt has arguments");
  for (const each of [DefinitionRules.icons, DefinitionRules.iconScheme, DefinitionRules.iconSizes]) {
    tally.done(each, atLeast(version, SINCE.icons) ? "no listed item has icons" : older(SINCE.icons));
  }
}

/** The server's Implementation (serverInfo) where the negotiation gave it: initialize's `serverInfo`, server/discover's `_meta` entry. */
function implementationOf(observed: Observed): ListedItem | undefined {
  const negotiation = observed.negotiation;
  if (negotiation === undefined || !isObject(negotiation.result)) return undefined;
  const { serverInfo, _meta: meta } = negotiation.result;
  if (serverInfo !== undefined) return { value: serverInfo, index: negotiation.index, pointer: "/result/serverInfo" };
  const key = "io.modelcontextprotocol/serverInfo";
  if (isObject(meta) && meta[key] !== undefined) return { value: meta[key], index: negotiation.index, pointer: `/result/_meta/${pointerToken(key)}` };
  return undefined;
}

function judgeName(tally: Tally, kind: Kind, item: ListedItem, value: Record<string, unknown>): void {
  if (typeof value.name === "string") tally.held(DefinitionRules.name);
  else {tally.fail(
      DefinitionRules.name,
      `${label(kind, item)} has ${value.name === undefined ? "no name" : `a name that is ${jsonKind(value.name)}`}`,
      seenAt(item, ["name"]),
    );}
}

function judgeTitle(tally: Tally, kind: Kind, item: ListedItem, value: Record<string, unknown>): void {
  if (value.title === undefined) return;
  if (typeof value.title === "string") tally.held(DefinitionRules.title);
  else tally.fail(DefinitionRules.title, `${label(kind, item)} has a title that is ${jsonKind(value.title)}`, seenAt(item, ["title"], value.title));
}

async function judgeTool(tally: Tally, version: string, item: ListedItem, tool: Record<string, unknown>): Promise<void> {
  const name = label("tool", item);
  if (typeof tool.name === "string" && atLeast(version, SINCE.toolNames)) {
    // spec 2025-11-25 server/tools "Tool Names": 1 to 128 characters, [A-Za-z0-9_.-] only.
    const length = [...tool.name].length;
    if (length >= 1 && length <= 128) tally.held(DefinitionRules.toolNameLength);
    else tally.fail(DefinitionRules.toolNameLength, `${name} is ${length} characters long`, seenAt(item, ["name"], tool.name));
    if (ASCII_NAME.test(tool.name)) tally.held(DefinitionRules.toolNameCharacters);
    else {
      const bad = [...new Set([...tool.name].filter((char) => !ASCII_NAME.test(char)))].slice(0, 5);
      tally.fail(DefinitionRules.toolNameCharacters, `${name} holds ${bad.map(describeChar).join(", ")}`, seenAt(item, ["name"], tool.name));
    }
  }
  // spec 2025-11-25 server/tools "Tool": inputSchema MUST be a valid JSON Schema object; schema: type "object".
  const input = tool.inputSchema;
  if (!isObject(input)) {
    tally.fail(
      DefinitionRules.inputSchema,
      `${name} has ${input === undefined ? "no inputSchema" : `an inputSchema that is ${jsonKind(input)}`}`,
      seenAt(item, ["inputSchema"]),
    );
  } else if (input.type !== "object") {
    tally.fail(
      DefinitionRules.inputSchema,
      `${name}'s inputSchema has type ${JSON.stringify(input.type) ?? "undefined"}, not "object"`,
      seenAt(item, ["inputSchema", "type"]),
    );
  } else tally.held(DefinitionRules.inputSchema);
  const output = tool.outputSchema;
  if (output !== undefined && atLeast(version, SINCE.outputSchema)) {
    // 2026-07-28 schema: outputSchema "can be any valid JSON Schema 2020-12"; before, type "object" at the root.
    if (!isObject(output)) tally.fail(DefinitionRules.outputSchema, `${name}'s outputSchema is ${jsonKind(output)}`, seenAt(item, ["outputSchema"]));
    else if (!atLeast(version, "2026-07-28") && output.type !== "object") {
      tally.fail(
        DefinitionRules.outputSchema,
        `${name}'s outputSchema has type ${JSON.stringify(output.type) ?? "undefined"}, not "object"`,
        seenAt(item, ["outputSchema", "type"]),
      );
    } else tally.held(DefinitionRules.outputSchema);
  }
  if (atLeast(version, "2025-11-25")) {
    for (const key of ["inputSchema", "outputSchema"] as const) if (isObject(tool[key])) await judgeSchema(tally, item, key, tool[key] as JsonObject);
  }
  if (atLeast(version, "2026-07-28") && isObject(input) && JSON.stringify(input).includes('"x-mcp-header"')) {
    const headers = paramHeadersOf(input);
    if ("problem" in headers) tally.fail(DefinitionRules.mcpHeader, `${name}: ${headers.problem}`, seenAt(item, ["inputSchema"]));
    else tally.held(DefinitionRules.mcpHeader);
  }
  if (tool.annotations !== undefined && atLeast(version, SINCE.annotations)) judgeToolAnnotations(tally, item, tool.annotations);
}

function describeChar(char: string): string {
  const code = char.codePointAt(0)!;
  const shown = code > 0x20 && code < 0x7f ? `"${char}" ` : "";
  return `${shown}U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** spec 2025-11-25 basic "JSON Schema Usage", "Schema Validation": schemas MUST be valid according to their declared or default dialect. */
async function judgeSchema(tally: Tally, item: ListedItem, key: "inputSchema" | "outputSchema", schema: JsonObject): Promise<void> {
  const dialect = dialectOf(schema);
  // An unknown `$schema`: a dialect neither mcpwire nor the spec requires; not judged.
  if (dialect === undefined) return;
  const validator = await loadJsonSchema();
  try {
    validator.compile(schema, dialect);
    tally.held(DefinitionRules.schemaValid);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // A `$ref` to another document is allowed, and never fetched (2026-07-28 basic "$ref
    // Resolution"): a schema holding one that does not compile here is not judged.
    if (EXTERNAL_REF.test(JSON.stringify(schema))) return;
    tally.fail(
      DefinitionRules.schemaValid,
      `${label("tool", item)}'s ${key} is not a valid JSON Schema ${dialect}: ${clipText(message, 300)}`,
      seenAt(item, [key]),
    );
  }
}

function judgeToolAnnotations(tally: Tally, item: ListedItem, annotations: unknown): void {
  const name = label("tool", item);
  if (!isObject(annotations)) {
    tally.fail(DefinitionRules.toolAnnotations, `${name}'s annotations are ${jsonKind(annotations)}`, seenAt(item, ["annotations"]));
    return;
  }
  let broken = false;
  for (const hint of HINTS) {
    const value = annotations[hint];
    if (value === undefined || typeof value === "boolean") continue;
    broken = true;
    tally.fail(DefinitionRules.toolAnnotations, `${name}'s ${hint} is ${jsonKind(value)}, not a boolean`, seenAt(item, ["annotations", hint], value));
  }
  if (annotations.title !== undefined && typeof annotations.title !== "string") {
    broken = true;
    tally.fail(DefinitionRules.toolAnnotations, `${name}'s annotations.title is ${jsonKind(annotations.title)}`, seenAt(item, ["annotations", "title"]));
  }
  if (!broken) tally.held(DefinitionRules.toolAnnotations);
}

function judgePromptArguments(tally: Tally, item: ListedItem, prompt: Record<string, unknown>): void {
  const args = prompt.arguments;
  if (args === undefined) return;
  const name = label("prompt", item);
  if (!Array.isArray(args)) {
    tally.fail(DefinitionRules.promptArguments, `${name}'s arguments are ${jsonKind(args)}, not an array`, seenAt(item, ["arguments"]));
    return;
  }
  let broken = false;
  const fail = (detail: string, path: (string | number)[], excerpt?: unknown) => {
    broken = true;
    tally.fail(DefinitionRules.promptArguments, `${name}: ${detail}`, seenAt(item, ["arguments", ...path], excerpt));
  };
  args.forEach((argument: unknown, at) => {
    if (!isObject(argument)) return fail(`argument ${at} is ${jsonKind(argument)}`, [at]);
    if (typeof argument.name !== "string") {
      fail(`argument ${at} has ${argument.name === undefined ? "no name" : `a name that is ${jsonKind(argument.name)}`}`, [at, "name"]);
    }
    if (argument.required !== undefined && typeof argument.required !== "boolean") {
      fail(`argument ${at}'s required is ${jsonKind(argument.required)}, not a boolean`, [at, "required"], argument.required);
    }
    for (const key of ["description", "title"]) {
      if (argument[key] !== undefined && typeof argument[key] !== "string") fail(`argument ${at}'s ${key} is ${jsonKind(argument[key])}`, [at, key]);
    }
  });
  if (!broken) tally.held(DefinitionRules.promptArguments);
}

function judgeResource(tally: Tally, item: ListedItem, resource: Record<string, unknown>): void {
  const name = label("resource", item);
  // spec 2025-11-25 server/resources "Custom URI Schemes": URIs MUST be in accordance with RFC 3986.
  const uri = resource.uri;
  const problem = typeof uri === "string" ? uriProblem(uri) : `it is ${uri === undefined ? "missing" : jsonKind(uri)}`;
  if (problem === undefined) tally.held(DefinitionRules.resourceUri);
  else tally.fail(DefinitionRules.resourceUri, `${name}: its uri is not a URI: ${problem}`, seenAt(item, ["uri"], uri));
  judgeMimeType(tally, name, item, ["mimeType"], resource.mimeType);
  judgeResourceAnnotations(tally, name, item, resource.annotations);
}

function judgeTemplate(tally: Tally, item: ListedItem, template: Record<string, unknown>): void {
  const name = label("resource template", item);
  const value = template.uriTemplate;
  const problem = typeof value === "string" ? templateSyntaxProblem(value) : `it is ${value === undefined ? "missing" : jsonKind(value)}`;
  if (problem === undefined) tally.held(DefinitionRules.uriTemplate);
  else tally.fail(DefinitionRules.uriTemplate, `${name}: its uriTemplate is not an RFC 6570 template: ${problem}`, seenAt(item, ["uriTemplate"], value));
  judgeMimeType(tally, name, item, ["mimeType"], template.mimeType);
  judgeResourceAnnotations(tally, name, item, template.annotations);
}

function judgeMimeType(tally: Tally, name: string, item: ListedItem, path: (string | number)[], mimeType: unknown): void {
  if (mimeType === undefined) return;
  if (typeof mimeType === "string" && MIME.test(mimeType)) tally.held(DefinitionRules.mimeType);
  else {tally.fail(
      DefinitionRules.mimeType,
      `${name}: mimeType ${clipJson(mimeType, 120)} is not a type/subtype`,
      seenAt(item, path, mimeType),
    );}
}

/** spec 2025-11-25 server/resources "Annotations", schema Annotations: audience Role[], priority 0–1, lastModified string. */
function judgeResourceAnnotations(tally: Tally, name: string, item: ListedItem, annotations: unknown): void {
  if (annotations === undefined) return;
  const fail = (detail: string, path: string[], excerpt?: unknown) =>
    tally.fail(DefinitionRules.resourceAnnotations, `${name}: ${detail}`, seenAt(item, ["annotations", ...path], excerpt));
  if (!isObject(annotations)) return fail(`its annotations are ${jsonKind(annotations)}`, []);
  const { audience, priority, lastModified } = annotations;
  let broken = false;
  if (audience !== undefined && (!Array.isArray(audience) || !audience.every((role) => role === "user" || role === "assistant"))) {
    broken = true;
    fail(`annotations.audience is not an array of "user" and "assistant"`, ["audience"], audience);
  }
  if (priority !== undefined && (typeof priority !== "number" || !(priority >= 0 && priority <= 1))) {
    broken = true;
    fail(`annotations.priority is ${typeof priority === "number" ? priority : jsonKind(priority)}, not a number from 0 to 1`, ["priority"], priority);
  }
  if (lastModified !== undefined && typeof lastModified !== "string") {
    broken = true;
    fail(`annotations.lastModified is ${jsonKind(lastModified)}, not a string`, ["lastModified"]);
  }
  if (!broken) tally.held(DefinitionRules.resourceAnnotations);
}

/** spec 2025-11-25 basic "icons" and schema Icon: src a URI (https or data), mimeType, sizes "WxH"/"any", theme. */
function judgeIcons(tally: Tally, kind: Kind, item: ListedItem, icons: unknown): void {
  if (icons === undefined) return;
  const name = label(kind, item);
  if (!Array.isArray(icons)) {
    tally.fail(DefinitionRules.icons, `${name}'s icons are ${jsonKind(icons)}, not an array`, seenAt(item, ["icons"]));
    return;
  }
  icons.forEach((icon: unknown, at) => judgeIcon(tally, name, item, at, icon));
}

function judgeIcon(tally: Tally, name: string, item: ListedItem, at: number, icon: unknown): void {
  const fail = (ruleOf: Rule, detail: string, path: (string | number)[], excerpt?: unknown) =>
    tally.fail(ruleOf, `${name}: icon ${at} ${detail}`, seenAt(item, ["icons", at, ...path], excerpt));
  if (!isObject(icon)) return fail(DefinitionRules.icons, `is ${jsonKind(icon)}`, []);
  let broken = false;
  const { src, mimeType, sizes, theme } = icon;
  const problem = typeof src === "string" ? uriProblem(src) : `it is ${src === undefined ? "missing" : jsonKind(src)}`;
  if (problem !== undefined) {
    broken = true;
    fail(DefinitionRules.icons, `has a src that is not a URI: ${problem}`, ["src"], src);
  } else {
    const scheme = (src as string).slice(0, (src as string).indexOf(":")).toLowerCase();
    if (scheme === "https" || scheme === "http" || scheme === "data") tally.held(DefinitionRules.iconScheme);
    else fail(DefinitionRules.iconScheme, `has a src of scheme "${scheme}:", which clients must reject`, ["src"], src);
  }
  if (mimeType !== undefined && typeof mimeType !== "string") {
    broken = true;
    fail(DefinitionRules.icons, `has a mimeType that is ${jsonKind(mimeType)}`, ["mimeType"]);
  } else judgeMimeType(tally, `${name}: icon ${at}`, item, ["icons", at, "mimeType"], mimeType);
  if (sizes !== undefined) {
    if (!Array.isArray(sizes) || !sizes.every((size) => typeof size === "string")) {
      broken = true;
      fail(DefinitionRules.icons, `has sizes that are not an array of strings`, ["sizes"], sizes);
    } else {
      const odd = sizes.findIndex((size: string) => !SIZE.test(size));
      if (odd < 0) tally.held(DefinitionRules.iconSizes);
      else fail(DefinitionRules.iconSizes, `has a size ${clipJson(sizes[odd], 120)}, neither "WxH" nor "any"`, ["sizes", odd], sizes[odd]);
    }
  }
  if (theme !== undefined && theme !== "light" && theme !== "dark") {
    broken = true;
    fail(DefinitionRules.icons, `has a theme ${clipJson(theme, 120)}, neither "light" nor "dark"`, ["theme"], theme);
  }
  if (!broken) tally.held(DefinitionRules.icons);
}
