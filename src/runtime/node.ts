// The Node.js side of the runtime interface (see types.ts).

import { spawn as spawnChild } from "node:child_process";
import { statSync } from "node:fs";
import process from "node:process";
import {
  type ChildProcess,
  ChildGroups,
  type ExitStatus,
  OUTPUT_GRACE_MS,
  type Runtime,
  SpawnError,
  type SpawnRequest,
  type StreamName,
} from "./types.ts";

const groups = new ChildGroups();
let exitHookInstalled = false;

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function spawn(request: SpawnRequest): Promise<ChildProcess> {
  if (request.cwd !== undefined && !isDirectory(request.cwd)) {
    return Promise.reject(new SpawnError(`working directory "${request.cwd}" does not exist`, "ENOCWD"));
  }
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on("exit", () => groups.killAll());
  }
  return new Promise((resolve, reject) => {
    const child = spawnChild(request.command, request.args, {
      env: request.env,
      cwd: request.cwd,
      stdio: ["pipe", "pipe", "pipe"],
      detached: true, // setsid(): the child leads its own process group
      windowsHide: true,
    });
    // An EPIPE on a dead child's stdin must never become an uncaught exception.
    child.stdin.on("error", () => {});
    child.stdout.on("data", request.onStdout);
    child.stderr.on("data", request.onStderr);

    const exited = new Promise<ExitStatus>((resolveExit) => {
      let status: ExitStatus | undefined;
      let grace: ReturnType<typeof setTimeout> | undefined;
      const finish = () => {
        clearTimeout(grace);
        resolveExit(status ?? { code: child.exitCode, signal: child.signalCode });
      };
      child.once("exit", (code, signal) => {
        status = { code, signal };
        // A grandchild may hold our pipes open; do not wait for it forever.
        grace = setTimeout(finish, OUTPUT_GRACE_MS);
      });
      child.once("close", finish);
    });

    child.once("error", (error: NodeJS.ErrnoException) => {
      reject(new SpawnError(error.message, error.code ?? "EUNKNOWN"));
    });
    child.once("spawn", () => {
      const pid = child.pid!;
      const handle: ChildProcess = {
        pid,
        write(data: string): Promise<void> {
          return new Promise((resolveWrite, rejectWrite) => {
            if (child.stdin.destroyed || !child.stdin.writable) {
              rejectWrite(new Error("stdin is closed"));
              return;
            }
            // The callback fires once the data is flushed (after 'drain' if the pipe was full).
            child.stdin.write(data, (error) => (error ? rejectWrite(error) : resolveWrite()));
          });
        },
        closeStdin() {
          child.stdin.end();
        },
        exited,
        signalGroup(signal) {
          try {
            process.kill(-pid, signal);
          } catch {
            // the group is gone
          }
        },
        groupAlive() {
          try {
            process.kill(-pid, 0);
            return true;
          } catch {
            return false;
          }
        },
      };
      groups.add(handle);
      exited.then(() => groups.delete(handle));
      resolve(handle);
    });
  });
}

export const nodeRuntime: Runtime = {
  name: "node",
  spawn,
  env() {
    const copy: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) if (value !== undefined) copy[key] = value;
    return copy;
  },
  args() {
    return process.argv.slice(2);
  },
  write(stream: StreamName, text: string) {
    const target = stream === "stdout" ? process.stdout : process.stderr;
    return new Promise((resolve) => target.write(text, () => resolve()));
  },
  isTerminal(stream: StreamName) {
    return (stream === "stdout" ? process.stdout : process.stderr).isTTY === true;
  },
  exit(code: number): never {
    process.exit(code);
  },
  onExit(fn) {
    process.on("exit", fn);
  },
  onInterrupt(fn) {
    process.on("SIGINT", () => fn("SIGINT"));
    process.on("SIGTERM", () => fn("SIGTERM"));
  },
};
