// `mcpwire pin status|diff|accept|reject`: the tools held back by their pins (registry/tool-pins.ts,
// kept in the lock file host/store/pin-lock-file.ts), what changed in each (a line diff of its
// description and schemas), and the user's decision. Everything shown from a server is
// sanitized for the terminal (output.ts).

import { mixedScriptWords } from "../../common/deceptive-text.ts";
import type { McpwireConfig } from "../../host/config/types.ts";
import { ConfigError } from "../../host/config/types.ts";
import { PinLockFile, pinLockFileOf } from "../../host/store/pin-lock-file.ts";
import { ToolPinsError } from "../../registry/registry-errors.ts";
import { type HeldTool, ToolPins } from "../../registry/tool-pins.ts";
import { runtime } from "../../runtime/mod.ts";
import { parseArgs, UsageError } from "../args.ts";
import { lineOf, write, writeJson } from "../output.ts";
import { IMPORT_OPTION, loadCliConfig } from "../session/host-session.ts";
import { renderTable } from "../table.ts";
import { heldDiffText, heldNotes } from "../tools/pin-diff.ts";

export const PIN_USAGE = `usage: mcpwire pin status [--json]
       mcpwire pin diff [SERVER] [TOOL]
       mcpwire pin accept [SERVER] [TOOL]
       mcpwire pin reject [SERVER] [TOOL]
       (each also takes --config FILE, --import APP[,APP], --trust-project)

The first time mcpwire sees a server (by its config name and its command line or URL) it pins
each of its tools: a digest of the tool's name, title, description, input and output schemas,
annotations, _meta.ui and execution (RFC 8785 canonical JSON, SHA-256). Later, a tool that is
new, or whose definition changed (at connect or through notifications/tools/list_changed), is
held back: the model is not offered it and a call of it is refused, until you accept it. A
server cannot rewrite what its tools tell the model after you took it on.

pin status      the held-back tools, per server: new, changed (which fields), or renamed
                (a pinned tool's definition under a new name); --json as JSON
pin diff        what changed: a line diff of each held tool's description and schemas,
                invisible characters shown as escapes (\\u200b, \\u{e0049}); a note says
                what text in Unicode tag characters spells and which words mix look-alike
                letters of different scripts (status notes them too)
pin accept      pins the held tools (of SERVER, or only TOOL) to their new definitions;
                run and chat offer them from their next start
pin reject      keeps the old pins: the tools stay held and are not asked about again

mcpwire run and chat ask about held tools at start on a terminal (the diff, then y/N per tool);
without a terminal they print a warning per tool and go on without them.

The pins are kept in mcpwire.lock.json beside a project's config (or the --config file), else
in $XDG_STATE_HOME/mcpwire/mcpwire.lock.json (default ~/.local/state/mcpwire/), mode 0600;
MCPWIRE_LOCK_FILE=PATH names another. The config key pinning (top level or per server):
hold (default; inspect: warn), warn (offered, with the warning) or off (nothing recorded).`;

/** The options of `mcpwire pin` (completion reads them through its row of cli/verb-table.ts). */
export const PIN_OPTIONS = {
  config: { kind: "string", values: "file" },
  import: IMPORT_OPTION,
  "trust-project": { kind: "flag" },
  json: { kind: "flag" },
  help: { kind: "flag" },
  debug: { kind: "flag" },
} as const;

/** What `mcpwire pin` does: status, diff, accept, reject. */
export const PIN_ACTIONS = ["status", "diff", "accept", "reject"] as const;

export async function pin(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, PIN_OPTIONS);
  if (args.flags.has("help")) {
    await write("stdout", PIN_USAGE + "\n");
    return 0;
  }
  const [what, server, tool, ...extra] = args.positional;
  if (what === undefined) throw new UsageError("pin needs what to do: mcpwire pin status, pin diff, pin accept or pin reject");
  if (!(PIN_ACTIONS as readonly string[]).includes(what)) throw new UsageError(`unknown "pin ${what}"; try pin status, diff, accept or reject`);
  if (extra.length > 0 || (what === "status" && server !== undefined)) {
    throw new UsageError(
      `unexpected argument "${what === "status" ? server : extra[0]}" (pin ${what === "status" ? "status takes none" : `${what} takes [SERVER] [TOOL]`})`,
    );
  }
  const pins = await cliPins(args.values.get("config"), args.lists.get("import"), args.flags.has("trust-project"));
  switch (what) {
    case "status":
      return await status(pins, args.flags.has("json"));
    case "diff":
      return await diff(pins, server, tool);
    default:
      return await decide(pins, what as "accept" | "reject", server, tool);
  }
}

