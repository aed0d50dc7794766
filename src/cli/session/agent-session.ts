// What `mcpwire run` and `mcpwire chat` share: the session of host-session.ts with a model on
// top — the model chosen (--model, the config's, or a local Ollama's), approval (spec 2025-11-25
// server/tools: a human SHOULD confirm tool calls), hooks, sampling served by a provider, the
// Runner over the manager's registry, and its tool activity drawn on stderr.

import { type ApprovalPolicy, approvalPolicy, type ApproveFunction, isReadOnly, parseApprovalPolicy } from "../../agent/approval.ts";
import { HookConfigError, Hooks, NO_HOOKS } from "../../agent/hooks.ts";
import { providerSamplingHandler } from "../../agent/provider-sampling.ts";
import { createProvider, type ProviderName } from "../../agent/providers/mod.ts";
import { ollamaBaseUrl } from "../../agent/providers/ollama.ts";
import type { Provider } from "../../agent/providers/types.ts";
import { Runner, type RunnerEvent } from "../../agent/runner.ts";
import type { ToolDefinitionLimits } from "../../agent/tool-definition-cap.ts";
import type { ToolSearchOptions } from "../../agent/tool-search.ts";
import type { SamplingHandler } from "../../client/handlers.ts";
import { McpwireError, type McpwireErrorOptions } from "../../common/mcpwire-error.ts";
import type { McpwireConfig, ServerConfig } from "../../host/config/types.ts";
import type { McpManager } from "../../host/servers/manager.ts";
import { offerManagerSkills } from "../../host/servers/manager-skills.ts";
import { runtime } from "../../runtime/mod.ts";
import { type ParsedArgs, positiveInt, UsageError } from "../args.ts";
import { ELICIT_MODES } from "../interactive/elicit-prompt.ts";
import { dataLine, lineOf, write, writeControl } from "../output.ts";
import { interruptProgress, ProgressDisplay } from "../progress.ts";
import { configSource, decliningSampling, parseElicitMode, parseLogLevel, SESSION_OPTIONS, stderrLine, withManager } from "./host-session.ts";

/** The options run and chat share. */
export const HOST_OPTIONS = {
  ...SESSION_OPTIONS,
  model: { kind: "string" },
  "max-steps": { kind: "string" },
  yes: { kind: "flag" },
  approve: { kind: "string" },
  "no-hooks": { kind: "flag" },
  system: { kind: "string" },
  elicit: { kind: "string", values: ELICIT_MODES },
} as const;

/** How long the Ollama probe waits when no model is configured. */
const OLLAMA_PROBE_MS = 1500;

/** No model given and none found: what to do, in one message (`code` "no-model-configured"; the CLI exits 2). */
export class NoModelError extends McpwireError<"no-model-configured"> {
  override readonly name = "NoModelError";
  constructor(message: string, options?: McpwireErrorOptions) {
    super(message, "no-model-configured", options);
  }
}

function noModelMessage(verb: string, ollama: string, config: McpwireConfig): string {
  const where = config.file === undefined ? "the config" : config.file;
  return `mcpwire ${verb}: no model configured (no --model, no model: in ${where}) and no Ollama answering at ${ollama}. ` +
    "To run one locally: `ollama serve`, `ollama pull qwen3`, then --model ollama/qwen3. " +
    "For a hosted model set OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY and pass --model openai/gpt-4o (or anthropic/…, google/…); " +
    "for an OpenAI-compatible server (LM Studio, vLLM, llama.cpp) set providers: { openai: { base_url: … } } and --model openai/<name>. " +
    "Or put model: in the config";
}

/** The first model a local Ollama has, or undefined when none answers in time. */
async function probeOllama(baseUrl: string): Promise<string | undefined> {
  try {
    const response = await fetch(new URL("/api/tags", baseUrl), { signal: AbortSignal.timeout(OLLAMA_PROBE_MS) });
    if (!response.ok) {
      await response.body?.cancel();
      return undefined;
    }
    const body = await response.json() as { models?: Array<{ name?: unknown }> };
    const name = body.models?.find((model) => typeof model.name === "string")?.name;
    return typeof name === "string" ? name : undefined;
  } catch {
    return undefined;
  }
}

/** Everything a run or a chat needs once the config is read. */
export interface HostSetup {
  modelString: string;
  provider: Provider;
  makeProvider: (model: string) => Provider;
  policy: ApprovalPolicy;
  approve: ApproveFunction;
  hooks: Hooks;
  maxSteps?: number;
  systemPrompt?: string;
  /** The config's `tool_search:` (default: search past the budget). */
  toolSearch?: ToolSearchOptions;
  /** The config's `tool_definitions:` (default: 2 KB of description, 16 KB of schema per tool). */
  toolDefinitions?: ToolDefinitionLimits | false;
}

/** The approval policy from --yes / --approve. */
export function approvalFromArgs(args: ParsedArgs): ApprovalPolicy {
  const text = args.values.get("approve");
  if (args.flags.has("yes")) {
    if (text !== undefined && text !== "all") throw new UsageError(`--yes means --approve all; it cannot go with --approve ${text}`);
    return "all";
  }
  if (text === undefined) return "read-only";
  const policy = parseApprovalPolicy(text);
  if (policy === undefined) throw new UsageError(`--approve must be read-only, all or none (got "${text}")`);
  return policy;
}

