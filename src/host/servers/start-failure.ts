// Whether a server's failed start can fix itself (issue 37): a command that is not there, not
// executable, a package npm does not have, a server that exits the same way before it says a
// word — retrying those only makes the user wait. A timeout, or a crash after it worked, may
// pass: those keep the supervised retries (server-connection.ts).

import { ConnectionClosedError } from "../../jsonrpc/errors.ts";
import { TransportError } from "../../transport/transport.ts";
import { SandboxError } from "../sandbox/sandbox-availability.ts";

/** How a failed start is judged: `final` says why no retry can succeed; `exit` is how its process ended, to compare with the next. */
export interface StartFailure {
  /** Why a retry cannot succeed (a few words for the server's status), or undefined when one may. */
  final?: string;
  /**
   * The process ended by itself during the connect: its exit code or signal and the end of its
   * stderr as one string (numbers as `#`), to compare with the next failure's.
   */
  exit?: string;
}

/** Causes followed at most, from the error a connect threw to the one that says what happened. */
const MAX_CAUSES = 8;

/** Spawn errors no retry can change: the program is missing, not executable, or its working directory is. */
const SPAWN_FINAL: Readonly<Record<string, string>> = {
  ENOENT: "its command was not found",
  EACCES: "its command is not executable",
  ENOCWD: "its working directory does not exist",
};

/**
 * Lines of stderr that say the start can never succeed as configured: the shell's "command not
 * found" (POSIX Shell Command Language, "Command Search and Execution": exit 127, 126 when not
 * executable), bubblewrap refusing before the server ran, npm's answers about the package.
 */
const STDERR_FINAL: readonly [RegExp, string][] = [
  [/^bwrap: execvp .*: No such file or directory/, "its command was not found in its sandbox"],
  [/^bwrap: execvp .*: Permission denied/, "its command is not executable in its sandbox"],
  [/^bwrap: /, "bubblewrap could not set up its sandbox"],
  [/^npm (?:error|ERR!) (?:code E404|404 )/, "npm has no such package (404)"],
  [/^npm (?:error|ERR!) code ETARGET/, "npm has no version of the package that matches"],
  [/^npm (?:error|ERR!) code ENOTCACHED/, "npx runs offline and the package is not where it can run it from"],
  [/^npm (?:error|ERR!) code EROFS/, "npx cannot write its cache"],
];

/**
 * What `error`, thrown by a connect (spawn and handshake: the server never worked), says about
 * the next try.
 */
export function startFailure(error: unknown): StartFailure {
  let cause: unknown = error;
  for (let depth = 0; depth < MAX_CAUSES && cause instanceof Error; depth++, cause = cause.cause) {
    if (cause instanceof SandboxError) return { final: "no sandbox can be had here" };
    if (cause instanceof TransportError && SPAWN_FINAL[cause.code] !== undefined) return { final: SPAWN_FINAL[cause.code] };
    if (cause instanceof ConnectionClosedError) {
      const { exitCode, signal, stderrTail = [] } = cause.details;
      const ended = typeof exitCode === "number" || (typeof signal === "string" && signal !== "");
      if (!ended) return {};
      const lines = stderrTail.filter((line) => line.trim() !== "");
      // Numbers (pids, ports, times, a log file's name) may differ between two runs that failed the same way.
      const exit = [`exit ${exitCode ?? signal}`, ...lines].join("\n").replace(/\d+/g, "#");
      if (exitCode === 127 && lines.some((line) => /not found|no such file/i.test(line))) return { final: "a command it runs was not found", exit };
      if (exitCode === 126) return { final: "a command it runs is not executable", exit };
      for (const line of lines) {
        for (const [pattern, why] of STDERR_FINAL) if (pattern.test(line)) return { final: why, exit };
      }
      return { exit };
    }
  }
  return {};
}
