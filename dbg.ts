import { loadJsonSchema } from "/work/wt-interp/src/client/json-schema.ts";
const [ajv, it] = await Promise.all([loadJsonSchema("ajv"), loadJsonSchema("interpreting")]);
const cases = JSON.parse(process.argv[2]!);
for (const [dialect, schema, value] of cases) {
  for (const v of [ajv, it]) { try { console.log(v.name, JSON.stringify(v.compile(schema, dialect)(value))); } catch (e) { console.log(v.name, "ERR", String(e)); } }
}
