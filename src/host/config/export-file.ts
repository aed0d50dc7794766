// `mcpwire export --write`: exported servers merged into the app's own file, the rest of it kept
// as written. JSON (with the comments and trailing commas VS Code, Cursor and Gemini CLI allow)
// is spliced at the positions the yaml package gives for the text with its comments blanked
// (edit.ts's splicing), so every byte outside the added entries stays; Codex's TOML gets each
// server as a `[mcp_servers.NAME]` table appended at the end (smol-toml writes it). The result
// is parsed and compared with what was meant before it is written, atomically — as edit.ts
// writes: CRLF kept, UTF-8 only, a link written through, under the file's lock.

import { isMap, parseDocument } from "yaml";
import { isObject } from "../../common/json.ts";
import { runtime } from "../../runtime/mod.ts";
import { withFileLock } from "../store/file-lock.ts";
import type { Env } from "./context.ts";
import { addMember, editTarget, findPair, lineEnds, readForEdit, replaceValue } from "./edit.ts";
import { type ExportApp, type ExportedServer, SERVERS_KEY } from "./export-formats.ts";
import { importSources } from "./import-sources.ts";
import { withoutComments } from "./imports.ts";
import { ConfigError } from "./types.ts";

/** The app's file `--write` merges into: its user-level file, or with `project` its file in `cwd`; undefined when it has none there. */
export function exportTarget(app: ExportApp, options: { cwd: string; env: Env; project: boolean }): string | undefined {
  const scope = options.project ? "project" : "user";
  // The first of the app's files of that scope, in its servers key (VS Code: mcp.json, not settings.json).
  const source = importSources(app, { cwd: options.cwd, env: options.env }).find((each) =>
    each.scope === scope && each.serversPath.length === 1 && each.serversPath[0] === SERVERS_KEY[app]
  );
  return source?.file;
}

/** What writeExport did. */
export interface ExportWritten {
  file: string;
  created: boolean;
  added: string[];
  replaced: string[];
}

/**
 * Merges `servers` into `file` (made, owner-only, when absent). A server of the same name is
 * replaced only with `force`; otherwise nothing is written and a ConfigError names them all.
 */
export async function writeExport(app: ExportApp, file: string, servers: readonly ExportedServer[], force: boolean): Promise<ExportWritten> {
  const target = await editTarget(file);
  // As edit.ts: under the pins' lock, in the file's own line ends, UTF-8 only, a link written through.
  return withFileLock(target, async () => {
    const { text, info } = await readForEdit(target, file);
    const ends = lineEnds(text);
    const merged = app === "codex" ? await mergeToml(ends.text, file, servers, force) : mergeJson(ends.text, file, SERVERS_KEY[app], servers, force);
    const written = ends.restore(merged.text);
    if (written !== text) await runtime.writePrivateFile(target, written, info?.mode ?? undefined);
    return {
      file,
      created: text === undefined,
      added: servers.map((server) => server.name).filter((name) => !merged.replaced.includes(name)),
      replaced: merged.replaced,
    };
  });
}

function clash(file: string, names: readonly string[]): ConfigError {
  const list = names.map((name) => `"${name}"`).join(", ");
  return new ConfigError(
    `${file} has ${names.length === 1 ? "a server" : "servers"} ${list} already; pass --force to replace ${names.length === 1 ? "it" : "them"}, ` +
      `or name the servers to export (mcpwire export --to … SERVER…); the file was not changed`,
    "invalid-config",
    { file },
  );
}

function unchanged(file: string, detail: string): ConfigError {
  return new ConfigError(`${file}: ${detail}; the file was not changed`, "invalid-config", { file });
}

// JSON

/** The text with the servers under `key`; `text` undefined or blank: a new file. */
export function mergeJson(
  text: string | undefined,
  file: string,
  key: string,
  servers: readonly ExportedServer[],
  force: boolean,
): { text: string; replaced: string[] } {
  const bom = text?.charCodeAt(0) === 0xfeff ? "\ufeff" : "";
  let body = text === undefined ? "" : text.slice(bom.length);
  if (body.trim() === "") {
    const table: Record<string, unknown> = {};
    for (const { name, entry } of servers) Object.defineProperty(table, name, { value: entry, enumerable: true, writable: true, configurable: true });
    return { text: bom + JSON.stringify({ [key]: table }, null, 2) + "\n", replaced: [] };
  }
  const before = readJson(body, file);
  const existing = isObject(before[key]) ? before[key] : undefined;
  if (before[key] !== undefined && existing === undefined) throw unchanged(file, `"${key}" is not an object`);
  const replaced = servers.map((server) => server.name).filter((name) => existing !== undefined && Object.hasOwn(existing, name));
  if (replaced.length > 0 && !force) throw clash(file, replaced);
  for (const { name, entry } of servers) {
    // The positions of the text as it is now, its comments blanked (offsets unchanged).
    const doc = parseDocument(withoutComments(body), { keepSourceTokens: false, uniqueKeys: false });
    const root = doc.contents;
    if (doc.errors[0] !== undefined || !isMap(root)) throw unchanged(file, "cannot find where to add the servers in it");
    const map = root.get(key, true);
    if (!isMap(map)) {
      body = addMember(body, root, key, { [name]: entry });
      continue;
    }
    const pair = findPair(map, name);
    body = pair === undefined ? addMember(body, map, name, entry) : replaceValue(body, pair, entry);
  }
  // What was meant: the servers there as exported, every other key as it was.
  const after = readJson(body, file);
  checkMerged(file, before, after, key, servers);
  return { text: bom + body, replaced };
}

