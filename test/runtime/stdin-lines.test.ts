// runtime.stdinLines() of a real child, Node or Deno as this test runs: readLine() waits for a
// line, takeReadyLine() hands the lines that arrived with it without waiting (what lets `mcpwire
// serve` take a chunk of requests in one turn), and the end of input ends both.

import "../support/test-env.ts";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { behaviour } from "../support/behaviour.ts";
import { exited, fixturePath, killed } from "../support/fixture-process.ts";

const DENO = fileURLToPath(new URL("../../node_modules/.bin/deno", import.meta.url));
const LOADER = new URL("../support/ts-loader.mjs", import.meta.url).href;
const PROBE = fixturePath("stdin-lines-probe.ts");

behaviour("takeReadyLine() gives the lines of a chunk that readLine() left, without waiting; undefined when none is here", async () => {
  // Bun runs TypeScript itself; Node needs the loader.
  const [cmd, args] = "Deno" in globalThis
    ? [DENO, ["run", "-A", PROBE]]
    : "Bun" in globalThis
    ? [process.execPath, [PROBE]]
    : [process.execPath, ["--import", LOADER, PROBE]];
  const child = spawn(cmd, args, { stdio: ["pipe", "pipe", "ignore"], env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" } });
  try {
    let out = "";
    child.stdout!.setEncoding("utf8");
    child.stdout!.on("data", (chunk: string) => (out += chunk));
    const printed = async (lines: number) => {
      const deadline = Date.now() + 20_000;
      while (out.split("\n").length <= lines && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    };
    // One write: one chunk on the child's side (a pipe write under PIPE_BUF is atomic).
    child.stdin!.write("a\nb\r\nc\npart");
    await printed(1);
    assert.equal(out, "a|b,c\n", "b and c taken in the turn of a; the partial line is not a line yet");
    child.stdin!.write("ial\n");
    await printed(2);
    child.stdin!.end("last without newline");
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([exited(child), new Promise((resolve) => (timer = setTimeout(resolve, 20_000)))]);
    clearTimeout(timer);
    assert.equal(child.exitCode, 0);
    assert.deepEqual(out.trimEnd().split("\n"), ["a|b,c", "partial|", "last without newline|"]);
  } finally {
    await killed(child);
  }
});
