// `mcpwire chat`: an interactive conversation with a model over the configured servers' tools
// — the Runner's history kept from prompt to prompt, the answer streamed as it is generated,
// and a few slash commands (/tools, /servers, /clear, /save FILE, /load FILE, /quit).

import { RunnerError } from "../../agent/runner.ts";
import { messageOf } from "../../common/error-text.ts";
import { fitLine } from "../../common/preview.ts";
import { runtime } from "../../runtime/mod.ts";
import { parseArgs, UsageError } from "../args.ts";
import { lineOf, textOf, write } from "../output.ts";
import { interruptProgress } from "../progress.ts";
import { AD_HOC_USAGE } from "../session/ad-hoc-servers.ts";
import { activityPrinter, HOST_OPTIONS, hostRunner, withHost } from "../session/agent-session.ts";
import { stderrLine } from "../session/host-session.ts";
import { renderTable } from "../table.ts";

export const CHAT_USAGE = `usage: mcpwire chat [--model M] [--config FILE] [--max-steps N]
                    [--yes | --approve read-only|all|none] [--no-hooks] [--system TEXT] [--import APP[,APP]]

An interactive conversation with the model over the configured servers' tools. Each line
you type is a prompt; the answer is streamed; the conversation is kept from one prompt to
the next. Tool activity goes to stderr, and tool calls the approval policy does not let
through are asked for (y/N). The options are those of \`mcpwire run\`, and the servers can
be given on the command line as well (\`mcpwire chat --stdio "npx -y …/server-everything"\`):

${AD_HOC_USAGE}

commands:
  /tools        the tools the model is offered
  /servers      each server's state
  /clear        forget the conversation
  /save FILE    write the conversation as JSON (load it again with /load FILE)
  /load FILE    continue a saved conversation
  /quit         leave (also end of input, Ctrl-D)`;

/** The options `mcpwire chat` takes: those of `mcpwire run` but the prompt and --json. */
export const CHAT_OPTIONS = HOST_OPTIONS;

export async function chat(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, CHAT_OPTIONS);
  if (args.flags.has("help")) {
    await write("stdout", CHAT_USAGE + "\n");
    return 0;
  }
  if (args.positional.length > 0) throw new UsageError(`unexpected argument "${args.positional[0]}" (type prompts once the chat starts)`);
  const lines = runtime.stdinLines();
  // The model's text and the servers' names and errors: redacted, control characters visible.
  const say = (text: string) => write("stdout", text);
  return await withHost("chat", args, async (manager, setup) => {
    const print = activityPrinter();
    let streamed = false;
    const runner = hostRunner(manager, setup, (event) => {
      if (event.type === "text") {
        interruptProgress();
        streamed = true;
        void say(textOf(event.chunk));
        return;
      }
      // Text streamed before the model turned to tools ends its line before tool activity.
      if (event.type === "response" && streamed && event.toolCalls.length > 0) void say("\n");
      // A retried request starts its text again: end the interrupted line first.
      if (event.type === "retry" && streamed) void say("\n");
      if (event.type === "request" || event.type === "retry") streamed = false;
      print(event);
    });
    await say(`mcpwire chat with ${setup.modelString} — ${manager.registry.list().length} tools; /quit to leave, /tools, /servers, /clear, /save FILE\n`);
    for (;;) {
      if (lines.isTerminal) await say("> ");
      const line = await lines.readLine();
      if (line === undefined) break;
      const input = line.trim();
      if (input === "") continue;
      if (!lines.isTerminal) await say(`> ${input}\n`);
      if (input.startsWith("/")) {
        const [command, ...rest] = input.split(/\s+/);
        const argument = rest.join(" ");
        switch (command) {
          case "/quit":
          case "/exit":
            return 0;
          case "/tools": {
            const rows = manager.registry.list().map((tool) => [lineOf(tool.name), fitLine(lineOf(tool.description ?? ""), 70)]);
            await say(rows.length === 0 ? "no tools are offered\n" : renderTable(["NAME", "DESCRIPTION"], rows));
            continue;
          }
          case "/servers": {
            const rows = manager.status().map((
              status,
            ) => [lineOf(status.name), status.state, String(status.tools), fitLine(lineOf(status.lastError ?? ""), 60)]);
            await say(renderTable(["SERVER", "STATE", "TOOLS", "LAST ERROR"], rows));
            continue;
          }
          case "/clear":
            runner.clearHistory();
            await say("the conversation is cleared\n");
            continue;
          case "/save":
          case "/load": {
            if (argument === "") {
              await say(`usage: ${command} FILE\n`);
              continue;
            }
            const saving = command === "/save";
            try {
              if (saving) await runtime.writePrivateFile(argument, runner.saveHistory() + "\n");
              else runner.loadHistory(await runtime.readTextFile(argument));
              await say(`${saving ? "saved" : "loaded"} ${runner.history.length} messages ${saving ? "to" : "from"} ${argument}\n`);
            } catch (error) {
              stderrLine(`mcpwire chat: cannot ${saving ? "write" : "load"} ${argument}: ${messageOf(error)}`);
            }
            continue;
          }
          default:
            await say(`unknown command ${command}; commands: /tools, /servers, /clear, /save FILE, /load FILE, /quit\n`);
            continue;
        }
      }
      streamed = false;
      try {
        const answer = await runner.run(input);
        // A provider that does not stream gives the whole answer at the end.
        if (!streamed) await say(textOf(answer));
        await say("\n");
      } catch (error) {
        if (!(error instanceof RunnerError)) throw error;
        if (streamed) await say("\n");
        stderrLine(`mcpwire chat: ${lineOf(error.message)}`);
        if (error.code === "cancelled") return 130;
      }
    }
    return 0;
  });
}
