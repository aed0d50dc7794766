// A config file edited in place (`mcpwire add`, `remove`, `enable`, `disable`): one server's
// entry added, replaced, removed, or its `enabled` set, everything else kept as written. YAML
// through the `yaml` package's Document (comments and order kept); JSON by splicing the text at
// the positions the same package gives, so bytes outside the entry stay as they were. The result
// is checked by parseConfig before it is written (atomically, keeping the file's mode). Nothing
// is run or expanded: the check reads no environment variable. The user's bytes are kept: CRLF
// line ends stay CRLF, a file that is not UTF-8 is refused rather than rewritten, a symbolic
// link is written through to its file, and each read-change-write holds the lock the tool pins
// use (file-lock.ts), so concurrent `mcpwire add`s lose nothing.

import { Document, isMap, isScalar, type Pair, parseDocument, type YAMLMap } from "yaml";
import { FileError } from "../../runtime/errors.ts";
import { runtime } from "../../runtime/mod.ts";
import type { LinkInfo } from "../../runtime/types.ts";
import { withFileLock } from "../store/file-lock.ts";
import type { Env } from "./context.ts";
import { parseConfig } from "./parse.ts";
import { userConfigPaths } from "./paths.ts";
import { SERVERS_KEYS } from "./schema.ts";
import { formatOf, tooDeep } from "./syntax.ts";
import { ConfigError } from "./types.ts";

/** A server entry as written to the file: plain JSON values, keys in the order to write them. */
export type ServerEntry = Record<string, unknown>;

/** A server as the command line gives it: a command and its arguments, or a URL. */
export interface ServerParts {
  command?: string;
  args?: readonly string[];
  url?: string;
  /** With url: the transport asked for (`--http`, `--sse`). */
  transport?: "http" | "sse";
  headers?: Record<string, string>;
  env?: Record<string, string>;
  cwd?: string;
}

/** One change: add (or with `force` replace) a server, remove one, or set its `enabled`. */
export type ConfigEdit =
  | { kind: "add"; name: string; server: ServerParts; force?: boolean }
  | { kind: "remove"; name: string }
  | { kind: "enable" | "disable"; name: string };

/** What editConfigFile did. */
export interface EditOutcome {
  file: string;
  /** The file did not exist and was made. */
  created: boolean;
  /** Whether the text changed (enable of an enabled server does not). */
  changed: boolean;
  /** add: a server of that name was there and was replaced (`force`). */
  replaced: boolean;
}

/**
 * The user's config file the CLI reads when the working directory has none: the first of
 * userConfigPaths() that exists, else `$XDG_CONFIG_HOME/mcpwire/config.yaml` (to be made).
 */
export async function userConfigFile(env: Env): Promise<string> {
  const paths = userConfigPaths(env);
  for (const path of paths) if ((await runtime.linkInfo(path)) !== undefined) return path;
  const last = paths.at(-1);
  if (last === undefined) {
    throw new ConfigError("cannot find the user's config directory: neither HOME nor XDG_CONFIG_HOME is set; pass --file FILE", "config-not-found");
  }
  return last;
}

/**
 * Applies `edit` to the config file `file` (made when absent, for an add: owner-only, as the
 * user's other files). A name that exists (add without `force`), one that does not (the other
 * edits), or a result parseConfig finds wrong is a ConfigError and the file is left untouched.
 */
export async function editConfigFile(file: string, edit: ConfigEdit): Promise<EditOutcome> {
  const target = await editTarget(file);
  // The read-change-write under the lock the pins use (file-lock.ts): two `mcpwire add` at once both land.
  return withFileLock(target, async () => {
    const { text, info } = await readForEdit(target, file);
    if (text === undefined && edit.kind !== "add") {
      throw new ConfigError(`config file "${file}" not found, so it has no server "${edit.name}"`, "config-not-found", { file });
    }
    const ends = lineEnds(text);
    const { text: editedLf, replaced } = editConfigText(ends.text, file, edit);
    checkEdited(editedLf, file, edit);
    const edited = ends.restore(editedLf);
    if (edited !== text) await runtime.writePrivateFile(target, edited, info?.mode ?? undefined);
    return { file, created: text === undefined, changed: edited !== text, replaced };
  });
}

