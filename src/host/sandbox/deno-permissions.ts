// A sandbox plan as Deno's own permission flags, for a server that is a Deno script (`deno run
// … script`) where bubblewrap cannot be had (macOS, Windows, no user namespaces): the
// script's permission flags replaced by the plan's reads, writes, network and environment.
// Weaker than bubblewrap: Deno checks what the script asks of its runtime, not what a program
// it runs does, so no --allow-run, --allow-ffi or --allow-sys is given.

import type { SandboxPlan } from "./sandbox.ts";

/** Flags of `deno run` that take their value as the next word (the script is the first word that is neither). */
const VALUE_FLAGS = new Set(["-c", "--config", "--import-map", "--lock", "--cert", "--location", "--seed", "--env-file", "--ext"]);

/** Permission flags of the command line, removed: the plan's take their place. */
const PERMISSION_FLAG = /^(?:-A|--allow-all|--allow-[a-z-]+(?:=.*)?|-[RWNESP](?:=.*)?|--permission-set(?:=.*)?)$/;

/** Whether the command line runs a Deno script: `deno run …` (the program named deno, or deno.exe). */
export function isDenoRun(command: string, args: readonly string[]): boolean {
  const program = command.slice(Math.max(command.lastIndexOf("/"), command.lastIndexOf("\\")) + 1).toLowerCase();
  return (program === "deno" || program === "deno.exe") && args[0] === "run";
}

/**
 * `deno run`'s arguments under `plan`: the script's own permission flags dropped, `--no-prompt`
 * and the plan's `--allow-read`, `--allow-write`, `--allow-net` and `--allow-env` put after
 * `run`. A path with a comma cannot be written in Deno's lists and is left out (less is allowed).
 */
export function denoRunArguments(plan: SandboxPlan, args: readonly string[]): string[] {
  const list = (paths: readonly string[]) => [...new Set(paths)].filter((path) => !path.includes(",")).join(",");
  const writes = list(plan.write);
  const reads = list([...plan.read, ...plan.write]);
  const flags = [
    "--no-prompt",
    ...(reads === "" ? [] : [`--allow-read=${reads}`]),
    ...(writes === "" ? [] : [`--allow-write=${writes}`]),
    ...(plan.network ? ["--allow-net"] : []),
    // The environment was already cut down to what the server is given.
    "--allow-env",
  ];
  const out = ["run", ...flags];
  let index = 1;
  for (; index < args.length; index++) {
    const arg = args[index]!; // index < length
    if (!arg.startsWith("-")) break; // the script
    if (PERMISSION_FLAG.test(arg)) continue;
    out.push(arg);
    if (VALUE_FLAGS.has(arg) && index + 1 < args.length) out.push(args[++index]!);
  }
  return [...out, ...args.slice(index)];
}