/** Arguments or an error in short, on one line: bounded, redacted, control characters visible. */
function shortJson(value: unknown, max = 80): string {
  const text = dataLine(value, { maxDepth: 8, maxChars: max * 4 });
  return text.length > max ? text.slice(0, max - 1) + "…" : text;
}

/** Asks y/N on the terminal (stderr), reading stdin. */
async function askYesNo(question: string): Promise<boolean> {
  interruptProgress();
  await write("stderr", `${question} [y/N] `);
  const line = await runtime.stdinLines().readLine();
  return line !== undefined && /^\s*y(es)?\s*$/i.test(line);
}

/**
 * Resolves the model (flag, config, or a local Ollama), the provider, approval and hooks.
 * Throws UsageError / NoModelError with what to do.
 */
export async function setUpHost(verb: string, args: ParsedArgs, config: McpwireConfig): Promise<HostSetup> {
  const env = runtime.env();
  const settings = config.providers ?? {};
  const makeProvider = (model: string): Provider => {
    const name = model.slice(0, Math.max(0, model.search(/[/:]/))).toLowerCase();
    return createProvider(model, {
      env,
      providers: settings as Partial<Record<ProviderName, { apiKey?: string; baseUrl?: string }>>,
      ...(settings[name]?.timeoutMs !== undefined ? { timeoutMs: settings[name]!.timeoutMs } : {}),
    });
  };
  let modelString = args.values.get("model") ?? config.model;
  if (modelString === undefined) {
    const base = ollamaBaseUrl(settings.ollama?.baseUrl ?? env.OLLAMA_HOST);
    const found = await probeOllama(base);
    if (found === undefined) throw new NoModelError(noModelMessage(verb, base, config));
    modelString = `ollama/${found}`;
    stderrLine(`mcpwire ${verb}: no model configured; using ${modelString}, found on the Ollama at ${base} (pass --model to choose)`);
  }
  let provider: Provider;
  try {
    provider = makeProvider(modelString);
  } catch (error) {
    throw new UsageError((error as Error).message, "usage", { cause: error });
  }
  const maxStepsText = args.values.get("max-steps");
  const maxSteps = maxStepsText === undefined ? config.maxSteps : positiveInt("max-steps", maxStepsText, 20);
  const policy = approvalFromArgs(args);
  const terminal = runtime.stdinLines().isTerminal;
  // spec 2025-11-25 server/tools: on a terminal a person confirms what the policy does not let through.
  const ask: ApproveFunction | undefined = terminal
    ? async ({ tool, arguments: input }) => {
      const hint = isReadOnly(tool) ? "" : " (not marked read-only)";
      return (await askYesNo(`mcpwire: allow ${tool.name}${hint} ${shortJson(input, 120)}?`)) ? true : { approved: false, reason: "the user said no" };
    }
    : undefined;
  let hooks = NO_HOOKS;
  if (!args.flags.has("no-hooks") && config.hooks !== undefined) {
    try {
      hooks = new Hooks(config.hooks, {
        model: modelString,
        sessionId: crypto.randomUUID(),
        onProblem: ({ message }) => stderrLine(`mcpwire: warning: ${message}`),
      });
    } catch (error) {
      if (error instanceof HookConfigError) throw new UsageError(`${config.file ?? "config"}: ${error.message}`, "usage", { cause: error });
      throw error;
    }
  }
  return {
    modelString,
    provider,
    makeProvider,
    policy,
    approve: approvalPolicy(policy, ask),
    hooks,
    ...(maxSteps !== undefined ? { maxSteps } : {}),
    ...(config.toolSearch !== undefined ? { toolSearch: config.toolSearch } : {}),
    ...(config.toolDefinitions !== undefined ? { toolDefinitions: config.toolDefinitions } : {}),
    ...((args.values.get("system") ?? config.systemPrompt) !== undefined ? { systemPrompt: args.values.get("system") ?? config.systemPrompt } : {}),
  };
}

/**
 * The sampling handler of a server with `sampling.model`: that model answers, after the user
 * agrees on a terminal (or always with --yes); without a terminal and --yes it is declined.
 */
export function samplingFor(server: ServerConfig, setup: () => HostSetup | undefined, policy: ApprovalPolicy): SamplingHandler {
  if (server.samplingModel === undefined) {
    // spec 2025-11-25 client/sampling ("Error Handling"): a refusal is -1, with a reason the user can act on.
    return decliningSampling(
      `the host declined: no sampling.model is configured for server "${server.name}"; add sampling: { model: provider/model } to it to answer`,
    );
  }
  return providerSamplingHandler({
    model: server.samplingModel,
    createProvider: (model) => {
      const current = setup();
      // A server asked before setUpHost chose the model: provider-sampling.ts answers it -32603 with this text.
      if (current === undefined) throw new NoModelError("the host is not set up yet: its model is chosen once the config is loaded; ask again");
      return current.makeProvider(model);
    },
    confirm: async (request, context, model) => {
      if (policy === "all") return true;
      if (!runtime.stdinLines().isTerminal) {
        stderrLine(`mcpwire: ${lineOf(context.server)} asked to sample ${lineOf(model)}; declined: no terminal to confirm it (pass --yes to allow)`);
        return false;
      }
      const last = request.messages.at(-1);
      const content = last === undefined ? "" : Array.isArray(last.content) ? last.content : [last.content];
      const text = Array.isArray(content) ? content.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join(" ") : "";
      return await askYesNo(`mcpwire: ${lineOf(context.server)} asks ${lineOf(model)}: ${shortJson(text, 120)} — allow?`);
    },
  });
}