/**
 * The file an edit of `file` writes: `file`, or the file a symbolic link there points to (written
 * through, the link kept, as editors do). Anything but a regular file (or nothing yet) is refused.
 */
export async function editTarget(file: string): Promise<string> {
  const info = await runtime.linkInfo(file);
  if (info === undefined) return file;
  const target = info.kind === "symlink" ? await runtime.realPath(file) : file;
  const real = target === undefined ? undefined : await runtime.linkInfo(target);
  if (target === undefined || real === undefined) {
    throw new ConfigError(`cannot edit config file "${file}": it is a symbolic link to a file that does not exist; pass another --file`, "unreadable-config", {
      file,
    });
  }
  if (real.kind !== "file") {
    throw new ConfigError(`cannot edit config file "${file}": it is not a regular file (${real.kind}); pass a file with --file`, "unreadable-config", { file });
  }
  return target;
}

/**
 * The text of a config file to edit (undefined: not there), and what lstat says of it (its mode
 * is kept). Only UTF-8 is edited: a file with other bytes (a Latin-1 `é` in a comment) would
 * have them turned into U+FFFD on writing, so it is refused, saying where and what to do.
 */
export async function readForEdit(target: string, file: string): Promise<{ text: string | undefined; info: LinkInfo | undefined }> {
  const info = await runtime.linkInfo(target);
  if (info === undefined) return { text: undefined, info };
  try {
    return { text: await runtime.readTextFile(target, { strict: true }), info };
  } catch (error) {
    if (error instanceof FileError && error.code === "EILSEQ") {
      throw new ConfigError(
        `cannot edit config file "${file}": ${error.message}; mcpwire edits only UTF-8 files, so that no byte it cannot read is changed. ` +
          `Convert it (iconv -f latin1 -t utf-8) or make the change by hand; the file was not changed`,
        "unreadable-config",
        { file, cause: error },
      );
    }
    const code = error instanceof FileError ? ` (${error.code})` : "";
    throw new ConfigError(`cannot read config file "${file}"${code}; check its permissions`, "unreadable-config", { file, cause: error });
  }
}

/**
 * A file's text with CRLF line ends read as LF for editing, and `restore` that gives an edited
 * text the file's line ends again: a file whose every line ends in CRLF (written on Windows)
 * keeps CRLF, the lines added too. A file with LF (or both) is edited as it is.
 */
export function lineEnds(text: string | undefined): { text: string | undefined; restore(edited: string): string } {
  const crlf = text !== undefined && text.includes("\r\n") && !/(^|[^\r])\n/.test(text);
  if (!crlf) return { text, restore: (edited) => edited };
  return { text: text.replaceAll("\r\n", "\n"), restore: (edited) => edited.replace(/\r?\n/g, "\r\n") };
}

/** The text after `edit`; `text` undefined: a new file. Throws a ConfigError for a name that is (add) or is not (the others) there. */
export function editConfigText(text: string | undefined, file: string, edit: ConfigEdit): { text: string; replaced: boolean } {
  const bom = text?.charCodeAt(0) === 0xfeff ? "\ufeff" : "";
  const body = text === undefined ? "" : text.slice(bom.length);
  const json = formatOf(file, body) === "json";
  if (body.trim() === "") return { text: bom + newFile(json, edit, file), replaced: false };
  const entry = edit.kind === "add" ? serverEntry(edit.server, json) : {};
  const deep = tooDeep(body, json ? "json" : "yaml");
  if (deep) throw new ConfigError(`${file}: ${deep.syntaxError?.message ?? "nested too deeply"}; the file was not changed`, "invalid-config", { file });
  const doc = parseDocument(body, { keepSourceTokens: false, uniqueKeys: false });
  if (doc.errors[0] !== undefined) {
    throw new ConfigError(
      `${file}: it is not valid ${json ? "JSON" : "YAML"} (${doc.errors[0].message}); fix it first, the file was not changed`,
      "invalid-config",
      { file },
    );
  }
  const root = doc.contents;
  if (!isMap(root)) throw new ConfigError(`${file}: the top level is not a mapping; fix it first, the file was not changed`, "invalid-config", { file });
  const serversKey = SERVERS_KEYS.find((key) => root.has(key)) ?? (json ? "mcpServers" : "mcp_servers");
  const servers = root.get(serversKey, true);
  const pair = isMap(servers) ? findPair(servers, edit.name) : undefined;
  if (edit.kind === "add" && pair !== undefined && !edit.force) {
    throw new ConfigError(`${file}: a server "${edit.name}" exists already; pass --force to replace it, or choose another name`, "invalid-config", {
      file,
      server: edit.name,
    });
  }
  if (edit.kind !== "add" && pair === undefined) {
    const names = isMap(servers) ? servers.items.map((item) => `"${String(isScalar(item.key) ? item.key.value : item.key)}"`) : [];
    const known = names.length === 0 ? "it has no servers" : `its servers: ${names.join(", ")}`;
    throw new ConfigError(`${file}: no server "${edit.name}"; ${known}`, "invalid-config", { file, server: edit.name });
  }
  const replaced = edit.kind === "add" && pair !== undefined;
  if (!json) {
    // The splice keeps every byte outside the entry; the Document (which normalizes some spacing)
    // is the reference it must agree with, and the answer where the splice cannot be made.
    const spliced = spliceYaml(body, servers, pair, edit, entry);
    const whole = editYaml(doc, serversKey, servers, edit, entry);
    return { text: bom + (spliced !== undefined && sameYaml(spliced, whole) ? spliced : whole), replaced };
  }
  return { text: bom + editJson(body, root, serversKey, servers, pair, edit, entry), replaced };
}

