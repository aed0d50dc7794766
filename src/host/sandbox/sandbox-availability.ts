// Whether this machine can run a server in a sandbox: Linux with bubblewrap (`bwrap`) that can
// make its namespaces here — found out once per process by running `bwrap --ro-bind / / true`.

import { messageOf } from "../../common/error-text.ts";
import { McpwireError } from "../../common/mcpwire-error.ts";
import { within } from "../../common/timing.ts";
import { runtime, SpawnError } from "../../runtime/mod.ts";
import { findProgram } from "./sandbox-plan.ts";

/**
 * Why a sandboxed server did not start: `sandbox-unavailable` (no sandbox on this machine: not
 * Linux, no bwrap, or bwrap cannot make namespaces here).
 */
export type SandboxErrorCode = "sandbox-unavailable";

/** A server whose config asks for a sandbox that cannot be had; the message says why and what to do. */
export class SandboxError extends McpwireError<SandboxErrorCode> {
  override readonly name = "SandboxError";
}

/** The sandbox found, or why there is none (a sentence, with what to do). */
export type SandboxAvailability = { available: true; bwrap: string } | { available: false; reason: string };

/** How long the probe may take: bwrap starting `true` takes milliseconds. */
const PROBE_LIMIT_MS = 10_000;
/** At most this much of the probe's stderr goes into the reason. */
const PROBE_STDERR_CHARS = 300;

let probed: Promise<SandboxAvailability> | undefined;

/**
 * Whether servers can be sandboxed here, found out once per process. `MCPWIRE_BWRAP` (in
 * mcpwire's own environment) names the bwrap program to use instead of the one on PATH.
 */
export function sandboxAvailability(): Promise<SandboxAvailability> {
  probed ??= probe();
  return probed;
}

async function probe(): Promise<SandboxAvailability> {
  if (runtime.os !== "linux") {
    return {
      available: false,
      reason: `the sandbox runs servers under bubblewrap, which is Linux only; this is ${runtime.os}`,
    };
  }
  const named = runtime.env().MCPWIRE_BWRAP || "bwrap";
  const bwrap = (await findProgram(named, runtime.env().PATH, runtime.cwd())) ?? named;
  let stderr = "";
  const decoder = new TextDecoder();
  try {
    const child = await runtime.spawn({
      command: bwrap,
      args: ["--ro-bind", "/", "/", "true"],
      env: { PATH: runtime.env().PATH ?? "/usr/bin:/bin" },
      onStdout: () => {},
      onStderr: (chunk) => {
        if (stderr.length < PROBE_STDERR_CHARS) stderr += decoder.decode(chunk, { stream: true });
      },
    });
    child.closeStdin();
    let status: { code: number | null; signal: string | null } | undefined;
    await within(child.exited.then((exit) => (status = exit)), PROBE_LIMIT_MS);
    if (status === undefined) child.signalGroup("SIGKILL");
    await child.dispose();
    if (status?.code === 0) return { available: true, bwrap };
    const said = stderr.trim().slice(0, PROBE_STDERR_CHARS).replace(/\s+/g, " ");
    return {
      available: false,
      reason:
        `bubblewrap cannot make a sandbox here ("${bwrap} --ro-bind / / true" ${
          status === undefined ? `did not finish within ${PROBE_LIMIT_MS / 1000} s` : `failed${said === "" ? "" : `: ${said}`}`
        }); unprivileged user namespaces may be turned off ` +
        `(sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 kernel.apparmor_restrict_unprivileged_userns=0, or an AppArmor profile for bwrap)`,
    };
  } catch (error) {
    if (error instanceof SpawnError && error.code === "ENOENT") {
      return {
        available: false,
        reason: `bubblewrap ("${bwrap}") is not installed; install it (Debian/Ubuntu: apt install bubblewrap; Fedora: dnf install bubblewrap)`,
      };
    }
    return { available: false, reason: `bubblewrap ("${bwrap}") could not be run: ${messageOf(error)}` };
  }
}
