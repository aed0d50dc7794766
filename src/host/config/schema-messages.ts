// The messages of schema findings: what a key must be, and an unknown key with the known key it
// most likely meant (same letters modulo case and `_`/`-`, another client's name for it, or a typo).

import { editDistance } from "../../common/nearest-name.ts";
import { type Context, describe, formatKey, problem } from "./context.ts";
import { AUTH_KEYS, EXPECTED, HOST_KEYS, SAMPLING_KEYS, SANDBOX_KEYS, SERVER_KEYS, SERVER_RESULTS_KEYS } from "./schema.ts";
import type { Path } from "./syntax.ts";
import type { ConfigError } from "./types.ts";
import { valueAt } from "./validate.ts";

/** "must be …" for a schema error at `rest` (the key path within a server; empty: the server itself). */
export function schemaMessage(rest: Path, actual: unknown, json: boolean): string {
  if (rest.length === 0) {
    return `must be a mapping of its settings (command, args, env, … or url, headers, …); it is ${describe(actual, json)}`;
  }
  const nested = rest.length >= 2 && typeof rest[1] === "string" ? `${rest[0]}.${rest[1]}` : undefined;
  const subjectPath = nested !== undefined && EXPECTED[nested] !== undefined ? rest.slice(0, 2) : rest.slice(0, 1);
  const expected = EXPECTED[subjectPath.join(".")] ?? "something else";
  const subject = formatKey(subjectPath);
  const keyPath = formatKey(rest);
  return subject === keyPath
    ? `"${subject}" must be ${expected}; it is ${describe(actual, json)}`
    : `"${subject}" must be ${expected}; "${keyPath}" is ${describe(actual, json)}`;
}

export function unknownKey(context: Context, path: Path, root: unknown): ConfigError {
  const key = String(path.at(-1));
  const location = context.parsed.locate(path, "key");
  if (path.length === 1) {
    const known = context.json ? ["mcpServers", "mcp_servers"] : ["mcp_servers", "mcpServers"];
    const guess = suggest(key, [...known, ...HOST_KEYS, "imports"]);
    return problem(
      context,
      location,
      `unknown key "${key}" is ignored; ${guess ? `did you mean "${guess}"?` : `the servers go under "${known[0]}"`}`,
    );
  }
  const server = String(path[1]);
  const within = path.slice(2, -1);
  const known: readonly string[] = within.length === 0
    ? SERVER_KEYS
    : within[0] === "sampling"
    ? SAMPLING_KEYS
    : within[0] === "auth"
    ? AUTH_KEYS
    : within[0] === "results"
    ? SERVER_RESULTS_KEYS
    : within[0] === "sandbox"
    ? SANDBOX_KEYS
    : ["include", "exclude"];
  const keyPath = formatKey([...within, key]);
  let hint: string;
  if (within.length === 0 && key === "disabled") {
    const value = valueAt(root, path);
    hint = value === true ? "this server stays enabled; write enabled: false to disable it" : "write enabled: false to disable a server";
  } else {
    const guess = suggest(key, known);
    hint = guess ? `did you mean "${formatKey([...within, guess])}"?` : `known keys: ${known.join(", ")}`;
  }
  return problem(context, location, `unknown key "${keyPath}" is ignored; ${hint}`, { server, key: keyPath });
}

/** Other names people give a key (from other clients' configs), squashed as suggest() compares them. */
const KEY_ALIASES: Readonly<Record<string, string>> = {
  environment: "env",
  arguments: "args",
  argv: "args",
  workingdirectory: "cwd",
  workdir: "cwd",
  dir: "cwd",
  endpoint: "url",
  uri: "url",
  servers: "mcp_servers",
};

/** The known key a mistyped one most likely meant: same letters modulo case and `_`/`-`, an alias, or at most 2 edits. */
export function suggest(key: string, known: readonly string[]): string | undefined {
  const squash = (text: string) => text.toLowerCase().replace(/[-_]/g, "");
  const candidates = new Map<string, string>(known.map((name) => [squash(name), name]));
  for (const [alias, name] of Object.entries(KEY_ALIASES)) if (known.includes(name)) candidates.set(alias, name);
  const squashed = squash(key);
  const same = candidates.get(squashed);
  if (same !== undefined) return same;
  let best: string | undefined;
  let bestDistance = Math.min(2, Math.floor(key.length / 2)) + 1;
  for (const [candidate, name] of candidates) {
    const distance = editDistance(squashed, candidate);
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}