function newFile(json: boolean, edit: ConfigEdit, file: string): string {
  if (edit.kind !== "add") throw new ConfigError(`config file "${file}" is empty, so it has no server "${edit.name}"`, "invalid-config", { file });
  const servers = { [edit.name]: serverEntry(edit.server, json) };
  if (json) return JSON.stringify({ mcpServers: servers }, null, 2) + "\n";
  const doc = parseDocument("mcp_servers:\n");
  doc.set("mcp_servers", doc.createNode(servers));
  return String(doc);
}

/** The last pair of `map` whose key is `name` (the one a reader keeps). */
export function findPair(map: YAMLMap, name: string): Pair | undefined {
  return map.items.findLast((item) => (isScalar(item.key) ? String(item.key.value) : String(item.key)) === name);
}

function editYaml(doc: Document, serversKey: string, servers: unknown, edit: ConfigEdit, entry: ServerEntry): string {
  const path = [serversKey, edit.name];
  if (edit.kind === "add") {
    if (isMap(servers)) servers.set(edit.name, doc.createNode(entry));
    else doc.set(serversKey, doc.createNode({ [edit.name]: entry }));
  } else if (edit.kind === "remove") {
    doc.deleteIn(path);
  } else if (edit.kind === "disable") {
    doc.setIn([...path, "enabled"], false);
  } else if (doc.hasIn([...path, "enabled"])) {
    doc.deleteIn([...path, "enabled"]);
  }
  // `["a", "b"]`, as configs are usually written, not the package's default `[ "a", "b" ]`.
  return doc.toString({ flowCollectionPadding: false });
}

// YAML in block style: whole lines cut or inserted at the positions of the parsed nodes.

/** The offset just past the line holding `offset - 1` (its newline included). */
function lineEnd(text: string, offset: number): number {
  if (offset > 0 && text[offset - 1] === "\n") return offset;
  const newline = text.indexOf("\n", offset);
  return newline === -1 ? text.length : newline + 1;
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf("\n", offset - 1) + 1;
}

/** Where a pair's lines end: past its value, its trailing comment and newline. */
function pairEnd(text: string, pair: Pair): number {
  return lineEnd(text, rangeOf(pair.value ?? pair.key)[2]);
}

/** Inserts whole `lines` at `at` (a line start, or the end of a text without a final newline). */
function insertLines(text: string, at: number, lines: string): string {
  const gap = at === text.length && text.length > 0 && !text.endsWith("\n") ? "\n" : "";
  return text.slice(0, at) + gap + lines + text.slice(at);
}

/** `name: entry` as block YAML, each line indented by `indent`, nested by `unit`. */
function yamlLines(name: string, entry: ServerEntry, indent: string, unit: number): string {
  const text = new Document({ [name]: entry }).toString({ indent: unit, flowCollectionPadding: false });
  return text.replace(/^(?=.)/gm, indent);
}

