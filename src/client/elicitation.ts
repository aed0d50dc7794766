// Form-mode elicitation checks: the restricted requestedSchema, SEP-1034 defaults, and the
// answer validated before it is sent; plus the -32042 error — spec 2025-11-25
// client/elicitation ("Requested Schema", "URL Elicitation Required Error").

import { isObject, setOwn } from "../common/json.ts";
import { ErrorCode, RpcError, type RpcErrorOptions } from "../jsonrpc/errors.ts";
import { jsonSchemaValidator } from "./schema/json-schema.ts";
import type { JsonSchemaValidator } from "./schema/schema-validator.ts";
import type { ElicitationSchema, ElicitResult, ElicitValue, JsonObject, UrlElicitation } from "./types.ts";

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function isTitledOptions(value: unknown): value is { const: string; title: string }[] {
  return Array.isArray(value) &&
    value.every((item) => isObject(item) && typeof item.const === "string" && typeof item.title === "string");
}

const FLAT = "form mode allows only a flat object of string, number, integer, boolean and enum properties";

/** Why one property is outside the restricted form, or undefined when it is fine. */
function checkProperty(name: string, schema: unknown): string | undefined {
  const at = `property "${name}"`;
  if (!isObject(schema)) return `${at} is not a schema object`;
  switch (schema.type) {
    case "string": {
      if (schema.enum !== undefined && !isStringArray(schema.enum)) return `${at}: "enum" must be an array of strings`;
      if (schema.enumNames !== undefined) {
        if (!isStringArray(schema.enumNames)) return `${at}: "enumNames" must be an array of strings`;
        if (!Array.isArray(schema.enum) || schema.enum.length !== schema.enumNames.length) {
          return `${at}: "enumNames" must name each value of "enum"`;
        }
      }
      if (schema.oneOf !== undefined && !isTitledOptions(schema.oneOf)) {
        return `${at}: "oneOf" must be a list of { const, title } strings`;
      }
      if (schema.default !== undefined && typeof schema.default !== "string") return `${at}: "default" must be a string`;
      return undefined;
    }
    case "number":
    case "integer":
      if (schema.default !== undefined && typeof schema.default !== "number") return `${at}: "default" must be a number`;
      return undefined;
    case "boolean":
      if (schema.default !== undefined && typeof schema.default !== "boolean") return `${at}: "default" must be a boolean`;
      return undefined;
    case "array": {
      // Only multi-select enums: items.enum (untitled) or items.anyOf (titled).
      const items = schema.items;
      const untitled = isObject(items) && isStringArray(items.enum);
      const titled = isObject(items) && isTitledOptions(items.anyOf);
      if (!untitled && !titled) {
        return `${at} is an array that is not a multi-select enum (items.enum or items.anyOf of strings); ${FLAT}`;
      }
      if (schema.default !== undefined && !isStringArray(schema.default)) return `${at}: "default" must be an array of strings`;
      return undefined;
    }
    case "object":
      return `${at} is a nested object; ${FLAT}`;
    default:
      return `${at} has type ${JSON.stringify(schema.type)}; ${FLAT}`;
  }
}

/**
 * Why a requestedSchema is outside the restricted form of spec 2025-11-25
 * client/elicitation ("Requested Schema"), or undefined when it is inside it.
 */
export function checkRequestedSchema(schema: unknown): string | undefined {
  if (!isObject(schema)) return `"requestedSchema" is missing or not an object`;
  if (schema.type !== "object") return `"requestedSchema" must have type "object"; ${FLAT}`;
  if (!isObject(schema.properties)) return `"requestedSchema" has no "properties" object`;
  for (const [name, property] of Object.entries(schema.properties)) {
    const problem = checkProperty(name, property);
    if (problem !== undefined) return problem;
  }
  if (schema.required !== undefined) {
    if (!isStringArray(schema.required)) return `"required" must be an array of property names`;
    const unknown = schema.required.find((name) => !Object.hasOwn(schema.properties as JsonObject, name));
    if (unknown !== undefined) return `"required" names "${unknown}", which is not a property`;
  }
  return undefined;
}

/** SEP-1034: every property the answer omits and the schema gives a default gets that default. */
export function applyDefaults(schema: ElicitationSchema, content: Record<string, ElicitValue> = {}): Record<string, ElicitValue> {
  const filled: Record<string, ElicitValue> = { ...content };
  for (const [name, property] of Object.entries(schema.properties)) {
    // Property names are the server's: `constructor` is a field, never Object.prototype's.
    if ((!Object.hasOwn(filled, name) || filled[name] === undefined) && property.default !== undefined) {
      setOwn(filled, name, Array.isArray(property.default) ? [...property.default] : property.default);
    }
  }
  return filled;
}

