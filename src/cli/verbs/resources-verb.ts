// `mcpwire resources [SERVER]` (resources and resource templates) and `mcpwire read SERVER URI`
// (`read SERVER TEMPLATE key=value…` expands an RFC 6570 template first): spec 2025-11-25
// server/resources, on both eras through the typed Client.

import type { Client } from "../../client/client.ts";
import { ResourceNotFoundError } from "../../client/errors.ts";
import type { ReadResourceResult, ResourceTemplate } from "../../client/types.ts";
import { messageOf } from "../../common/error-text.ts";
import { fitLine } from "../../common/preview.ts";
import { expandTemplate, SUPPORTED_TEMPLATE_FORMS, templateVariables, UriTemplateError } from "../../common/uri-template.ts";
import type { McpwireConfig } from "../../host/config/types.ts";
import { RpcError } from "../../jsonrpc/errors.ts";
import { base64DecodedBytes, formatBytes } from "../../registry/result-format.ts";
import { runtime } from "../../runtime/mod.ts";
import { parseArgs, secondsOption, UsageError } from "../args.ts";
import { EXIT } from "../exit-codes.ts";
import { boundedText, lineOf, RESULT_BOUNDS, textOf, write, writeJson } from "../output.ts";
import { configSource, parseLogLevel, SESSION_OPTIONS, stderrLine, TRACE_USAGE, withManager } from "../session/host-session.ts";
import {
  argumentWords,
  completionHint,
  failure,
  impliedServer,
  onlyServer,
  readyClient,
  readyClients,
  serverAndWords,
  stringArguments,
  unknownName,
} from "../session/server-choice.ts";
import { configCode, reach } from "../session/server-reach.ts";
import { renderTable } from "../table.ts";

export const RESOURCES_USAGE = `usage: mcpwire resources [SERVER] [--json] [--config FILE] [--import APP[,APP]]

Starts the configured servers (only SERVER, when given) and lists their resources (SERVER,
NAME, URI, MIME TYPE, DESCRIPTION) and then their resource templates (URI TEMPLATE). Read one
with \`mcpwire read SERVER URI\`, or a template with \`mcpwire read SERVER TEMPLATE key=value…\`.
--json prints { resources: [{ server, uri, name, … }], resourceTemplates: [{ server, uriTemplate, name, … }] }.
${TRACE_USAGE}

exit codes: 0 success, 2 usage or config error, 3 a server could not be reached or failed (what
            the others list is shown; none reached: nothing is), 4 timeout`;

export const READ_USAGE = `usage: mcpwire read SERVER URI [--out FILE] [--json] [--timeout S] [--config FILE]
       mcpwire read SERVER TEMPLATE key=value… [--out FILE] [--json]

Reads one resource of SERVER (resources/read) and prints its text on stdout. URI may also be a
resource's name as \`mcpwire resources\` lists it. With one server given on the command line
(--stdio, --http, --sse), SERVER may be left out. Binary contents (a blob) are never written
to the terminal: --out FILE writes every content of the resource to FILE (text as UTF-8, blobs
decoded), and without it a blob is named on stderr (exit 2). --json prints the result as the
server sent it (blobs as base64).

TEMPLATE is a resource template's URI template (or its name) and key=value words give its
variables; the template is expanded per RFC 6570 levels 1–3: ${SUPPORTED_TEMPLATE_FORMS}
(level 4's {var:3} and {list*} are refused). A missing variable is an error that lists the
values the server's completion/complete suggests for it, when the server offers completions.
${TRACE_USAGE}

exit codes: 0 success, 2 usage or config error (an unknown server, resource or template,
            a missing variable, a blob without --out), 3 the server could not be reached or
            failed, 4 timeout`;

/** The options `mcpwire resources` takes. */
export const RESOURCES_OPTIONS = { ...SESSION_OPTIONS, json: { kind: "flag" }, timeout: { kind: "string" } } as const;

