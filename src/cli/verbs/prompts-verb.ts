// `mcpwire prompts [SERVER]`, `mcpwire prompt SERVER NAME key=value…` (spec 2025-11-25
// server/prompts) and `mcpwire complete SERVER (--prompt NAME | --template URI) ARG=prefix`
// (spec 2025-11-25 server/utilities/completion), on both eras through the typed Client.

import type { CompleteReference, GetPromptResult, Prompt } from "../../client/types.ts";
import { fitLine } from "../../common/preview.ts";
import type { McpwireConfig } from "../../host/config/types.ts";
import { blockText } from "../../registry/result-format.ts";
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

export const PROMPTS_USAGE = `usage: mcpwire prompts [SERVER] [--json] [--config FILE] [--import APP[,APP]]

Starts the configured servers (only SERVER, when given) and lists their prompts: SERVER, NAME,
ARGUMENTS (an optional one as name?) and DESCRIPTION. Get one with
\`mcpwire prompt SERVER NAME key=value…\`.
--json prints { prompts: [{ server, name, title, description, arguments, … }], unreached: [{ server, state, error }] }.
${TRACE_USAGE}

exit codes: 0 success, 2 usage or config error, 3 a server could not be reached or failed (what
            the others list is shown; none reached: nothing is), 4 timeout`;

export const PROMPT_USAGE = `usage: mcpwire prompt SERVER NAME [key=value…] [--json] [--timeout S] [--config FILE]

Gets one prompt of SERVER (prompts/get) with its arguments as key=value words (values are
text, as MCP passes them; '{"k":"v"}' works too) and prints its messages for people: each
message under a [role] line, its text as it is and other content (images, audio, resources)
as one line saying what it is. --json prints the result as the server sent it.
With one server given on the command line (--stdio, --http, --sse), SERVER may be left out.
A misspelt prompt or argument name gets the nearest names; a missing required argument is an
error before anything is sent, with the values the server suggests for it (completion/complete)
when it offers completions.
${TRACE_USAGE}

exit codes: 0 success, 2 usage or config error (an unknown server, prompt or argument, a
            missing argument), 3 the server could not be reached or failed, 4 timeout`;

export const COMPLETE_USAGE = `usage: mcpwire complete SERVER (--prompt NAME | --template URI-TEMPLATE) ARG=PREFIX [key=value…] [--json]

Asks SERVER which values complete ARG starting with PREFIX (completion/complete): for an
argument of the prompt NAME, or a variable of the resource template URI-TEMPLATE. Further
key=value words are the values already chosen for other arguments (the request's context).
Prints one value per line (a note on stderr when the server has more); --json prints
{ values, total, hasMore }. With one server given on the command line (--stdio, --http,
--sse), SERVER may be left out.
${TRACE_USAGE}

exit codes: 0 success, 2 usage or config error (an unknown server, prompt or argument),
            3 the server could not be reached, failed, or offers no completions, 4 timeout`;

/** The options `mcpwire prompts` and `mcpwire prompt` take. */
export const PROMPTS_OPTIONS = { ...SESSION_OPTIONS, json: { kind: "flag" }, timeout: { kind: "string" } } as const;

export async function prompts(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, PROMPTS_OPTIONS);
  if (args.flags.has("help")) {
    await write("stdout", PROMPTS_USAGE + "\n");
    return 0;
  }
  const [server, extra] = args.positional;
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}" (prompts takes at most one server name)`);
  const timeoutMs = secondsOption("timeout", args.values.get("timeout"));
  const logLevel = parseLogLevel(args.values.get("log-level"));
  const onConfig = server === undefined ? undefined : (config: Parameters<typeof onlyServer>[0]) => onlyServer(config, server);
  return await withManager({ ...configSource(args), showLogs: false, logLevel, onConfig, listing: true }, async (manager, config) => {
    // A server that could not be reached is said, and with none reached nothing is listed (server-reach.ts).
    const reached = reach(manager, "prompts");
    if (reached.none) return reached.code;
    // A config error disabled a server: the rest is shown, but the exit code says so.
    const fromConfig = configCode(config, server);
    const listed: { server: string; prompt: Prompt }[] = [];
    let code: number = reached.code;
    let answered = 0;
    for (const { server: name, client } of readyClients(manager)) {
      try {
        for (const prompt of await client.listPrompts(timeoutMs === undefined ? {} : { timeoutMs })) listed.push({ server: name, prompt });
        answered++;
      } catch (error) {
        code = Math.max(code, failure("prompts", `server "${lineOf(name)}"`, error));
      }
    }
    // No server answered (each failure said above): an empty listing would say they have none.
    if (answered === 0 && code !== EXIT.ok) return code;
    code = Math.max(code, fromConfig);
    if (args.flags.has("json")) {
      await writeJson({ prompts: listed.map(({ server, prompt }) => ({ server, ...prompt })), unreached: reached.unreached });
      return code;
    }
    const rows = listed.map(({ server, prompt }) => [
      lineOf(server),
      lineOf(prompt.name),
      fitLine(lineOf(argumentList(prompt)), 60),
      fitLine(lineOf(prompt.description ?? prompt.title ?? ""), 80),
    ]);
    await write("stdout", rows.length === 0 ? "no prompts\n" : renderTable(["SERVER", "NAME", "ARGUMENTS", "DESCRIPTION"], rows));
    return code;
  });
}