function readJson(body: string, file: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(withoutComments(body));
  } catch (error) {
    throw unchanged(file, `it is not valid JSON (${error instanceof Error ? error.message : String(error)}); fix it first`);
  }
  if (!isObject(value)) throw unchanged(file, "its top level is not an object");
  return value;
}

function checkMerged(file: string, before: Record<string, unknown>, after: Record<string, unknown>, key: string, servers: readonly ExportedServer[]): void {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const rest = (value: Record<string, unknown>) => Object.entries(value).filter(([name]) => name !== key);
  const oldServers = isObject(before[key]) ? before[key] : {};
  const newServers = isObject(after[key]) ? after[key] : {};
  const names = new Set(servers.map((server) => server.name));
  const ok = same(rest(before), rest(after)) &&
    servers.every(({ name, entry }) => same(newServers[name], entry)) &&
    Object.keys(oldServers).every((name) => names.has(name) || same(oldServers[name], newServers[name])) &&
    Object.keys(newServers).every((name) => names.has(name) || Object.hasOwn(oldServers, name));
  if (!ok) throw unchanged(file, "the merged text did not read back as meant (a bug in mcpwire export; please report it)");
}

// TOML (Codex)

/** A `[a.b."c d"]` header line's key path; undefined for any other line. */
function headerKeys(line: string): string[] | undefined {
  const match = /^\s*\[(?!\[)(.*)\]\s*(?:#.*)?$/.exec(line);
  if (match === null) return undefined;
  const keys: string[] = [];
  const segment = /\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*(\.|$)/y;
  const inner = match[1] ?? "";
  let at = 0;
  while (at < inner.length) {
    segment.lastIndex = at;
    const found = segment.exec(inner);
    if (found === null) return undefined;
    keys.push(found[1] !== undefined ? JSON.parse(`"${found[1]}"`) as string : found[2] ?? found[3] ?? "");
    at = segment.lastIndex;
    if (found[4] === "") break;
  }
  return keys;
}

/** The text with `[mcp_servers.NAME]` tables appended (a replaced server's tables cut first). */
export async function mergeToml(
  text: string | undefined,
  file: string,
  servers: readonly ExportedServer[],
  force: boolean,
): Promise<{ text: string; replaced: string[] }> {
  const { parse, stringify } = await import("smol-toml");
  const read = (body: string): Record<string, unknown> => {
    try {
      return parse(body) as Record<string, unknown>;
    } catch (error) {
      throw unchanged(file, `it is not valid TOML (${(error instanceof Error ? error.message : String(error)).split("\n")[0]}); fix it first`);
    }
  };
  const tables = (list: readonly ExportedServer[]) => {
    const table: Record<string, unknown> = {};
    for (const { name, entry } of list) Object.defineProperty(table, name, { value: entry, enumerable: true, writable: true, configurable: true });
    return stringify({ mcp_servers: table }) + "\n";
  };
  let body = text ?? "";
  if (body.trim() === "") return { text: tables(servers), replaced: [] };
  const before = read(body);
  const existing = isObject(before.mcp_servers) ? before.mcp_servers : {};
  const replaced = servers.map((server) => server.name).filter((name) => Object.hasOwn(existing, name));
  if (replaced.length > 0 && !force) throw clash(file, replaced);
  for (const name of replaced) body = cutTomlServer(body, file, name);
  const gap = body === "" || body.endsWith("\n\n") ? "" : body.endsWith("\n") ? "\n" : "\n\n";
  body += gap + tables(servers);
  const after = read(body);
  const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
  checkMerged(file, plain(before), plain(after), "mcp_servers", servers);
  return { text: body, replaced };
}

/** The text without server `name`'s tables (`[mcp_servers.NAME]`, `[mcp_servers.NAME.env]`); trailing comments and blank lines stay. */
function cutTomlServer(body: string, file: string, name: string): string {
  const lines = body.split("\n");
  const out: string[] = [];
  let cutting = false;
  let found = false;
  let held: string[] = [];
  for (const line of lines) {
    const keys = headerKeys(line);
    if (keys !== undefined) {
      const mine = keys[0] === "mcp_servers" && keys[1] === name;
      if (cutting && !mine) out.push(...held);
      held = [];
      cutting = mine;
      found ||= mine;
      if (mine) continue;
    }
    if (!cutting) {
      out.push(line);
      continue;
    }
    // Comments and blank lines after the table may belong to what follows: held until we know.
    if (/^\s*(#.*)?$/.test(line)) held.push(line);
    else held = [];
  }
  if (cutting) out.push(...held);
  if (!found) {
    throw unchanged(file, `server "${name}" is not written as a [mcp_servers.${name}] table, so --force cannot replace it; remove it by hand first`);
  }
  return out.join("\n");
}
