// `npm run schema`: writes schema/mcpwire.schema.json, the config's JSON Schema (what `mcpwire
// config schema` prints), for editors: a YAML config that starts with
//   # yaml-language-server: $schema=<path or URL of this file>
// gets completion and checks (examples/mcpwire.yaml does). `npm run schema -- --check` only
// compares; test/cli/config-reference.test.ts fails when the committed file is out of date.

import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { configSchema } from "../src/cli/verbs/config-verb.ts";

/** The committed schema file. */
export const SCHEMA_FILE = fileURLToPath(new URL("../schema/mcpwire.schema.json", import.meta.url));

/** The file's text: the schema as `mcpwire config schema` prints it. */
export function schemaText(): string {
  return JSON.stringify(configSchema(), null, 2) + "\n";
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const text = schemaText();
  if (process.argv.includes("--check")) {
    let current = "";
    try {
      current = readFileSync(SCHEMA_FILE, "utf8");
    } catch {
      // missing: out of date
    }
    if (current !== text) {
      console.error("schema/mcpwire.schema.json is out of date: run `npm run schema`");
      process.exit(1);
    }
    console.log("schema/mcpwire.schema.json is up to date");
  } else {
    writeFileSync(SCHEMA_FILE, text);
    console.log(`wrote ${SCHEMA_FILE}`);
  }
}