// Formats the restricted form names (spec 2025-11-25 schema: StringSchema.format). Neither
// validator has a table of its own (ajv ships none, the interpreting one asserts only what it is given), so both
// assert these four: plain syntax checks, nothing looked up.
const FORMATS: Readonly<Record<string, (value: string) => boolean>> = {
  email: (value) => /^[^\s@]+@[^\s@]+$/.test(value),
  uri: (value) => URL.canParse(value),
  date: (value) => /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)),
  "date-time": (value) => /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value)),
};

/**
 * Why an accepted answer does not match the requestedSchema (one line per failure), or
 * undefined when it matches. Fields outside the schema are failures too. The validator (the
 * runtime's default unless named) must be loaded first: `await loadJsonSchema(validator)`
 * (the Client does before it calls this). Throws a SchemaError when the schema cannot be used.
 */
export function validateAnswer(
  schema: ElicitationSchema,
  content: Record<string, ElicitValue>,
  validator?: JsonSchemaValidator,
): string[] | undefined {
  // The restricted form is 2020-12 whatever `$schema` says (spec 2025-11-25 client/elicitation).
  const check = jsonSchemaValidator(validator).compile({ ...schema, additionalProperties: false }, "2020-12", { formats: FORMATS });
  return check(content)?.map((failure) => {
    if (failure.keyword === "additionalProperties") {
      return `the answer has "${failure.property ?? ""}", which the schema does not ask for`;
    }
    const field = failure.path === "" ? "the answer" : `"${failure.path.slice(1).split("/")[0]}"`;
    return `${field} ${failure.message}`;
  });
}

/** Checks an ElicitResult's shape; returns it normalised, or why it is not one. */
export function checkElicitResult(result: unknown): ElicitResult | string {
  if (!isObject(result)) return "the elicitation handler returned no object";
  const action = result.action;
  if (action !== "accept" && action !== "decline" && action !== "cancel") {
    return `the elicitation handler returned action ${JSON.stringify(action)}; use "accept", "decline" or "cancel"`;
  }
  if (result.content !== undefined && !isObject(result.content)) return `the elicitation handler returned "content" that is not an object`;
  return result as ElicitResult;
}

/**
 * -32042: the server needs the user to complete URL-mode elicitations before it can
 * answer — spec 2025-11-25 client/elicitation ("URL Elicitation Required Error"). An
 * RpcError, so `instanceof RpcError` and `.rpcCode` keep working; code "url-elicitation-required".
 */
export class UrlElicitationRequiredError extends RpcError<"url-elicitation-required"> {
  override readonly name = "UrlElicitationRequiredError";
  /** The URL-mode elicitations to complete, then retry the request. */
  readonly elicitations: readonly UrlElicitation[];
  constructor(message: string, options: RpcErrorOptions & { elicitations: readonly UrlElicitation[] }) {
    super(message, ErrorCode.UrlElicitationRequired, options, "url-elicitation-required");
    this.elicitations = options.elicitations;
  }
}

/** The URL-mode elicitations an error's data carries (others are dropped: they MUST be URL mode). */
export function elicitationsOf(data: unknown): UrlElicitation[] {
  if (!isObject(data) || !Array.isArray(data.elicitations)) return [];
  return data.elicitations.filter((item): item is UrlElicitation =>
    isObject(item) && item.mode === "url" && typeof item.url === "string" && typeof item.elicitationId === "string" &&
    typeof item.message === "string"
  );
}

/**
 * spec 2025-11-25 client/elicitation ("URL Elicitation Required Error"): a -32042 as the
 * UrlElicitationRequiredError naming what to open; its elicitation ids join `opened` (so their
 * completion notifications are recognized). Any other error is returned unchanged.
 */
export function surfaceUrlElicitation(who: string, error: unknown, opened: Set<string>): unknown {
  if (!(error instanceof RpcError) || error.rpcCode !== ErrorCode.UrlElicitationRequired) return error;
  const elicitations = elicitationsOf(error.data);
  for (const elicitation of elicitations) opened.add(elicitation.elicitationId);
  const urls = elicitations.map((elicitation) => elicitation.url).join(", ");
  return new UrlElicitationRequiredError(
    `${who} needs the user to complete ${elicitations.length} URL elicitation(s) first` +
      (urls === "" ? "" : ` (${urls})`) + `: ${error.message}; open them with the user's consent, then retry`,
    { elicitations, data: error.data, cause: error },
  );
}
