// The official JSON Schemas of the MCP revisions, as `mcpwire check` judges messages against them
// (message-schema.ts): each revision's schema.json shipped unchanged in a generated module
// (src/check/schemas/, scripts/check-schemas.mjs), loaded by a literal import() only when a
// session negotiated that version, parsed once, and each of its definitions compiled once per
// process by the project's validator (ajv where code generation is allowed, the interpreting
// one elsewhere: src/client/schema/json-schema.ts). spec 2025-11-25 basic/index, "Schema": the
// JSON Schema is generated from the TypeScript source of truth.

import { loadJsonSchema } from "../client/schema/json-schema.ts";
import { type Dialect, dialectOf, type JsonSchemaValidator, type SchemaCheck, type SchemaValidator } from "../client/schema/schema-validator.ts";
import type { JsonObject } from "../client/types.ts";
import { isObject } from "../common/json.ts";

/** The revisions whose schema mcpwire ships (the others negotiated are not judged by schema). */
export const SHIPPED_SCHEMA_VERSIONS = ["2025-11-25", "2026-07-28"] as const;
export type ShippedSchemaVersion = (typeof SHIPPED_SCHEMA_VERSIONS)[number];

/** A shipped schema file: its text unchanged, the sha256 recorded when it was copied, where it was published. */
export interface ShippedSchema {
  readonly source: string;
  readonly sha256: string;
  readonly text: string;
}

/** The module of each version, each a literal import() (a bundler splits it off; nothing is computed). */
function importSchema(version: ShippedSchemaVersion): Promise<ShippedSchema> {
  switch (version) {
    case "2025-11-25":
      return import("./schemas/mcp-2025-11-25.ts");
    case "2026-07-28":
      return import("./schemas/mcp-2026-07-28.ts");
  }
}

/** True for a version whose schema is shipped. */
export function isShippedSchemaVersion(version: string): version is ShippedSchemaVersion {
  return (SHIPPED_SCHEMA_VERSIONS as readonly string[]).includes(version);
}

/** The shipped file of `version` (loaded on first call: about 180 KB of text). */
export function shippedSchema(version: ShippedSchemaVersion): Promise<ShippedSchema> {
  return importSchema(version);
}

/** The definition name a `$ref` like `#/$defs/CallToolRequest` names. */
function refName(value: unknown): string | undefined {
  if (!isObject(value) || typeof value.$ref !== "string") return undefined;
  const at = value.$ref.lastIndexOf("/");
  return at < 0 ? undefined : value.$ref.slice(at + 1);
}

/** One revision's schema: its definitions by name, which message each method calls for, each definition compiled once. */
export class EraSchema {
  readonly version: ShippedSchemaVersion;
  readonly dialect: Dialect;
  /** `$defs` (2020-12 schemas: 2025-11-25 on) or `definitions` (draft-07: the earlier revisions). */
  readonly #defsKey: "$defs" | "definitions";
  readonly #root: JsonObject;
  readonly #defs: Record<string, unknown>;
  readonly #compiled = new Map<string, SchemaCheck>();
  /** method → request definition, for each union (ClientRequest, ServerRequest, ServerNotification). */
  readonly #unions = new Map<string, Map<string, string>>();
  /** error code → the error response defined for it (made on first use). */
  #errorCodes: Map<number, { name: string; ref: string }> | undefined;
  /** `type` constant → the one definition that has it (undefined: several do). */
  #typeConstants: Map<string, string | undefined> | undefined;

  readonly #validator: SchemaValidator;

  /** `root`: the parsed schema file; `validator`: the one that compiles its definitions (loaded). */
  constructor(version: ShippedSchemaVersion, root: JsonObject, validator: SchemaValidator) {
    this.version = version;
    this.#validator = validator;
    this.dialect = dialectOf(root) ?? "2020-12";
    this.#defsKey = isObject(root.$defs) ? "$defs" : "definitions";
    this.#root = root;
    this.#defs = (isObject(root[this.#defsKey]) ? root[this.#defsKey] : {}) as Record<string, unknown>;
  }