/** The pins of the config the verbs would load (none found: the user's own lock file). */
async function cliPins(configPath: string | undefined, imports: string[] | undefined, trustProject: boolean): Promise<ToolPins> {
  let config: Pick<McpwireConfig, "file"> = {};
  try {
    config = await loadCliConfig({ configPath, ...(imports === undefined ? {} : { imports }), trustProject });
  } catch (error) {
    if (!(error instanceof ConfigError && error.code === "config-not-found" && configPath === undefined)) throw error;
  }
  const file = pinLockFileOf(config, runtime.env());
  if (file === undefined) {
    throw new UsageError("there is no lock file of tool pins to read: MCPWIRE_LOCK_FILE is off, or neither XDG_STATE_HOME nor HOME is set");
  }
  return new ToolPins({ store: new PinLockFile(file) });
}

async function status(pins: ToolPins, json: boolean): Promise<number> {
  const held = await pins.held();
  if (json) {
    await writeJson({ lockFile: pins.location, held: held.map(({ before: _before, after: _after, ...rest }) => rest) });
    return 0;
  }
  if (held.length === 0) {
    await write("stdout", `no tool is held back (pins: ${lineOf(pins.location)})\n`);
    return 0;
  }
  const rows = held.map((tool) => [
    lineOf(tool.server),
    `${lineOf(tool.tool)}${mixedScriptWords(tool.tool).length > 0 ? " (mixed scripts)" : ""}`,
    changeText(tool),
    tool.rejected ? "held (rejected)" : "held",
  ]);
  await write("stdout", renderTable(["SERVER", "TOOL", "CHANGE", "STATE"], rows));
  // What reads otherwise than it is: look-alike letters of another script, text hidden in tag characters.
  for (const tool of held) {
    for (const note of heldNotes(tool)) await write("stdout", `note: server "${lineOf(tool.server)}" tool "${lineOf(tool.tool)}": ${lineOf(note)}\n`);
  }
  await write("stdout", `pins: ${lineOf(pins.location)}; see each change with mcpwire pin diff, then pin accept or pin reject\n`);
  return 0;
}

function changeText(tool: HeldTool): string {
  switch (tool.change) {
    case "new":
      return "new";
    case "renamed":
      return `renamed from ${lineOf(tool.renamedFrom ?? "?")}`;
    case "invalid":
      return "cannot be pinned";
    default:
      return `changed: ${tool.fields.join(", ")}`;
  }
}

async function diff(pins: ToolPins, server: string | undefined, tool: string | undefined): Promise<number> {
  const held = await pins.held(server, tool);
  if (held.length === 0) {
    await write("stdout", `${nothingHeld(server, tool)} (pins: ${lineOf(pins.location)})\n`);
    return server === undefined ? 0 : 1;
  }
  await write("stdout", held.map(heldDiffText).join("\n") + "\n");
  return 0;
}

function nothingHeld(server: string | undefined, tool: string | undefined): string {
  if (server === undefined) return "no tool is held back";
  if (tool === undefined) return `server "${lineOf(server)}" has no held-back tools`;
  return `tool "${lineOf(tool)}" of server "${lineOf(server)}" is not held back`;
}

async function decide(pins: ToolPins, what: "accept" | "reject", server: string | undefined, tool: string | undefined): Promise<number> {
  const servers = server !== undefined ? [server] : [...new Set((await pins.held()).map((held) => held.server))];
  if (servers.length === 0) {
    await write("stdout", `no tool is held back (pins: ${lineOf(pins.location)})\n`);
    return 0;
  }
  for (const name of servers) {
    let decided: HeldTool[];
    try {
      decided = what === "accept" ? await pins.accept(name, tool) : await pins.reject(name, tool);
    } catch (error) {
      if (!(error instanceof ToolPinsError && error.code === "not-held")) throw error;
      await write("stderr", `mcpwire: ${lineOf(error.message)}\n`);
      return 1;
    }
    for (const held of decided) {
      const who = `server "${lineOf(held.server)}" tool "${lineOf(held.tool)}"`;
      await write(
        "stdout",
        what === "accept"
          ? `accepted: ${who} is pinned to its new definition${held.renamedFrom === undefined ? "" : ` (the pin of "${lineOf(held.renamedFrom)}" is gone)`}\n`
          : `rejected: ${who} keeps its old pin and stays held back\n`,
      );
    }
  }
  return 0;
}
