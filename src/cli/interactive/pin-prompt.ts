// The question `mcpwire run` and `chat` ask at start, on a terminal, about each tool held back by
// its pin (registry/tool-pins.ts): the diff, then y/N. Yes accepts it (the registry offers it at
// once); anything else leaves it held for this run.

import type { ManagerEvents, McpManager } from "../../host/servers/manager.ts";
import type { ToolPins } from "../../registry/tool-pins.ts";
import { runtime } from "../../runtime/mod.ts";
import { lineOf, write } from "../output.ts";
import { interruptProgress } from "../progress.ts";
import { heldDiffText } from "../tools/pin-diff.ts";

/** How long an accepted tool may take to reach the registry (its server's last listing checked again). */
const OFFER_WAIT_MS = 5_000;

/** Whether to ask: stdin and stderr are terminals (a person can read the diff and answer). */
export function canAskAboutHeldTools(): boolean {
  return runtime.stdinLines().isTerminal && runtime.isTerminal("stderr");
}

/** Asks about each held tool of `events` (not rejected before), once; accepts those answered yes. */
export async function askAboutHeldTools(manager: McpManager, pins: ToolPins, events: readonly ManagerEvents["toolheld"][]): Promise<void> {
  const asked = new Set<string>();
  for (const event of events) {
    const key = `${event.server}\0${event.tool}`;
    if (asked.has(key)) continue;
    asked.add(key);
    const [held] = await pins.held(event.server, event.tool);
    if (held === undefined || held.rejected) continue;
    interruptProgress();
    const who = `server "${lineOf(held.server)}" tool "${lineOf(held.tool)}"`;
    await write("stderr", `${heldDiffText(held)}\nAccept the new definition and offer ${who} to the model? [y/N] `);
    const answer = await runtime.stdinLines().readLine();
    if (answer === undefined || !/^\s*y(es)?\s*$/i.test(answer)) {
      await write("stderr", `still held back: ${who} (mcpwire pin reject stops the question)\n`);
      continue;
    }
    const offered = toolOffered(manager, event.name);
    await pins.accept(held.server, held.tool);
    const inTime = await offered;
    await write("stderr", inTime ? `accepted: ${who}\n` : `accepted: ${who}; it is offered once its server lists its tools again\n`);
  }
}

/** Resolves true once `name` is registered (at most OFFER_WAIT_MS), false after that. */
function toolOffered(manager: McpManager, name: string): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (value: boolean) => {
      clearTimeout(timer);
      stop();
      resolve(value);
    };
    const stop = manager.registry.on("toolschange", ({ added }) => {
      if (added.includes(name)) done(true);
    });
    const timer = setTimeout(() => done(manager.registry.has(name)), OFFER_WAIT_MS);
  });
}
