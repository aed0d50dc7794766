// Tests for the one shared timer behind request timeouts — src/jsonrpc/deadline-timer.ts;
// spec 2025-11-25 basic/lifecycle ("Timeouts").

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { DeadlineTimer, type HasDeadline } from "../../src/jsonrpc/deadline-timer.ts";

const GUARD = { timeout: 20_000 };
const isDeno = "Deno" in globalThis;

interface Entry extends HasDeadline {
  name: string;
}

/** A timer that records, for each expired entry, its name and how late (ms, ≥ 0) it fired. */
function recorder() {
  const fired: Array<{ name: string; late: number }> = [];
  let wake: (() => void) | undefined;
  const timer = new DeadlineTimer<Entry>((entry) => {
    fired.push({ name: entry.name, late: Date.now() - entry.deadline });
    wake?.();
  });
  const until = (count: number) =>
    new Promise<void>((resolve) => {
      const check = () => (fired.length >= count ? resolve() : (wake = check));
      check();
    });
  const entry = (name: string, inMs: number): Entry => ({ name, deadline: Date.now() + inMs });
  return { timer, fired, until, entry };
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("DeadlineTimer", () => {
  test("entries expire in deadline order, none before its deadline, whatever the order they were watched in", GUARD, async () => {
    const { timer, fired, until, entry } = recorder();
    for (const [name, ms] of [["c", 90], ["a", 10], ["d", 120], ["b", 40]] as const) timer.watch(entry(name, ms));
    await until(4);
    assert.deepEqual(fired.map((f) => f.name), ["a", "b", "c", "d"]);
    for (const f of fired) assert.ok(f.late >= 0, `${f.name} fired ${-f.late} ms early`);
    assert.equal(timer.size, 0);
  });

  test("an unwatched entry never expires; the others still do", GUARD, async () => {
    const { timer, fired, until, entry } = recorder();
    const first = entry("first", 10);
    timer.watch(first);
    timer.watch(entry("second", 60));
    timer.unwatch(first);
    await until(1);
    await delay(30);
    assert.deepEqual(fired.map((f) => f.name), ["second"]);
  });

  test("a deadline moved later expires at the new time; one moved earlier at its earlier time", GUARD, async () => {
    const { timer, fired, until, entry } = recorder();
    const later = entry("later", 20);
    const earlier = entry("earlier", 10_000);
    timer.watch(later);
    timer.watch(earlier);
    later.deadline = Date.now() + 150;
    timer.watch(later);
    earlier.deadline = Date.now() + 50;
    timer.watch(earlier);
    await until(2);
    assert.deepEqual(fired.map((f) => f.name), ["earlier", "later"]);
    for (const f of fired) assert.ok(f.late >= 0, `${f.name} fired ${-f.late} ms early`);
  });

  test("an infinite deadline is never watched; stop() forgets everything", GUARD, async () => {
    const { timer, fired, entry } = recorder();
    timer.watch({ name: "never", deadline: Infinity });
    assert.equal(timer.size, 0);
    timer.watch(entry("stopped", 10));
    timer.stop();
    await delay(40);
    assert.deepEqual(fired, []);
  });

  test("with nothing left to watch, the armed timer does not keep the process alive; while something is watched it does", GUARD, async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcpwire-deadline-"));
    const module = new URL("../../src/jsonrpc/deadline-timer.ts", import.meta.url).href;
    const script = join(dir, "probe.mts"); // .mts: an ES module wherever it lies
    writeFileSync(script, [
      `import { DeadlineTimer } from ${JSON.stringify(module)};`,
      `const timer = new DeadlineTimer<{ deadline: number }>(() => console.log("expired"));`,
      `const idle = { deadline: Date.now() + 60_000 };`,
      `timer.watch(idle);`,
      `timer.unwatch(idle); // answered: the 60 s timer stays armed but must not hold the process`,
      `timer.watch({ deadline: Date.now() + 300 }); // this one must keep it alive until it expires`,
    ].join("\n"));
    try {
      const args = isDeno ? ["run", "-A", script] : ["--import", "tsx", script];
      const stdout = await new Promise<string>((resolve, reject) => {
        execFile(process.execPath, args, { timeout: 15_000 }, (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)));
      });
      assert.equal(stdout, "expired\n");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
