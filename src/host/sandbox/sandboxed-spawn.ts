// A stdio server's spawn, wrapped in its sandbox (issue 29): the StdioTransport's `wrapSpawn`
// made from the server's `sandbox:` settings. Where bubblewrap cannot be had, a Deno script gets
// Deno's permission flags instead; any other server does not start — unless its settings prefer
// running unsandboxed, which it then does with a warning.

import { runtime } from "../../runtime/mod.ts";
import type { SpawnCommand, WrappedSpawn } from "../../transport/stdio.ts";
import type { SandboxSettings } from "../config/types.ts";
import { denoRunArguments, isDenoRun } from "./deno-permissions.ts";
import { bwrapArguments } from "./sandbox.ts";
import { sandboxAvailability, SandboxError } from "./sandbox-availability.ts";
import { findProgram, planSandbox } from "./sandbox-plan.ts";

/** How a sandboxed server was started: in its sandbox, or (`sandbox: prefer`) without one, and why. */
export interface SandboxOutcome {
  sandboxed: boolean;
  /** The profile as configured: `default`, `prefer` or `custom`. */
  profile: SandboxSettings["profile"];
  /** What sandboxes it: bubblewrap, or (a Deno script where bubblewrap cannot be had) Deno's permission flags. */
  by?: "bubblewrap" | "deno";
  /** Why it runs unsandboxed (`sandbox: prefer` where no sandbox can be had). */
  warning?: string;
}

/**
 * The wrapSpawn of server `name` with these settings: bwrap running the server as planned.
 * `onOutcome` hears, at each start, whether it got its sandbox.
 */
export function sandboxedSpawn(
  name: string,
  settings: SandboxSettings,
  roots: readonly string[],
  onOutcome?: (outcome: SandboxOutcome) => void,
): (spawn: SpawnCommand) => Promise<WrappedSpawn> {
  return async (spawn) => {
    const availability = await sandboxAvailability();
    if (!availability.available && isDenoRun(spawn.command, spawn.args)) {
      // A Deno script: Deno's own permissions instead (its temporary files where they always go).
      const planned = await planSandbox(settings, spawn, roots, runtime.env());
      onOutcome?.({ sandboxed: true, profile: settings.profile, by: "deno" });
      const env = { ...planned.env };
      if (spawn.env.TMPDIR === undefined) delete env.TMPDIR;
      else env.TMPDIR = spawn.env.TMPDIR;
      return { ...spawn, args: denoRunArguments(planned.plan, spawn.args), env, wrapper: "Deno permissions" };
    }
    if (!availability.available) {
      if (!settings.prefer) {
        throw new SandboxError(
          `server "${name}": not started, it is to run in a sandbox (sandbox: ${settings.profile}) and none can be had: ` +
            `${availability.reason}; or write sandbox: prefer to run it unsandboxed with a warning`,
          "sandbox-unavailable",
        );
      }
      const warning = `server "${name}" runs WITHOUT a sandbox (sandbox: prefer): ${availability.reason}`;
      onOutcome?.({ sandboxed: false, profile: settings.profile, warning });
      return spawn;
    }
    const planned = await planSandbox(settings, spawn, roots, runtime.env());
    // bwrap by its full path: the server's PATH may not hold it.
    const bwrap = (await findProgram(availability.bwrap, runtime.env().PATH, runtime.cwd())) ?? availability.bwrap;
    onOutcome?.({ sandboxed: true, profile: settings.profile, by: "bubblewrap" });
    return {
      command: bwrap,
      args: bwrapArguments(planned.plan, spawn.command, spawn.args),
      env: planned.env,
      wrapper: "bubblewrap",
      ...(spawn.cwd === undefined ? {} : { cwd: spawn.cwd }),
      ...(planned.exitNote === undefined ? {} : { exitNote: planned.exitNote }),
    };
  };
}