/** The block-style edit, or undefined when the servers' mapping (or the entry) is not in block style. */
function spliceYaml(text: string, servers: unknown, pair: Pair | undefined, edit: ConfigEdit, entry: ServerEntry): string | undefined {
  if (!isMap(servers) || servers.flow) return undefined;
  const last = servers.items.at(-1);
  if (last === undefined) return undefined;
  const keyAt = (item: Pair) => rangeOf(item.key)[0];
  const indent = text.slice(lineStart(text, keyAt(last)), keyAt(last));
  if (!/^ *$/.test(indent)) return undefined;
  if (edit.kind === "add") {
    const sample = [...servers.items].reverse().find((item) => isMap(item.value) && !item.value.flow && item.value.items[0] !== undefined);
    const inner = sample && isMap(sample.value) && sample.value.items[0]
      ? keyAt(sample.value.items[0]) - lineStart(text, keyAt(sample.value.items[0]))
      : undefined;
    const unit = inner !== undefined && inner > indent.length ? inner - indent.length : 2;
    const lines = yamlLines(edit.name, entry, indent, unit);
    if (pair === undefined) return insertLines(text, pairEnd(text, last), lines);
    return text.slice(0, lineStart(text, keyAt(pair))) + lines + text.slice(pairEnd(text, pair));
  }
  if (pair === undefined) return undefined;
  if (edit.kind === "remove") return text.slice(0, lineStart(text, keyAt(pair))) + text.slice(pairEnd(text, pair));
  const server = pair.value;
  if (!isMap(server) || server.flow || server.items[0] === undefined) return undefined;
  const enabled = findPair(server, "enabled");
  if (edit.kind === "enable") return enabled === undefined ? text : text.slice(0, lineStart(text, keyAt(enabled))) + text.slice(pairEnd(text, enabled));
  if (enabled !== undefined) {
    const [start, end] = rangeOf(enabled.value);
    return text.slice(0, start) + "false" + text.slice(end);
  }
  const first = keyAt(server.items[0]);
  return insertLines(text, pairEnd(text, pair), `${text.slice(lineStart(text, first), first)}enabled: false\n`);
}

/** Whether two YAML texts hold the same data. */
function sameYaml(a: string, b: string): boolean {
  const read = (text: string) => {
    const doc = parseDocument(text, { uniqueKeys: false });
    return doc.errors.length > 0 ? undefined : JSON.stringify(doc.toJS({ maxAliasCount: 1000 }));
  };
  const left = read(a);
  return left !== undefined && left === read(b);
}

// JSON: the same text read by the yaml package (a superset of JSON) gives each node's range.

function editJson(text: string, root: YAMLMap, serversKey: string, servers: unknown, pair: Pair | undefined, edit: ConfigEdit, entry: ServerEntry): string {
  if (edit.kind === "add") {
    if (!isMap(servers)) {
      const existing = findPair(root, serversKey);
      if (existing !== undefined) return replaceValue(text, existing, { [edit.name]: entry });
      return addMember(text, root, serversKey, { [edit.name]: entry });
    }
    return pair === undefined ? addMember(text, servers, edit.name, entry) : replaceValue(text, pair, entry);
  }
  if (!isMap(servers) || pair === undefined) return text; // checked by the caller
  if (edit.kind === "remove") return removeMember(text, servers, pair);
  const server = pair.value;
  if (!isMap(server)) return text; // not an object: parseConfig reports it
  const enabled = findPair(server, "enabled");
  if (edit.kind === "disable") return enabled === undefined ? addMember(text, server, "enabled", false) : replaceValue(text, enabled, false);
  return enabled === undefined ? text : removeMember(text, server, enabled);
}

type Range = [number, number, number];

function rangeOf(node: unknown): Range {
  const range = (node as { range?: Range | null } | null)?.range;
  if (!range) throw new ConfigError("cannot find a place in the JSON text to edit", "invalid-config");
  return range;
}

/** The indentation of the line holding `offset`. */
function indentAt(text: string, offset: number): string {
  const start = text.lastIndexOf("\n", offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))?.[0] ?? "";
}

/** `value` as JSON indented for a member whose key line is indented by `indent`, nested by `unit`. */
function jsonAt(value: unknown, indent: string, unit: string): string {
  return JSON.stringify(value, null, unit).replace(/\n/g, `\n${indent}`);
}

