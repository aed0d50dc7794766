// A one-line summary of a tool's input schema for humans: `(message*: string, count: number)`.
// `*` marks a required property. Only the top level is shown; nested shapes get their type.

type Schema = Record<string, unknown>;

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A short type for one property schema: string, number, "a"|"b", string[], object, … */
export function typeOf(schema: unknown): string {
  if (!isSchema(schema)) return "any";
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join("|");
  if ("const" in schema) return JSON.stringify(schema.const);
  const type = schema.type;
  if (type === "array") return `${typeOf(schema.items)}[]`;
  if (typeof type === "string") return type;
  if (Array.isArray(type)) return type.join("|");
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = schema[key];
    if (Array.isArray(options)) return options.map(typeOf).join("|");
  }
  return "any";
}

export function summarizeInputSchema(schema: unknown): string {
  if (!isSchema(schema) || !isSchema(schema.properties)) return "()";
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const parts = Object.entries(schema.properties).map(
    ([name, property]) => `${name}${required.has(name) ? "*" : ""}: ${typeOf(property)}`,
  );
  return `(${parts.join(", ")})`;
}
