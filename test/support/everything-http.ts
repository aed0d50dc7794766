// Test helper: server-everything in `streamableHttp` mode as a child process on a loopback
// port (a fixed port, so a test can kill it and start it again in the same place).

import { type ChildProcess, spawn } from "node:child_process";
import process from "node:process";
import type { TextContent } from "../../src/mod.ts";
import { EVERYTHING } from "./everything.ts";
import { freePort, killed as stop } from "./fixture-process.ts";

export { freePort, stop };

const START_LIMIT_MS = 15_000;

/** server-everything in streamableHttp mode on `port`; resolves once it says it listens. */
export function startEverything(port: number): Promise<ChildProcess> {
  const child = spawn("node", [EVERYTHING, "streamableHttp"], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`server-everything did not start within ${START_LIMIT_MS} ms: ${output.join(" | ")}`));
    }, START_LIMIT_MS);
    const onData = (chunk: Buffer) => {
      output.push(String(chunk).trim());
      if (/listening on port/i.test(String(chunk))) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout!.on("data", () => {}); // its per-request log; read so it never blocks
    child.stderr!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything exited with code ${code} before listening: ${output.join(" | ")}`));
    });
  });
}

export function textOf(content: { type: string }[]): string {
  return content.filter((block): block is TextContent => block.type === "text").map((block) => block.text).join("\n");
}
