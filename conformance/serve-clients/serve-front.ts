// Test helper for conformance/serve-clients/: the clients people use (the SDK v1 and v2 clients,
// mcp-remote, the Inspector CLI), each pointed first at @modelcontextprotocol/server-everything
// directly and then at `mcpwire serve` in front of it — its stdio front (the client launches
// `mcpwire serve --stdio "node server-everything stdio"` as its server) and its Streamable HTTP
// front (`mcpwire serve --listen 127.0.0.1:<port> --no-auth --stdio …`). The `serve` legs skip,
// saying why, while src/cli/verbs/serve-verb.ts does not exist.

import "../../test/support/test-env.ts"; // the era cache and pins off, here and in the processes started
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { connect } from "node:net";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { runtimeArgs } from "../../test/support/cli-runner.ts";
import { EVERYTHING } from "../../test/support/everything-path.ts";
import { freePort, killed } from "../../test/support/fixture-process.ts";

export { EVERYTHING };

const SERVE_VERB = fileURLToPath(new URL("../../src/cli/verbs/serve-verb.ts", import.meta.url));
const START_LIMIT_MS = 20_000; // the CLI's start on two busy cores (the bundle is built once per src/)

/** Why the `serve` legs cannot run yet, or false once they can: a test's `skip` option. */
export const serveMissing: string | false = existsSync(SERVE_VERB)
  ? false
  : "mcpwire serve is not there yet (src/cli/verbs/serve-verb.ts does not exist); this leg runs once it is merged";

/** server-everything over stdio, as a host would launch it. */
export const everythingStdio = { command: "node", args: [EVERYTHING, "stdio"] };

/** The backend `mcpwire serve` launches in these tests, as its `--stdio` command line. */
const BACKEND = `node ${EVERYTHING} stdio`;

/** `mcpwire serve` with a stdio front in front of server-everything, as a host would launch it. */
export function serveStdio(extra: string[] = []): { command: string; args: string[] } {
  return { command: process.execPath, args: [...runtimeArgs, "serve", ...extra, "--stdio", BACKEND] };
}

export interface Endpoint {
  /** http://127.0.0.1:<port>/mcp */
  url: string;
  stop(): Promise<void>;
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: "127.0.0.1" });
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

/**
 * Starts `command args` (its own port `port`) and resolves once the port accepts connections;
 * rejects, with what it wrote on stderr, if it exits first or takes longer than START_LIMIT_MS.
 */
async function listening(what: string, command: string, args: string[], port: number, env?: Record<string, string>): Promise<Endpoint> {
  const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, ...env } });
  let stderr = "";
  child.stderr!.on("data", (chunk: Uint8Array) => {
    if (stderr.length < 8_192) stderr += new TextDecoder().decode(chunk);
  });
  let exited = false;
  child.once("exit", () => {
    exited = true;
  });
  const deadline = Date.now() + START_LIMIT_MS;
  while (!(await portOpen(port))) {
    if (exited || Date.now() > deadline) {
      await killed(child);
      throw new Error(`${what} ${exited ? "exited before it listened" : `did not listen within ${START_LIMIT_MS / 1000} s`}: ${stderr.trim()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const stop = async () => {
    child.stderr!.destroy();
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.kill("SIGTERM");
      const force = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await gone;
      clearTimeout(force);
    }
  };
  return { url: `http://127.0.0.1:${port}/mcp`, stop };
}

/** server-everything in its streamableHttp mode on a free loopback port. */
export async function startEverythingHttp(): Promise<Endpoint> {
  const port = await freePort();
  return await listening("server-everything", "node", [EVERYTHING, "streamableHttp"], port, { PORT: String(port) });
}

/** `mcpwire serve --listen 127.0.0.1:<port> --no-auth --stdio "node server-everything stdio"` (or `extra` instead of --no-auth). */
export async function startServeHttp(extra: string[] = ["--no-auth"]): Promise<Endpoint> {
  const port = await freePort();
  const args = [...runtimeArgs, "serve", "--listen", `127.0.0.1:${port}`, ...extra, "--stdio", BACKEND];
  return await listening("mcpwire serve", process.execPath, args, port);
}

/** The text of a tool result's first content block, or "" when it has none. */
export function firstText(result: unknown): string {
  const content = (result as { content?: { type?: string; text?: string }[] }).content;
  const first = content?.[0];
  return first?.type === "text" ? first.text ?? "" : "";
}