/** `city, state?`: a prompt's arguments, an optional one marked `?`. */
function argumentList(prompt: Prompt): string {
  return (prompt.arguments ?? []).map((argument) => `${argument.name}${argument.required === true ? "" : "?"}`).join(", ");
}

export async function prompt(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, PROMPTS_OPTIONS);
  if (args.flags.has("help")) {
    await write("stdout", PROMPT_USAGE + "\n");
    return 0;
  }
  const source = configSource(args);
  const needs = "prompt needs a server and a prompt name: mcpwire prompt SERVER NAME key=value… (SERVER may be left out with one --stdio, --http or --sse)";
  if (args.positional.length < (impliedServer(source) ? 1 : 2)) throw new UsageError(needs);
  const timeoutMs = secondsOption("timeout", args.values.get("timeout"));
  const options = timeoutMs === undefined ? {} : { timeoutMs };
  const logLevel = parseLogLevel(args.values.get("log-level"));
  let server = "";
  let name = "";
  let values: Record<string, string> = {};
  const onConfig = (config: McpwireConfig) => {
    const chosen = serverAndWords(config, args.positional, (words) => argumentWords(words.slice(1)));
    const [first, ...words] = chosen.rest;
    if (chosen.server === undefined || first === undefined) throw new UsageError(needs);
    [server, name] = [chosen.server, first];
    values = stringArguments(words);
    onlyServer(config, server);
  };
  return await withManager({ ...source, logLevel, onConfig }, async (manager) => {
    const client = readyClient(manager, server, "prompt");
    if (client === undefined) return EXIT.server;
    const who = `server "${lineOf(server)}"`;
    let listed: Prompt[];
    try {
      listed = await client.listPrompts(options);
    } catch (error) {
      return failure("prompt", who, error);
    }
    const found = listed.find((each) => each.name === name);
    if (found === undefined) return unknownName("prompt", `prompt on ${who} named`, name, listed.map((each) => each.name), `mcpwire prompts ${server}`);
    // Checked before prompts/get: a misspelt argument, or a required one missing (with the server's suggestions).
    const declared = (found.arguments ?? []).map((argument) => argument.name);
    const unknown = Object.keys(values).find((key) => !declared.includes(key));
    if (unknown !== undefined) {
      return unknownName(
        "prompt",
        `argument of prompt "${lineOf(name)}" (arguments: ${lineOf(argumentList(found)) || "none"}) named`,
        unknown,
        declared,
        `mcpwire prompts ${server}`,
      );
    }
    const missing = (found.arguments ?? []).filter((argument) => argument.required === true && !Object.hasOwn(values, argument.name));
    if (missing.length > 0) {
      stderrLine(`mcpwire prompt: ${who}, prompt "${lineOf(name)}" needs ${missing.map((argument) => `${lineOf(argument.name)}=…`).join(" ")}`);
      for (const argument of missing) {
        const about = argument.description === undefined ? "" : ` (${lineOf(argument.description)})`;
        const suggestions = await completionHint(client, { type: "ref/prompt", name }, argument.name, values, options);
        stderrLine(`  ${lineOf(argument.name)}${about}${suggestions === undefined ? "" : `: ${suggestions}`}`);
      }
      return EXIT.usage;
    }
    let result: GetPromptResult;
    try {
      result = await client.getPrompt(name, values, options);
    } catch (error) {
      return failure("prompt", `${who}, prompt "${lineOf(name)}"`, error);
    }
    if (args.flags.has("json")) {
      await writeJson(result);
      return EXIT.ok;
    }
    await write("stdout", promptText(result));
    return EXIT.ok;
  });
}

