// `mcpwire config schema` (the config's JSON Schema) and `mcpwire help config` (every key, its
// type, default and an example, written from the same schema).

import { isObject } from "../../common/json.ts";
import { CONFIG_SCHEMA, SERVER_SCHEMA } from "../../host/config/schema.ts";
import { parseArgs, UsageError } from "../args.ts";
import { write } from "../output.ts";

export const CONFIG_USAGE = `usage: mcpwire config schema

config schema   prints the config's JSON Schema (2020-12); the package holds it too, as
                schema/mcpwire.schema.json. Editors complete a YAML file that starts with
                # yaml-language-server: $schema=node_modules/mcpwire/schema/mcpwire.schema.json
                (or the path of a file this printed)`;

type Schema = Record<string, unknown>;

/** The options `mcpwire config` takes: none. */
export const CONFIG_OPTIONS = {} as const;

export async function config(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, CONFIG_OPTIONS);
  const [what, ...extra] = args.positional;
  if (what !== "schema" || extra.length > 0) {
    throw new UsageError(what === undefined ? "config needs what to do: mcpwire config schema" : `unknown "config ${what}"; try mcpwire config schema`);
  }
  await write("stdout", JSON.stringify(configSchema(), null, 2) + "\n");
  return 0;
}

/** The schema as printed. */
export function configSchema(): Schema {
  return CONFIG_SCHEMA;
}

/** `mcpwire help config`: the usage, then every key of the schema. */
export function configHelp(): string {
  const lines = [CONFIG_USAGE, "", "The config file: every key, its type, default and an example.", "", "Top level:"];
  const top = CONFIG_SCHEMA.properties as Schema;
  for (const [key, schema] of Object.entries(top)) {
    if (key === "mcpServers") continue;
    if (key === "mcp_servers") {
      lines.push(...keyLines("mcp_servers (JSON: mcpServers)", schema as Schema, "  ", false), "      NAME: a server, with the keys below");
    } else lines.push(...keyLines(key, schema as Schema, "  "));
  }
  lines.push("", "Each server (mcp_servers.NAME):");
  for (const [key, schema] of Object.entries(SERVER_SCHEMA.properties as Schema)) lines.push(...keyLines(key, schema as Schema, "  "));
  return lines.join("\n");
}

/** One key: its name and type, then its description, default and example, then its nested keys. */
function keyLines(key: string, schema: Schema, indent: string, nested = true): string[] {
  const lines = [`${indent}${key}: ${typeOf(schema)}`];
  const more = `${indent}    `;
  if (typeof schema.description === "string") lines.push(`${more}${schema.description}`);
  if (schema.default !== undefined) lines.push(`${more}default: ${JSON.stringify(schema.default)}`);
  const example = Array.isArray(schema.examples) ? schema.examples[0] : undefined;
  if (example !== undefined) lines.push(`${more}example: ${key.split(" ")[0]}: ${JSON.stringify(example)}`);
  if (!nested) return lines;
  for (const [name, inner] of Object.entries(nestedKeys(schema))) lines.push(...keyLines(`${key.split(" ")[0]}.${name}`, inner, indent + "  "));
  return lines;
}

/** The keys of a mapping the schema describes (in one of its anyOf branches too; a list's items; a map's values). */
function nestedKeys(schema: Schema): Record<string, Schema> {
  const mapping = schema.type === "object" || (Array.isArray(schema.type) && schema.type.includes("object"));
  if (isObject(schema.properties) && mapping) return schema.properties as Record<string, Schema>;
  if (Array.isArray(schema.anyOf)) {
    for (const branch of schema.anyOf) if (isObject(branch) && isObject(branch.properties)) return branch.properties as Record<string, Schema>;
  }
  const values = isObject(schema.additionalProperties) ? schema.additionalProperties : undefined;
  // A list's items, or the first of their forms (hooks: ours before Claude Code's nested one).
  const items = isObject(values?.items) ? values.items : undefined;
  const item = Array.isArray(items?.anyOf) && isObject(items.anyOf[0]) ? items.anyOf[0] : items;
  if (isObject(item?.properties)) return prefixed(item.properties, "NAME[].");
  if (isObject(values?.properties)) return prefixed(values.properties, "NAME.");
  return {};
}

function prefixed(properties: Record<string, unknown>, prefix: string): Record<string, Schema> {
  return Object.fromEntries(Object.entries(properties).map(([key, value]) => [prefix + key, value as Schema]));
}

/** The type in words: `string`, `number > 0`, `one of "a", "b"`, `false or mapping`. */
function typeOf(schema: Schema): string {
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((value) => JSON.stringify(value)).join(", ")}`;
  if ("const" in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.anyOf)) return schema.anyOf.map((branch) => typeOf(branch as Schema)).join(" or ");
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  const words = types.map((type) => {
    if (type === "object") {
      if (schema.properties !== undefined) return "mapping";
      if (isObject(schema.propertyNames) && Array.isArray(schema.propertyNames.enum)) return `mapping of ${schema.propertyNames.enum.join(", ")}`;
      return isObject(schema.additionalProperties) && schema.additionalProperties.type === "boolean" ? "mapping of names to true/false" : "mapping";
    }
    // `if: { type: string }, then: { enum }` (sandbox): the strings it takes.
    if (type === "string" && isObject(schema.then) && Array.isArray(schema.then.enum)) {
      return schema.then.enum.map((value) => JSON.stringify(value)).join(", ");
    }
    if (type === "array") return isObject(schema.items) && schema.items.type === "string" ? "list of strings" : "list";
    if (type === "integer") return schema.minimum !== undefined ? `whole number ≥ ${schema.minimum}` : "whole number";
    if (type === "number") return schema.exclusiveMinimum !== undefined ? `number > ${schema.exclusiveMinimum}` : "number";
    return String(type);
  });
  return words.length === 0 ? "any" : words.join(" or ");
}
