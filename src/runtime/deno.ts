// The Deno side of the runtime interface (see types.ts). The few Deno APIs used are typed
// here by hand so that `tsc` (which knows no Deno) and `deno check` both accept the file.

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

interface DenoChild {
  pid: number;
  stdin: WritableStream<Uint8Array>;
  stdout: ReadableStream<Uint8Array>;
  stderr: ReadableStream<Uint8Array>;
  status: Promise<{ code: number; signal: string | null }>;
  unref(): void;
}

interface DenoApi {
  Command: new (command: string, options: {
    args: string[];
    env: Record<string, string>;
    clearEnv: boolean;
    cwd?: string;
    stdin: "piped";
    stdout: "piped";
    stderr: "piped";
    detached: boolean;
  }) => { spawn(): DenoChild };
  kill(pid: number, signal: string): void;
  env: { toObject(): Record<string, string> };
  args: string[];
  stdout: { write(bytes: Uint8Array): Promise<number>; isTerminal(): boolean };
  stderr: { write(bytes: Uint8Array): Promise<number>; isTerminal(): boolean };
  statSync(path: string): { isDirectory: boolean };
  exit(code: number): never;
  addSignalListener(signal: string, fn: () => void): void;
  errors: { NotFound: new () => Error; PermissionDenied: new () => Error };
}

const Deno = (globalThis as unknown as { Deno: DenoApi }).Deno;
const groups = new ChildGroups();
const encoder = new TextEncoder();
let exitHookInstalled = false;

function isDirectory(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

async function pump(stream: ReadableStream<Uint8Array>, onChunk: (chunk: Uint8Array) => void): Promise<void> {
  try {
    for await (const chunk of stream) onChunk(chunk);
  } catch {
    // the pipe broke; the exit status tells the rest
  }
}

function spawn(request: SpawnRequest): Promise<ChildProcess> {
  if (request.cwd !== undefined && !isDirectory(request.cwd)) {
    return Promise.reject(new SpawnError(`working directory "${request.cwd}" does not exist`, "ENOCWD"));
  }
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    globalThis.addEventListener("unload", () => groups.killAll());
  }
  let child: DenoChild;
  try {
    child = new Deno.Command(request.command, {
      args: request.args,
      env: request.env,
      clearEnv: true, // the env given is the whole environment
      cwd: request.cwd,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      detached: true, // the child leads its own process group
    }).spawn();
  } catch (error) {
    const code = error instanceof Deno.errors.NotFound
      ? "ENOENT"
      : error instanceof Deno.errors.PermissionDenied
      ? "EACCES"
      : "EUNKNOWN";
    return Promise.reject(new SpawnError(`spawn ${request.command}: ${(error as Error).message}`, code));
  }
  // A detached child is unref'd by Deno; our pumps and status keep the event loop honest.
  const outputDone = Promise.all([pump(child.stdout, request.onStdout), pump(child.stderr, request.onStderr)]);
  const exited: Promise<ExitStatus> = child.status.then(async (status) => {
    let grace: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([outputDone, new Promise((resolve) => (grace = setTimeout(resolve, OUTPUT_GRACE_MS)))]);
    clearTimeout(grace);
    return { code: status.signal === null ? status.code : null, signal: status.signal };
  });
  const writer = child.stdin.getWriter();
  writer.closed.catch(() => {}); // a broken pipe is reported by write()
  let stdinOpen = true;
  const pid = child.pid;
  const handle: ChildProcess = {
    pid,
    async write(data: string) {
      if (!stdinOpen) throw new Error("stdin is closed");
      await writer.write(encoder.encode(data));
    },
    closeStdin() {
      if (!stdinOpen) return;
      stdinOpen = false;
      writer.close().catch(() => {});
    },
    exited,
    signalGroup(signal) {
      try {
        Deno.kill(-pid, signal);
      } catch {
        // the group is gone
      }
    },
    groupAlive() {
      try {
        Deno.kill(-pid, "SIGCONT"); // harmless probe: Deno has no signal 0
        return true;
      } catch {
        return false;
      }
    },
  };
  groups.add(handle);
  exited.then(() => groups.delete(handle));
  return Promise.resolve(handle);
}

export const denoRuntime: Runtime = {
  name: "deno",
  spawn,
  env() {
    return Deno.env.toObject();
  },
  args() {
    return [...Deno.args];
  },
  async write(stream: StreamName, text: string) {
    const target = stream === "stdout" ? Deno.stdout : Deno.stderr;
    const bytes = encoder.encode(text);
    let offset = 0;
    while (offset < bytes.length) offset += await target.write(bytes.subarray(offset));
  },
  isTerminal(stream: StreamName) {
    return (stream === "stdout" ? Deno.stdout : Deno.stderr).isTerminal();
  },
  exit(code: number): never {
    return Deno.exit(code);
  },
  onExit(fn) {
    globalThis.addEventListener("unload", fn);
  },
  onInterrupt(fn) {
    Deno.addSignalListener("SIGINT", () => fn("SIGINT"));
    Deno.addSignalListener("SIGTERM", () => fn("SIGTERM"));
  },
};