/** A prompt's messages for people: its description, then each message under `[role]`, bounded and with control characters visible. */
export function promptText(result: GetPromptResult): string {
  const parts: string[] = [];
  if (typeof result.description === "string" && result.description !== "") parts.push(`# ${lineOf(result.description)}`);
  for (const message of Array.isArray(result.messages) ? result.messages : []) {
    const content = message?.content;
    const body = content !== null && typeof content === "object" && typeof content.type === "string" ? blockText(content) : boundedText(content, RESULT_BOUNDS);
    parts.push(`[${lineOf(message?.role ?? "?")}]\n${textOf(boundedText(body, RESULT_BOUNDS))}`);
  }
  return parts.join("\n\n") + "\n";
}

/** The options `mcpwire complete` takes. */
export const COMPLETE_OPTIONS = {
  ...SESSION_OPTIONS,
  json: { kind: "flag" },
  prompt: { kind: "string" },
  template: { kind: "string" },
  timeout: { kind: "string" },
} as const;

export async function complete(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, COMPLETE_OPTIONS);
  if (args.flags.has("help")) {
    await write("stdout", COMPLETE_USAGE + "\n");
    return 0;
  }
  const promptName = args.values.get("prompt");
  const template = args.values.get("template");
  const source = configSource(args);
  const needs =
    "complete needs a server and ARG=PREFIX: mcpwire complete SERVER --prompt NAME ARG=PREFIX (SERVER may be left out with one --stdio, --http or --sse)";
  if (args.positional.length < (impliedServer(source) ? 1 : 2)) throw new UsageError(needs);
  if ((promptName === undefined) === (template === undefined)) throw new UsageError("complete needs exactly one of --prompt NAME and --template URI-TEMPLATE");
  const timeoutMs = secondsOption("timeout", args.values.get("timeout"));
  const options = timeoutMs === undefined ? {} : { timeoutMs };
  const logLevel = parseLogLevel(args.values.get("log-level"));
  let server = "";
  let argument = "";
  let prefix = "";
  let context: Record<string, string> = {};
  const onConfig = (config: McpwireConfig) => {
    const chosen = serverAndWords(config, args.positional, (words) => argumentWords(words.slice(1)));
    const [wanted, ...words] = chosen.rest;
    if (chosen.server === undefined || wanted === undefined) throw new UsageError(needs);
    server = chosen.server;
    const pair = stringArguments([wanted.includes("=") ? wanted : `${wanted}=`]);
    [argument, prefix] = Object.entries(pair)[0] ?? ["", ""];
    context = stringArguments(words);
    onlyServer(config, server);
  };
  return await withManager({ ...source, logLevel, onConfig }, async (manager) => {
    const client = readyClient(manager, server, "complete");
    if (client === undefined) return EXIT.server;
    const who = `server "${lineOf(server)}"`;
    let ref: CompleteReference;
    if (promptName !== undefined) {
      // A prompt and its argument are checked by name first: a misspelling gets the nearest names.
      let listed: Prompt[];
      try {
        listed = await client.listPrompts(options);
      } catch (error) {
        return failure("complete", who, error);
      }
      const found = listed.find((each) => each.name === promptName);
      if (found === undefined) {
        return unknownName(
          "complete",
          `prompt on ${who} named`,
          promptName,
          listed.map((each) => each.name),
          `mcpwire prompts ${server}`,
        );
      }
      const declared = (found.arguments ?? []).map((each) => each.name);
      if (!declared.includes(argument)) {
        return unknownName("complete", `argument of prompt "${lineOf(promptName)}" named`, argument, declared, `mcpwire prompts ${server}`);
      }
      ref = { type: "ref/prompt", name: promptName };
    } else {
      ref = { type: "ref/resource", uri: template ?? "" };
    }
    try {
      const result = await client.complete(
        ref,
        { name: argument, value: prefix },
        Object.keys(context).length > 0 ? { arguments: context } : undefined,
        options,
      );
      if (args.flags.has("json")) {
        await writeJson(result);
        return EXIT.ok;
      }
      await write("stdout", result.values.map((value) => lineOf(value) + "\n").join(""));
      if (result.hasMore === true || (typeof result.total === "number" && result.total > result.values.length)) {
        stderrLine(
          `mcpwire complete: the server has more values${typeof result.total === "number" ? ` (${result.total} in all)` : ""}; a longer prefix narrows them`,
        );
      }
      return EXIT.ok;
    } catch (error) {
      return failure("complete", who, error);
    }
  });
}
