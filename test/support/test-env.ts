// Test helper, imported for its effect by the support modules of tests that run the host or the
// CLI: the era cache (src/host/store/file-era-cache.ts) is off in this process and in every process it
// starts with its environment (MCPWIRE_ERA_CACHE=off), so no test writes the user's
// ~/.cache/mcpwire/eras.json and an era remembered by one test never changes what another sends.
// The tool-list cache (host/store/tool-list-cache.ts, ~/.cache/mcpwire/tools.json) is off the same way.
// A test of the era cache turns it on, in a scratch directory, in the environment it gives
// (eraCacheEnv).

import { homedir } from "node:os";
import { join } from "node:path";
import process from "node:process";

process.env.MCPWIRE_ERA_CACHE = "off";
// The same for tool pins (src/host/store/pin-lock-file.ts): each manager keeps its own in memory, so no
// test writes ~/.local/state/mcpwire/mcpwire.lock.json and no test's pins hold back another's tools.
// A test of pinning names its lock file in the environment it gives (MCPWIRE_LOCK_FILE).
process.env.MCPWIRE_LOCK_FILE = "off";
// The tool-list cache (src/host/store/tool-list-cache.ts) likewise: off unless a test gives toolCacheEnv.
process.env.MCPWIRE_TOOL_CACHE = "off";

/**
 * This process's environment with the era cache on, kept under `cacheHome` (its XDG_CACHE_HOME).
 * Deno keeps its own cache under XDG_CACHE_HOME too: DENO_DIR names the one in use, so a CLI
 * run by Deno does not start from an empty cache.
 */
export function eraCacheEnv(cacheHome: string): Record<string, string | undefined> {
  const deno = "Deno" in globalThis ? { DENO_DIR: process.env.DENO_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "deno") } : {};
  return { ...process.env, ...deno, XDG_CACHE_HOME: cacheHome, MCPWIRE_ERA_CACHE: "on" };
}

/** This process's environment with the tool-list cache on (and the era cache off), kept under `cacheHome` (its XDG_CACHE_HOME). */
export function toolCacheEnv(cacheHome: string): Record<string, string | undefined> {
  return { ...eraCacheEnv(cacheHome), MCPWIRE_ERA_CACHE: "off", MCPWIRE_TOOL_CACHE: "on" };
}
