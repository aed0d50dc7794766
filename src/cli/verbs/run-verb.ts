// `mcpwire run -p "prompt"`: one prompt through the Runner — the model, the configured
// servers' tools, approval, hooks and sampling as agent-session.ts sets them up; the answer on
// stdout, tool activity on stderr.

import { type Runner, RunnerError, type RunnerEvent } from "../../agent/runner.ts";
import type { JsonObject } from "../../client/types.ts";
import { parseArgs, UsageError } from "../args.ts";
import { lineOf, textOf, write, writeJson } from "../output.ts";
import { AD_HOC_USAGE } from "../session/ad-hoc-servers.ts";
import { activityPrinter, HOST_OPTIONS, hostRunner, type HostSetup, withHost } from "../session/agent-session.ts";
import { stderrLine, TRACE_USAGE } from "../session/host-session.ts";

export const RUN_USAGE = `usage: mcpwire run -p "prompt" [--model M] [--config FILE] [--max-steps N] [--json]
                   [--yes | --approve read-only|all|none] [--no-hooks] [--system TEXT] [--import APP[,APP]]

Starts the configured servers, asks the model with their tools, runs the tool calls it
makes (through MCP), gives it the results and repeats until it answers. The answer goes to
stdout; tool activity (name, arguments in short, duration, progress) to stderr.

-p, --prompt TEXT  the prompt (or the words after the options)
--model M          provider/model: ollama/qwen3, openai/gpt-4o, anthropic/claude-sonnet-4-5,
                   google/gemini-2.5-flash; default: the config's model:
--max-steps N      model requests per prompt, at most (default: max_steps: or 20)
--json             print the whole transcript as JSON instead of the answer
--yes              run every tool call without asking (same as --approve all)
--approve POLICY   which tool calls run without asking: read-only (tools the server
                   annotates readOnlyHint; the default), all, none. The rest are asked
                   for on a terminal and refused without one; the model is told.
--no-hooks         do not run the config's hooks
--system TEXT      the system prompt (default: the config's system_prompt:)

Keys: OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY, or providers: in the config.
Local: ollama serve, then --model ollama/qwen3. A server with sampling.model in the config
has its sampling requests answered by that model (asked first unless --yes).

${AD_HOC_USAGE}

${TRACE_USAGE}

exit codes: 0 answered, 1 the run ended without an answer (model error, max steps, a hook
            blocked the prompt), 2 usage or config error, 130 interrupted`;

/** A transcript entry for --json: each tool call with its outcome. */
interface ToolActivity {
  step: number;
  id: string;
  name: string;
  arguments: JsonObject | string;
  outcome: "result" | "error" | "rejected" | "declined" | "blocked";
  durationMs?: number;
}

/** The options `mcpwire run` takes. */
export const RUN_OPTIONS = { ...HOST_OPTIONS, prompt: { kind: "string" }, json: { kind: "flag" } } as const;

export async function run(argv: readonly string[]): Promise<number> {
  // `-p` is the short form mcphost users type; the parser knows only long options.
  const normalized = argv.map((arg) => (arg === "-p" ? "--prompt" : arg));
  const args = parseArgs(normalized, RUN_OPTIONS);
  if (args.flags.has("help")) {
    await write("stdout", RUN_USAGE + "\n");
    return 0;
  }
  const prompt = args.values.get("prompt") ?? (args.positional.length > 0 ? args.positional.join(" ") : undefined);
  if (prompt === undefined || prompt.trim() === "") throw new UsageError('run needs a prompt: mcpwire run -p "add 2 and 40"');
  const json = args.flags.has("json");
  return await withHost("run", args, async (manager, setup) => {
    const activity: ToolActivity[] = [];
    const print = activityPrinter();
    const record = (event: RunnerEvent) => {
      switch (event.type) {
        case "tool-result":
          activity.push({
            step: event.step,
            id: event.call.id,
            name: event.call.name,
            arguments: event.call.arguments,
            outcome: event.isError ? "error" : "result",
            durationMs: Math.round(event.durationMs),
          });
          return;
        case "tool-rejected":
        case "approval-refused":
          activity.push({
            step: event.step,
            id: event.call.id,
            name: event.call.name,
            arguments: event.call.arguments,
            outcome: event.type === "tool-rejected" ? "rejected" : "declined",
          });
          return;
        default:
          return;
      }
    };
    const runner = hostRunner(manager, setup, (event) => {
      print(event);
      record(event);
    });
    let answer: string;
    try {
      answer = await runner.run(prompt);
    } catch (error) {
      if (!(error instanceof RunnerError)) throw error;
      stderrLine(`mcpwire run: ${lineOf(error.message)}`);
      if (json) await writeTranscript(setup, prompt, undefined, runner, activity, error.message);
      return error.code === "cancelled" ? 130 : 1;
    }
    if (json) await writeTranscript(setup, prompt, answer, runner, activity);
    else await write("stdout", textOf(answer.endsWith("\n") ? answer : answer + "\n"));
    return 0;
  });
}

async function writeTranscript(
  setup: HostSetup,
  prompt: string,
  answer: string | undefined,
  runner: Runner,
  tools: ToolActivity[],
  error?: string,
): Promise<void> {
  const transcript = {
    model: setup.modelString,
    prompt,
    ...(answer !== undefined ? { answer } : {}),
    ...(error !== undefined ? { error } : {}),
    ...(setup.systemPrompt !== undefined ? { systemPrompt: setup.systemPrompt } : {}),
    tools,
    messages: runner.history,
  };
  await writeJson(transcript);
}