export async function resources(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, RESOURCES_OPTIONS);
  if (args.flags.has("help")) {
    await write("stdout", RESOURCES_USAGE + "\n");
    return 0;
  }
  const [server, extra] = args.positional;
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}" (resources takes at most one server name)`);
  const timeoutMs = secondsOption("timeout", args.values.get("timeout"));
  const logLevel = parseLogLevel(args.values.get("log-level"));
  const onConfig = server === undefined ? undefined : (config: Parameters<typeof onlyServer>[0]) => onlyServer(config, server);
  return await withManager({ ...configSource(args), showLogs: false, logLevel, onConfig, listing: true }, async (manager, config) => {
    // A server that could not be reached is said, and with none reached nothing is listed (server-reach.ts).
    const reached = reach(manager, "resources");
    if (reached.none) return reached.code;
    // A config error disabled a server: the rest is shown, but the exit code says so.
    const fromConfig = configCode(config, server);
    const listed: { server: string; resources: Awaited<ReturnType<Client["listResources"]>>; templates: ResourceTemplate[] }[] = [];
    let code: number = reached.code;
    for (const { server: name, client } of readyClients(manager)) {
      try {
        const options = timeoutMs === undefined ? {} : { timeoutMs };
        listed.push({ server: name, resources: await client.listResources(options), templates: await client.listResourceTemplates(options) });
      } catch (error) {
        code = Math.max(code, failure("resources", `server "${lineOf(name)}"`, error));
      }
    }
    // No server answered (each failure said above): an empty listing would say they have none.
    if (listed.length === 0 && code !== EXIT.ok) return code;
    code = Math.max(code, fromConfig);
    if (args.flags.has("json")) {
      await writeJson({
        resources: listed.flatMap((each) => each.resources.map((resource) => ({ server: each.server, ...resource }))),
        resourceTemplates: listed.flatMap((each) => each.templates.map((template) => ({ server: each.server, ...template }))),
        unreached: reached.unreached,
      });
      return code;
    }
    const rows = listed.flatMap((each) =>
      each.resources.map((resource) => [
        lineOf(each.server),
        fitLine(lineOf(resource.title ?? resource.name), 40),
        fitLine(lineOf(resource.uri), 80),
        fitLine(lineOf(resource.mimeType ?? ""), 30),
        fitLine(lineOf(resource.description ?? ""), 80),
      ])
    );
    const templateRows = listed.flatMap((each) =>
      each.templates.map((template) => [
        lineOf(each.server),
        fitLine(lineOf(template.title ?? template.name), 40),
        fitLine(lineOf(template.uriTemplate), 80),
        fitLine(lineOf(template.mimeType ?? ""), 30),
        fitLine(lineOf(template.description ?? ""), 80),
      ])
    );
    let text = rows.length === 0 ? "no resources\n" : renderTable(["SERVER", "NAME", "URI", "MIME TYPE", "DESCRIPTION"], rows);
    if (templateRows.length > 0) text += "\n" + renderTable(["SERVER", "NAME", "URI TEMPLATE", "MIME TYPE", "DESCRIPTION"], templateRows);
    await write("stdout", text);
    return code;
  });
}

/** The options `mcpwire read` takes. */
export const READ_OPTIONS = { ...SESSION_OPTIONS, json: { kind: "flag" }, out: { kind: "string", values: "file" }, timeout: { kind: "string" } } as const;

export async function read(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, READ_OPTIONS);
  if (args.flags.has("help")) {
    await write("stdout", READ_USAGE + "\n");
    return 0;
  }
  const source = configSource(args);
  const needs = "read needs a server and a URI: mcpwire read SERVER URI (or TEMPLATE key=value…; SERVER may be left out with one --stdio, --http or --sse)";
  if (args.positional.length < (impliedServer(source) ? 1 : 2)) throw new UsageError(needs);
  const out = args.values.get("out");
  if (out === "") throw new UsageError("--out needs a file name");
  const timeoutMs = secondsOption("timeout", args.values.get("timeout"));
  const options = timeoutMs === undefined ? {} : { timeoutMs };
  const logLevel = parseLogLevel(args.values.get("log-level"));
  let server = "";
  let target = "";
  let words: string[] = [];
  let values: Record<string, string> = {};
  const onConfig = (config: McpwireConfig) => {
    const chosen = serverAndWords(config, args.positional, (words) => argumentWords(words.slice(1)));
    const [first, ...rest] = chosen.rest;
    if (chosen.server === undefined || first === undefined) throw new UsageError(needs);
    [server, target, words] = [chosen.server, first, rest];
    // The words' form is checked before any server starts.
    values = stringArguments(words);
    onlyServer(config, server);
  };
  return await withManager({ ...source, logLevel, onConfig }, async (manager) => {
    const client = readyClient(manager, server, "read");
    if (client === undefined) return EXIT.server;
    const who = `server "${lineOf(server)}"`;
    let uri = target;
    let expanded = false;
    try {
      const template = await templateOf(client, target, words.length > 0, options);
      if (template !== undefined) {
        const made = await expand(client, who, template, values, options);
        if (typeof made === "number") return made;
        uri = made;
        expanded = true;
      } else if (words.length === 0 && !target.includes(":")) {
        // Not a URI: a resource's name (or title) as `mcpwire resources` shows it.
        const named = (await client.listResources(options)).find((resource) => resource.name === target || resource.title === target);
        if (named !== undefined) uri = named.uri;
      }
    } catch (error) {
      if (error instanceof UsageError) throw error;
      return failure("read", who, error);
    }
    let result: ReadResourceResult;
    try {
      result = await client.readResource(uri, { ...options, fresh: true });
    } catch (error) {
      // Not found: -32002 (2025-11-25), -32602 on the 2026-07-28 wire and from many servers of
      // the handshake era; a URI that is no listed resource's, the server refusing it, is a mistyped one.
      const known = error instanceof RpcError && !expanded ? await client.listResources(options).catch(() => []) : [];
      const listed = known.some((resource) => resource.uri === uri);
      if (!(error instanceof ResourceNotFoundError) && (expanded || listed || !(error instanceof RpcError))) {
        return failure("read", `${who}, resource "${lineOf(uri)}"`, error);
      }
      // A ResourceNotFoundError names the server already.
      stderrLine(`mcpwire read: ${error instanceof ResourceNotFoundError ? "" : `${who}: `}${lineOf(messageOf(error))}`);
      return unknownName("read", `resource on ${who} at`, uri, known.map((resource) => resource.uri), `mcpwire resources ${server}`);
    }
    if (args.flags.has("json")) {
      await writeJson(result);
      return EXIT.ok;
    }
    if (out !== undefined) return await writeContents(result, out);
    let code: number = EXIT.ok;
    for (const content of result.contents) {
      if ("text" in content && typeof content.text === "string") {
        const text = textOf(boundedText(content.text, RESULT_BOUNDS));
        await write("stdout", text.endsWith("\n") ? text : text + "\n");
      } else {
        const blob = "blob" in content && typeof content.blob === "string" ? content.blob : "";
        stderrLine(
          `mcpwire read: ${lineOf(content.uri)} is binary (${lineOf(content.mimeType ?? "no MIME type")}, ${formatBytes(base64DecodedBytes(blob))}); ` +
            "it is not written to the terminal: --out FILE writes it to a file, --json prints it as base64",
        );
        code = EXIT.usage;
      }
    }
    return code;
  });
}

