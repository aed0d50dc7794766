// The JSON Schema keywords whose values are subschemas (JSON Schema 2020-12 core "Keywords for
// Applying Subschemas", with draft-07's additionalItems and definitions): what a walk over a
// schema follows. `items` is left to each walk, since it is one schema in 2020-12 and a schema or
// a list of them in the older drafts; so is `contentSchema` (an annotation of the content vocabulary).

/** Keywords whose value is one schema. */
export const ONE_SCHEMA_KEYWORDS: readonly string[] = [
  "additionalItems",
  "unevaluatedItems",
  "contains",
  "additionalProperties",
  "unevaluatedProperties",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
];

/** Keywords whose value is a non-empty list of schemas. */
export const SCHEMA_LIST_KEYWORDS: readonly string[] = ["prefixItems", "allOf", "anyOf", "oneOf"];

/** Keywords whose value is an object of schemas, by name. */
export const SCHEMA_MAP_KEYWORDS: readonly string[] = ["$defs", "definitions", "properties", "patternProperties", "dependentSchemas"];
