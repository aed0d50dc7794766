// mcphost's server shape written in our own config (issue 27): `type: local` with `command` as a
// list (the program first), `environment`, `allowedTools` / `excludedTools`, or `type: remote`
// with `url` and `headers` as a list of "Name: value" (mark3labs/mcphost internal/config/config.go,
// MCPServerConfig and GetTransportType). Only an entry whose `type` is `local` or `remote` is
// rewritten (then it cannot mean anything else); its positions stay those of mcphost's keys.

import { isObject, nameTable, setOwn } from "../../common/json.ts";
import type { Path } from "./syntax.ts";

/** An entry in our keys, and for each key that moved (dotted) the mcphost key it came from. */
export interface OwnShape {
  entry: Record<string, unknown>;
  sourceKeys: Record<string, Path>;
}

/** What mcphost's `type` means here: `local` runs a command over stdio, `remote` is Streamable HTTP. */
const MCPHOST_TYPES: Readonly<Record<string, string>> = { local: "stdio", remote: "http" };

/** The entry in our keys, or undefined when it is not in mcphost's shape. */
export function ownMcphostShape(raw: unknown): OwnShape | undefined {
  if (!isObject(raw) || typeof raw.type !== "string" || !Object.hasOwn(MCPHOST_TYPES, raw.type)) return undefined;
  const entry: Record<string, unknown> = {};
  const sourceKeys: Record<string, Path> = nameTable();
  for (const [key, value] of Object.entries(raw)) {
    switch (key) {
      case "type":
        entry.type = MCPHOST_TYPES[value as string];
        continue;
      case "command":
        if (Array.isArray(value) && value.length > 0) {
          entry.command = value[0];
          sourceKeys.command = ["command", 0];
          entry.args = [...value.slice(1), ...(Array.isArray(entry.args) ? entry.args : [])];
          sourceKeys.args = ["command"];
          for (let index = 1; index < value.length; index++) sourceKeys[`args.${index - 1}`] = ["command", index];
        } else {
          entry.command = value;
        }
        continue;
      case "args":
        entry.args = Array.isArray(value) && Array.isArray(entry.args) ? [...entry.args, ...value] : value;
        continue;
      case "environment":
        entry.env = isObject(value) && isObject(entry.env) ? { ...entry.env, ...value } : value;
        sourceKeys.env = ["environment"];
        continue;
      case "env":
        entry.env = isObject(value) && isObject(entry.env) ? { ...value, ...entry.env } : value;
        continue;
      case "allowedTools":
      case "excludedTools": {
        const which = key === "allowedTools" ? "include" : "exclude";
        entry.tools = { ...(isObject(entry.tools) ? entry.tools : {}), [which]: value };
        sourceKeys[`tools.${which}`] = [key];
        continue;
      }
      case "headers":
        entry.headers = Array.isArray(value) ? headerLines(value) ?? value : value;
        continue;
    }
    setOwn(entry, key, value);
  }
  return { entry, sourceKeys };
}

/** `["Name: value", …]` as a mapping; undefined when one line is not a header (the schema then says so). */
function headerLines(lines: unknown[]): Record<string, unknown> | undefined {
  const headers: Record<string, unknown> = {};
  for (const line of lines) {
    const colon = typeof line === "string" ? line.indexOf(":") : -1;
    if (colon <= 0) return undefined;
    setOwn(headers, (line as string).slice(0, colon).trim(), (line as string).slice(colon + 1).trim());
  }
  return headers;
}

/** `path` under the entry (our keys) as written in the file (mcphost's keys). */
export function mcphostSourcePath(shape: OwnShape, path: Path): Path {
  for (let length = path.length; length > 0; length--) {
    const from = shape.sourceKeys[path.slice(0, length).join(".")];
    if (from !== undefined) return [...from, ...path.slice(length)];
  }
  return path;
}
