// Test helper: running a CLI on a pseudo-terminal with util-linux script(1), so that it sees
// a TTY on stdin, and quoting its command line for script's `-c`.

import { execFileSync } from "node:child_process";
import process from "node:process";

/** Whether `script` (util-linux) is here to run a command on a pseudo-terminal. */
export function hasScript(): boolean {
  if (process.platform !== "linux") return false;
  try {
    execFileSync("script", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** One word for `sh -c`, single-quoted. */
export const shellQuote = (word: string): string => `'${word.replaceAll("'", "'\\''")}'`;