/** Draws the Runner's events on stderr: tool name, arguments in short, duration, progress. */
export function activityPrinter(): (event: RunnerEvent) => void {
  const bars = new Map<string, ProgressDisplay>();
  // The progress bar's own CR and erase-line; its numbers and message are sanitized by ProgressDisplay.
  const control = (text: string) => void writeControl("stderr", text);
  return (event) => {
    switch (event.type) {
      case "tool-call":
        stderrLine(`→ ${lineOf(event.call.name)} ${shortJson(event.arguments)}`);
        return;
      case "tool-progress": {
        let bar = bars.get(event.call.id);
        if (bar === undefined) bars.set(event.call.id, bar = new ProgressDisplay(control, runtime.isTerminal("stderr")));
        bar.update(event.progress);
        return;
      }
      case "tool-result": {
        bars.get(event.call.id)?.finish();
        bars.delete(event.call.id);
        const seconds = event.durationMs >= 1000 ? `${(event.durationMs / 1000).toFixed(1)} s` : `${Math.round(event.durationMs)} ms`;
        const detail = event.isError ? ` error: ${shortJson((JSON.parse(event.content) as { error?: string }).error ?? "", 160)}` : "";
        stderrLine(`${event.isError ? "✗" : "←"} ${lineOf(event.call.name)} ${seconds}${detail}`);
        return;
      }
      case "tool-rejected":
        stderrLine(`✗ ${lineOf(event.call.name)}: ${shortJson((JSON.parse(event.content) as { error?: string }).error ?? "", 200)}`);
        return;
      case "approval-refused":
        stderrLine(`✗ ${lineOf(event.call.name)} not run: ${lineOf(event.reason)}`);
        return;
      case "hook-blocked":
        stderrLine(`✗ ${event.event} hook blocked${event.call ? ` ${lineOf(event.call.name)}` : ""}: ${lineOf(event.reason)}`);
        return;
      case "warning":
        stderrLine(`mcpwire: warning: ${lineOf(event.message)}`);
        return;
      case "retry":
        stderrLine(`mcpwire: ${lineOf(event.error.message)}; retrying in ${(event.delayMs / 1000).toFixed(1)} s (retry ${event.attempt})`);
        return;
      default:
        return;
    }
  };
}

/** The Runner of a run or a chat: the setup's model, approval and hooks over the manager's registry. */
export function hostRunner(manager: McpManager, setup: HostSetup, onEvent: (event: RunnerEvent) => void): Runner {
  return new Runner({
    provider: setup.provider,
    registry: manager.registry,
    systemPrompt: setup.systemPrompt,
    maxSteps: setup.maxSteps,
    approve: setup.approve,
    hooks: setup.hooks,
    ...(setup.toolSearch !== undefined ? { toolSearch: setup.toolSearch } : {}),
    ...(setup.toolDefinitions !== undefined ? { toolDefinitions: setup.toolDefinitions } : {}),
    // --otel / telemetry: the model requests and tool calls as spans, with the servers' redactor.
    ...(manager.telemetry !== undefined ? { telemetry: manager.telemetry } : {}),
    onEvent,
  });
}

/**
 * The verbs' common frame: parse, load, set up, run `body` with the manager and the setup. No
 * model found is said on stderr with what to do, and exits 2.
 */
export async function withHost(
  verb: string,
  args: ParsedArgs,
  body: (manager: McpManager, setup: HostSetup, config: McpwireConfig) => Promise<number>,
): Promise<number> {
  const logLevel = parseLogLevel(args.values.get("log-level"));
  const elicit = parseElicitMode(args.values.get("elicit"));
  const policy = approvalFromArgs(args);
  let setup: HostSetup | undefined;
  try {
    return await withManager({
      ...configSource(args),
      logLevel,
      elicit,
      onConfig: async (config) => {
        setup = await setUpHost(verb, args, config);
      },
      sampling: (server) => samplingFor(server, () => setup, policy),
      resultFiles: true,
      askHeldTools: true,
      hostKeys: true,
    }, async (manager, config) => {
      await offerManagerSkills(manager); // skills: names up front, loaded through mcp_<server>_skill (host/servers/manager-skills.ts)
      return await body(manager, setup!, config);
    });
  } catch (error) {
    if (error instanceof NoModelError) {
      await write("stderr", error.message + "\n");
      return 2;
    }
    throw error;
  }
}
