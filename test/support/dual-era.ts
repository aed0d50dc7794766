// Test helper: the check's dual-era stdio fixture (test/fixtures/check/dual-era-server.mjs) as a
// CheckTarget, breaking the rules named (`--break NAME`), speaking the eras asked (`--era`).

import type { CheckTarget } from "../../src/check/target.ts";
import { fixturePath } from "./fixture-process.ts";

/** The fixture over stdio, breaking `breaks`; `era` "modern" or "legacy" makes it speak that era only. */
export function dualEra(breaks: string[] = [], era: "both" | "modern" | "legacy" = "both"): CheckTarget {
  const args = [fixturePath("check/dual-era-server.mjs"), "--era", era];
  for (const name of breaks) args.push("--break", name);
  return { kind: "stdio", stdio: { command: "node", args } };
}