/**
 * The template `target` names when it is one: a listed template's URI template or name, or any
 * target holding `{` (a template the server did not list). Undefined for a plain URI.
 */
async function templateOf(client: Client, target: string, hasWords: boolean, options: { timeoutMs?: number }): Promise<string | undefined> {
  if (!hasWords && !target.includes("{")) {
    // A name is looked up only when it is no resource's: resources and templates may share names.
    if (target.includes(":")) return undefined;
    const listed = await client.listResources(options);
    if (listed.some((resource) => resource.name === target || resource.title === target)) return undefined;
  }
  const templates = await client.listResourceTemplates(options);
  const found = templates.find((template) => template.uriTemplate === target || template.name === target || template.title === target);
  if (found !== undefined) return found.uriTemplate;
  if (target.includes("{")) return target;
  if (hasWords) {
    throw new UsageError(
      `no resource template "${lineOf(target)}" on server; key=value words are a template's variables. ` +
        `Templates: ${templates.map((template) => lineOf(template.uriTemplate)).join(", ") || "none"}`,
    );
  }
  return undefined;
}

/** The URI the template makes with `values`; on a missing variable, the error with the server's suggestions, and exit 2. */
async function expand(
  client: Client,
  who: string,
  template: string,
  values: Record<string, string>,
  options: { timeoutMs?: number },
): Promise<string | number> {
  const variables = templateVariables(template);
  const unknown = Object.keys(values).filter((key) => !variables.includes(key));
  if (unknown.length > 0) {
    return unknownName(
      "read",
      `variable in template "${lineOf(template)}" (variables: ${variables.join(", ") || "none"}):`,
      unknown[0]!,
      variables,
      "mcpwire resources",
    );
  }
  try {
    return expandTemplate(template, values);
  } catch (error) {
    if (!(error instanceof UriTemplateError)) throw error;
    stderrLine(`mcpwire read: ${who}: ${lineOf(error.message)}`);
    for (const name of error.missing) {
      const suggestions = await completionHint(client, { type: "ref/resource", uri: template }, name, values, options);
      if (suggestions !== undefined) stderrLine(`  ${lineOf(name)}: ${suggestions}`);
    }
    return EXIT.usage;
  }
}

/** --out FILE: every content, text as UTF-8 and blobs decoded, in order. */
async function writeContents(result: ReadResourceResult, file: string): Promise<number> {
  const parts: Uint8Array[] = [];
  for (const content of result.contents) {
    if ("text" in content && typeof content.text === "string") {
      parts.push(new TextEncoder().encode(content.text));
    } else {
      const bytes = decodeBase64("blob" in content && typeof content.blob === "string" ? content.blob : "");
      if (bytes === undefined) {
        stderrLine(`mcpwire read: ${lineOf(content.uri)}: the blob is not base64; nothing was written`);
        return EXIT.server;
      }
      parts.push(bytes);
    }
  }
  const whole = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    whole.set(part, at);
    at += part.length;
  }
  await runtime.writePrivateFile(file, whole);
  stderrLine(`mcpwire read: wrote ${formatBytes(whole.length)} to ${lineOf(file)}`);
  return EXIT.ok;
}

function decodeBase64(text: string): Uint8Array | undefined {
  try {
    const binary = atob(text.replace(/\s+/g, ""));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return undefined;
  }
}
