// Test helper, imported for its effect by the support modules of tests that run the host or the
// CLI: this process (and every process it starts with its environment) gets a scratch
// XDG_CACHE_HOME and the era cache off (MCPWIRE_ERA_CACHE=off, src/host/era-cache.ts), so no test
// writes the user's ~/.cache, and an era remembered by one test never changes what another sends.
// A test of the era cache turns it on in the environment it gives (eraCacheEnv).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";

const KEY = "MCPWIRE_TEST_CACHE_HOME";

if (process.env[KEY] === undefined) {
  const home = mkdtempSync(join(tmpdir(), "mcpwire-test-cache-"));
  process.env[KEY] = home;
  process.env.XDG_CACHE_HOME = home;
  process.env.MCPWIRE_ERA_CACHE = "off";
  process.on("exit", () => rmSync(home, { recursive: true, force: true }));
}

/** This process's environment with the era cache on, kept in `cacheHome` (its XDG_CACHE_HOME). */
export function eraCacheEnv(cacheHome: string): Record<string, string | undefined> {
  return { ...process.env, XDG_CACHE_HOME: cacheHome, MCPWIRE_ERA_CACHE: "on" };
}
