// What the verbs naming one server (resources, read, prompts, prompt, complete, watch, task,
// skills show) share: SERVER may be left out when the command line gives one server, only that
// server starts, a misspelt name gets the configured names nearest to it, a server that is not
// ready is said on stderr, and a failure becomes `mcpwire call`'s exit codes (exit-codes.ts).

import type { Client } from "../../client/client.ts";
import type { CompleteReference } from "../../client/types.ts";
import { messageOf } from "../../common/error-text.ts";
import { McpwireError } from "../../common/mcpwire-error.ts";
import type { McpwireConfig } from "../../host/config/types.ts";
import type { McpManager } from "../../host/servers/manager.ts";
import { didYouMean, suggestNames } from "../../registry/suggest.ts";
import { UsageError } from "../args.ts";
import { EXIT } from "../exit-codes.ts";
import { lineOf } from "../output.ts";
import { CallArgumentsError, parseArgumentWords } from "../tools/call-arguments.ts";
import { isAdHoc } from "./ad-hoc-servers.ts";
import { stderrLine } from "./host-session.ts";

/**
 * A verb's words that start with SERVER (`read SERVER URI`), read once the config is known: the
 * first word when a server has that name; else, with exactly one server given on the command line
 * (`--stdio`, `--http`, `--sse`) and words that `fit` the verb without a server, that server, and
 * every word is what follows it (`mcpwire read --stdio "…" test://static/resource/1`), as
 * `mcpwire call` takes a tool's own name. Words that do not fit (`read subscription-server
 * note://a`: a URI is no template variable) keep their first as SERVER, a misspelt one, which
 * onlyServer answers with the nearest names.
 */
export function serverAndWords(
  config: McpwireConfig,
  words: readonly string[],
  fit: (words: readonly string[]) => boolean,
): { server: string | undefined; rest: string[] } {
  const [first, ...rest] = words;
  if (first !== undefined && config.servers.some((server) => server.name === first)) return { server: first, rest };
  const given = config.servers.filter(isAdHoc);
  if (given.length === 1 && given[0] !== undefined && fit(words)) return { server: given[0].name, rest: [...words] };
  return { server: first, rest };
}

/** Whether every word is a `key=value` word or a JSON object (the arguments after a verb's one named thing). */
export function argumentWords(words: readonly string[]): boolean {
  return words.every((word) => word.includes("=") || word.trimStart().startsWith("{"));
}

/** Whether the command line gives exactly one server, so that SERVER may be left out of a verb's words (serverAndWords). */
export function impliedServer(source: { commandLineServers?: readonly unknown[] }): boolean {
  return source.commandLineServers?.length === 1;
}

/** `VERB SERVER`: the other servers are not started; a name the config does not hold is a usage error with the nearest names. */
export function onlyServer(config: McpwireConfig, name: string): void {
  if (!config.servers.some((server) => server.name === name)) {
    const names = config.servers.map((server) => server.name);
    const near = didYouMean(suggestNames(name, names));
    throw new UsageError(
      `no server "${lineOf(name)}" is configured${near === "" ? "" : `; ${near}`} (configured: ${names.length === 0 ? "none" : names.join(", ")})`,
    );
  }
  for (const server of config.servers) if (server.name !== name) server.enabled = false;
}

/** The connected client of `name`, or undefined once its state has been said on stderr (exit 3). */
export function readyClient(manager: McpManager, name: string, verb: string): Client | undefined {
  const client = manager.client(name);
  const status = manager.status().find((each) => each.name === name);
  if (client !== undefined && status?.state === "ready") return client;
  stderrLine(`mcpwire ${verb}: server "${lineOf(name)}" is ${status?.state ?? "not connected"}: ${lineOf(status?.lastError ?? "no detail")}`);
  return undefined;
}

/** The servers a listing covers that are ready, in config order; those that are not are said by server-reach.ts reach(). */
export function readyClients(manager: McpManager): { server: string; client: Client }[] {
  const ready: { server: string; client: Client }[] = [];
  for (const status of manager.status()) {
    const client = manager.client(status.name);
    if (status.state === "ready" && client !== undefined) ready.push({ server: status.name, client });
  }
  return ready;
}

/**
 * `key=value` words (or one JSON object of strings) as prompt arguments or template variables:
 * MCP gives them as strings (spec 2025-11-25 server/prompts: arguments are strings), so a
 * value is taken as written, never typed. A malformed word is a CallArgumentsError (exit 2).
 */
export function stringArguments(words: readonly string[]): Record<string, string> {
  const given = parseArgumentWords(words);
  const out: Record<string, string> = {};
  if (given.form === "pairs") {
    for (const pair of given.pairs) out[pair.key] = pair.text;
  } else if (given.form === "object") {
    for (const [key, value] of Object.entries(given.value)) {
      if (typeof value !== "string") {
        throw new CallArgumentsError(
          `"${lineOf(key)}" must be a string (MCP passes these arguments as text); write it as ${lineOf(key)}=value`,
          "type-mismatch",
        );
      }
      out[key] = value;
    }
  }
  return out;
}

/** A request that failed: said on stderr as `mcpwire VERB: who: message`; the exit code (4 for a timeout, else 3). */
export function failure(verb: string, who: string, error: unknown): number {
  stderrLine(`mcpwire ${verb}: ${who}: ${lineOf(messageOf(error))}`);
  return error instanceof McpwireError && error.code === "timeout" ? EXIT.timeout : EXIT.server;
}

/** An unknown NAME among `known`: said with the nearest names and where to list them; exit 2. */
export function unknownName(verb: string, what: string, name: string, known: readonly string[], lister: string): number {
  const near = didYouMean(suggestNames(name, known));
  stderrLine(`mcpwire ${verb}: no ${what} "${lineOf(name)}"; ${near === "" ? "" : `${lineOf(near)} `}\`${lister}\` lists them`);
  return EXIT.usage;
}

/** The most completion values shown for a missing argument or variable. */
const MAX_SHOWN_COMPLETIONS = 10;

/**
 * `completion/complete` for an argument (or template variable) not given, as "the server
 * suggests a, b, c"; undefined when the server offers no completions, suggests nothing or fails.
 */
export async function completionHint(
  client: Client,
  ref: CompleteReference,
  name: string,
  values: Record<string, string>,
  options: { timeoutMs?: number },
): Promise<string | undefined> {
  // spec 2025-11-25 server/utilities/completion: a server that offers completions declares the capability.
  if (client.serverCapabilities?.completions === undefined) return undefined;
  try {
    const result = await client.complete(ref, { name, value: "" }, { arguments: values }, options);
    if (result.values.length === 0) return undefined;
    const shown = result.values.slice(0, MAX_SHOWN_COMPLETIONS).map((value) => lineOf(value));
    const more = result.values.length > shown.length || result.hasMore === true ? ", …" : "";
    return `the server suggests ${shown.join(", ")}${more}`;
  } catch {
    return undefined;
  }
}