/** The indentation unit of the object `map`: its members' indent less its own line's ("  " when on one line). */
function unitOf(text: string, map: YAMLMap): { outer: string; inner: string; unit: string; multiline: boolean } {
  const start = rangeOf(map)[0];
  const outer = indentAt(text, start);
  const first = map.items[0];
  if (first !== undefined) {
    const keyStart = rangeOf(first.key)[0];
    const multiline = text.slice(start, keyStart).includes("\n");
    const inner = indentAt(text, keyStart);
    if (multiline && inner.length > outer.length && inner.startsWith(outer)) return { outer, inner, unit: inner.slice(outer.length), multiline };
    return { outer, inner: outer + "  ", unit: "  ", multiline };
  }
  return { outer, inner: outer + "  ", unit: "  ", multiline: true };
}

/** `text` with `"key": value` added as the last member of the JSON object `map`, in its indentation. */
export function addMember(text: string, map: YAMLMap, key: string, value: unknown): string {
  const { outer, inner, unit, multiline } = unitOf(text, map);
  const member = `${JSON.stringify(key)}: ${multiline ? jsonAt(value, inner, unit) : JSON.stringify(value)}`;
  const last = map.items.at(-1);
  if (last === undefined) {
    const [start, end] = rangeOf(map);
    return `${text.slice(0, start)}{\n${inner}${member}\n${outer}}${text.slice(end)}`;
  }
  const at = rangeOf(last.value ?? last.key)[1];
  return `${text.slice(0, at)},${multiline ? `\n${inner}` : " "}${member}${text.slice(at)}`;
}

/** `text` with the value of the JSON member `pair` replaced by `value`, in its indentation. */
export function replaceValue(text: string, pair: Pair, value: unknown): string {
  const [start, end] = rangeOf(pair.value);
  const { unit } = isMap(pair.value) ? unitOf(text, pair.value) : { unit: "  " };
  const keyIndent = indentAt(text, rangeOf(pair.key)[0]);
  return text.slice(0, start) + jsonAt(value, keyIndent, unit) + text.slice(end);
}

function removeMember(text: string, map: YAMLMap, pair: Pair): string {
  const index = map.items.indexOf(pair);
  const keyStart = rangeOf(pair.key)[0];
  const valueEnd = rangeOf(pair.value ?? pair.key)[1];
  const before = map.items[index - 1];
  if (before !== undefined) return text.slice(0, rangeOf(before.value ?? before.key)[1]) + text.slice(valueEnd);
  const after = map.items[index + 1];
  if (after !== undefined) return text.slice(0, keyStart) + text.slice(rangeOf(after.key)[0]);
  const [start, end] = rangeOf(map);
  return text.slice(0, start) + "{}" + text.slice(end);
}

/** parseConfig on the result: a problem with the whole file, or with the server edited, keeps the file as it was. */
function checkEdited(text: string, file: string, edit: ConfigEdit): void {
  let problems: ConfigError[];
  try {
    // No environment: nothing is read or expanded; an unset variable is no finding here.
    const config = parseConfig(text, { file, env: {} });
    problems = edit.kind === "remove" ? [] : (config.errors ?? []).filter((error) => error.server === edit.name && error.variable === undefined);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems = [error];
  }
  const [first] = problems;
  if (first === undefined) return;
  const where = first.line === undefined || first.message.startsWith(file) ? "" : `${file}:${first.line}:${first.column}: `;
  throw new ConfigError(`${where}${first.message} (in the edited file; it was not changed)`, "invalid-config", { file, server: first.server, cause: first });
}

/** A server entry from the command line's parts, in the keys of the file's format (`type` in JSON, `transport` in YAML). */
export function serverEntry(parts: ServerParts, json: boolean): ServerEntry {
  const entry: ServerEntry = {};
  if (parts.command !== undefined) {
    entry.command = parts.command;
    if (parts.args !== undefined && parts.args.length > 0) entry.args = [...parts.args];
  }
  if (parts.url !== undefined) {
    entry.url = parts.url;
    if (parts.transport !== undefined) entry[json ? "type" : "transport"] = parts.transport;
    if (parts.headers !== undefined && Object.keys(parts.headers).length > 0) entry.headers = { ...parts.headers };
  }
  if (parts.env !== undefined && Object.keys(parts.env).length > 0) entry.env = { ...parts.env };
  if (parts.cwd !== undefined) entry.cwd = parts.cwd;
  return entry;
}