  /** True when the schema defines `name`. */
  has(name: string): boolean {
    return Object.hasOwn(this.#defs, name);
  }

  /** The definition that a message of `method` is, within the union `union` (`ServerNotification`…), or undefined. */
  memberFor(union: "ClientRequest" | "ServerRequest" | "ServerNotification", method: string): string | undefined {
    let table = this.#unions.get(union);
    if (table === undefined) {
      table = new Map();
      const members = this.#defs[union];
      const list = isObject(members) && Array.isArray(members.anyOf) ? members.anyOf : [];
      for (const member of list) {
        const name = refName(member);
        const definition = name === undefined ? undefined : this.#defs[name];
        const properties = isObject(definition) && isObject(definition.properties) ? definition.properties : undefined;
        const methodSchema = properties !== undefined && isObject(properties.method) ? properties.method : undefined;
        if (name !== undefined && typeof methodSchema?.const === "string") table.set(methodSchema.const, name);
      }
      this.#unions.set(union, table);
    }
    return table.get(method);
  }

  /**
   * The result definition of a client request's method: `XResult` for `XRequest` where the
   * schema has one (ListToolsRequest → ListToolsResult), else EmptyResult (ping,
   * logging/setLevel, resources/subscribe); undefined for a method the schema does not know.
   */
  resultFor(method: string): string | undefined {
    const request = this.memberFor("ClientRequest", method);
    if (request === undefined) return undefined;
    const result = request.replace(/Request$/, "Result");
    if (result !== request && this.has(result)) return result;
    return this.has("EmptyResult") ? "EmptyResult" : "Result";
  }

  /**
   * The one definition whose `type` is the constant `type` (`"image"` → ImageContent), or
   * undefined when none or several are (`"string"`: StringSchema and the enum schemas).
   */
  definitionOfType(type: string): string | undefined {
    if (this.#typeConstants === undefined) {
      this.#typeConstants = new Map();
      for (const [name, definition] of Object.entries(this.#defs)) {
        const properties = isObject(definition) && isObject(definition.properties) ? definition.properties : undefined;
        const constant = properties !== undefined && isObject(properties.type) ? properties.type.const : undefined;
        if (typeof constant !== "string") continue;
        this.#typeConstants.set(constant, this.#typeConstants.has(constant) ? undefined : name);
      }
    }
    return this.#typeConstants.get(type);
  }

  /** The JSON Pointer (as a `$ref`) of an error response's `error` member: JSONRPCErrorResponse (2025-11-25 on) or JSONRPCError. */
  errorRef(): string | undefined {
    for (const name of ["JSONRPCErrorResponse", "JSONRPCError"]) {
      if (this.has(name)) return `#/${this.#defsKey}/${name}/properties/error`;
    }
    return undefined;
  }

  /**
   * The error response a code has its own definition for (2026-07-28: -32020 HeaderMismatchError,
   * -32021 MissingRequiredClientCapabilityError, -32022 UnsupportedProtocolVersionError, each
   * with the `data` it must carry), as the definition's name and the `$ref` of its `error`.
   */
  errorFor(code: unknown): { name: string; ref: string } | undefined {
    if (this.#errorCodes === undefined) {
      this.#errorCodes = new Map();
      for (const [name, definition] of Object.entries(this.#defs)) {
        // { properties: { error: { allOf: [{ $ref: Error }, { properties: { code: { const } } }] } } }
        const error = isObject(definition) && isObject(definition.properties) ? definition.properties.error : undefined;
        const parts = isObject(error) && Array.isArray(error.allOf) ? error.allOf : [];
        for (const part of parts) {
          const codeSchema = isObject(part) && isObject(part.properties) ? part.properties.code : undefined;
          if (isObject(codeSchema) && typeof codeSchema.const === "number") {
            this.#errorCodes.set(codeSchema.const, { name, ref: `#/${this.#defsKey}/${name}/properties/error` });
          }
        }
      }
    }
    return typeof code === "number" ? this.#errorCodes.get(code) : undefined;
  }

  /**
   * The check for a definition (`ListToolsResult`) or a `$ref` into the schema
   * (`#/$defs/JSONRPCErrorResponse/properties/error`), compiled on first use and kept for the
   * process. Throws a SchemaError when the validator cannot compile it.
   */
  check(nameOrRef: string): SchemaCheck {
    let check = this.#compiled.get(nameOrRef);
    if (check === undefined) {
      const ref = nameOrRef.startsWith("#") ? nameOrRef : `#/${this.#defsKey}/${nameOrRef}`;
      // The definitions the target reaches, so that every `$ref` inside resolves and the
      // validator walks a few KB rather than the whole document (each compile reads all it is
      // given: 10–50 ms for the whole 2025-11-25 schema, a few for a result's definitions);
      // `allOf` rather than a sibling `$ref`, which draft-07 would read alone (draft-07 §8.3).
      const root = ref.slice(`#/${this.#defsKey}/`.length).split("/")[0]!;
      check = this.#validator.compile({ [this.#defsKey]: this.#reachable(root), allOf: [{ $ref: ref }] }, this.dialect);
      this.#compiled.set(nameOrRef, check);
    }
    return check;
  }

  /**
   * The definitions `name` reaches through `$ref`s (itself included). The schemas' references
   * are all `#/$defs/Name…` (`#/definitions/Name…` in draft-07); any other kind, and the whole
   * document is given instead.
   */
  #reachable(name: string): Record<string, unknown> {
    const prefix = `#/${this.#defsKey}/`;
    const found: Record<string, unknown> = {};
    const pending = [name];
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      if (Object.hasOwn(found, next)) continue;
      if (!this.has(next)) return this.#defs; // a reference to nothing: let the validator say so
      found[next] = this.#defs[next];
      const walk: unknown[] = [this.#defs[next]];
      for (let node = walk.pop(); node !== undefined; node = walk.pop()) {
        if (Array.isArray(node)) walk.push(...node);
        else if (isObject(node)) {
          for (const [key, value] of Object.entries(node)) {
            if (key !== "$ref" || typeof value !== "string") walk.push(value);
            else if (value.startsWith(prefix)) pending.push(value.slice(prefix.length).split("/")[0]!);
            else return this.#defs;
          }
        }
      }
    }
    return found;
  }
}

const parsed = new Map<ShippedSchemaVersion, Promise<JsonObject>>();
const eras = new Map<string, Promise<EraSchema>>();

/**
 * The schema of `version`, loaded, parsed and ready to compile with `validator` (default: the
 * project's default, json-schema.ts: ajv where code generation is allowed, else the interpreting
 * one), once per process; undefined for a version whose schema is not shipped. A load that fails
 * (a validator this build lacks) is not kept: the next call tries again.
 */
export function loadEraSchema(version: string, validator?: JsonSchemaValidator): Promise<EraSchema> | undefined {
  if (!isShippedSchemaVersion(version)) return undefined;
  const key = `${version} ${validator ?? "default"}`;
  let era = eras.get(key);
  if (era === undefined) {
    let root = parsed.get(version);
    if (root === undefined) {
      root = shippedSchema(version).then((shipped) => JSON.parse(shipped.text) as JsonObject);
      root.catch(() => parsed.delete(version));
      parsed.set(version, root);
    }
    era = Promise.all([root, loadJsonSchema(validator)]).then(([document, loaded]) => new EraSchema(version, document, loaded));
    era.catch(() => eras.delete(key));
    eras.set(key, era);
  }
  return era;
}
