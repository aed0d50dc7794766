// What a list verb (servers, tools, resources, prompts, skills) says of the servers it could not
// reach: each one on stderr with why, in --json as `unreached`, and exit 3 (docs/cli.md "Exit
// codes"). With none reached it lists nothing: an empty listing would say the servers have nothing.

import type { McpwireConfig } from "../../host/config/types.ts";
import type { McpManager } from "../../host/servers/manager.ts";
import type { ServerState } from "../../host/servers/server-status.ts";
import { EXIT } from "../exit-codes.ts";
import { lineOf } from "../output.ts";
import { configErrors, stderrLine } from "./host-session.ts";

/** An enabled server that is not ready when the listing is made: its state and the last error met (redacted by the manager). */
export interface UnreachedServer {
  server: string;
  state: ServerState;
  error: string;
}

/** What a listing reached: the servers not reached, whether none was, and the exit code that calls for. */
export interface Reach {
  unreached: UnreachedServer[];
  /** No enabled server is ready, and at least one was to be listed: the verb prints no listing. */
  none: boolean;
  /** EXIT.server when any server was not reached, else EXIT.ok. */
  code: number;
}

/**
 * The enabled servers of `manager` that are not ready, each said on stderr as `mcpwire VERB:
 * server "x" could not be reached (parked): why`; when none is ready, a last line says that
 * nothing is listed. `say: false` (servers, whose table shows each error): one line naming them;
 * `only`: the listing covers that server alone (`skills SERVER`, which starts them all).
 */
export function reach(manager: McpManager, verb: string, options: { say?: boolean; only?: string } = {}): Reach {
  const say = options.say ?? true;
  const enabled = manager.status().filter((status) => status.state !== "disabled" && (options.only === undefined || status.name === options.only));
  const unreached = enabled.filter((status) => status.state !== "ready").map((status) => ({
    server: status.name,
    state: status.state,
    error: status.lastError ?? "no detail",
  }));
  const none = unreached.length > 0 && unreached.length === enabled.length;
  if (!say) {
    if (unreached.length > 0) {
      stderrLine(`mcpwire ${verb}: not reached: ${unreached.map((each) => `server "${lineOf(each.server)}" (${each.state})`).join(", ")}`);
    }
  } else {
    for (const each of unreached) stderrLine(`mcpwire ${verb}: server "${lineOf(each.server)}" could not be reached (${each.state}): ${lineOf(each.error)}`);
    if (none) {
      const which = unreached.length === 1
        ? `its server could not be reached; start it`
        : `none of its ${unreached.length} servers could be reached; start them`;
      stderrLine(`mcpwire ${verb}: nothing is listed: ${which}, or check its command or URL (mcpwire servers shows each state)`);
    }
  }
  return { unreached, none, code: unreached.length > 0 ? EXIT.server : EXIT.ok };
}

/** EXIT.usage when a config error disabled a server the listing covers (every server, or `only`); else EXIT.ok. */
export function configCode(config: McpwireConfig, only?: string): number {
  return configErrors(config).some((error) => only === undefined || error.server === undefined || error.server === only) ? EXIT.usage : EXIT.ok;
}
