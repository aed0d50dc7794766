// Tests for the one shared timer behind request timeouts — src/jsonrpc/deadline-timer.ts;
// spec 2025-11-25 basic/lifecycle ("Timeouts").

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { describe, test } from "node:test";
import { DeadlineTimer, type HasDeadline } from "../../src/jsonrpc/deadline-timer.ts";

const GUARD = { timeout: 20_000 };
const isDeno = "Deno" in globalThis;

interface Entry extends HasDeadline {
  name: string;
}

/**
 * An owner of entries, as the pending-request table is: it adds, moves and removes entries
 * and tells the timer. Records, for each expired entry, its name and how late (ms) it fired.
 */
function recorder() {
  const fired: Array<{ name: string; late: number }> = [];
  const entries = new Set<Entry>();
  let wake: (() => void) | undefined;
  const deadlines = new DeadlineTimer<Entry>(() => entries, (entry) => {
    fired.push({ name: entry.name, late: Date.now() - entry.deadline });
    remove(entry);
    wake?.();
  });
  const remove = (entry: Entry) => {
    entries.delete(entry);
    if (entries.size === 0) deadlines.idle();
  };
  const timer = {
    watch(entry: Entry) {
      entries.add(entry);
      deadlines.watch(entry);
    },
    remove,
    stop: () => deadlines.stop(),
    get size() {
      return entries.size;
    },
    get armed() {
      return deadlines.armed;
    },
  };
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

  test("a removed entry never expires; the others still do", GUARD, async () => {
    const { timer, fired, until, entry } = recorder();
    const first = entry("first", 10);
    timer.watch(first);
    timer.watch(entry("second", 60));
    timer.remove(first);
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

  test("an infinite deadline arms no timer; stop() clears the timer", GUARD, async () => {
    const { timer, fired, entry } = recorder();
    timer.watch({ name: "never", deadline: Infinity });
    assert.equal(timer.armed, false);
    timer.watch(entry("stopped", 10));
    assert.equal(timer.armed, true);
    timer.stop();
    await delay(40);
    assert.deepEqual(fired, []);
  });

  test("with no entry left, the armed timer does not keep the process alive; a new entry makes it hold the process again", GUARD, async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcpwire-deadline-"));
    const module = new URL("../../src/jsonrpc/deadline-timer.ts", import.meta.url).href;
    const script = join(dir, "probe.mts"); // .mts: an ES module wherever it lies
    writeFileSync(
      script,
      [
        `import { DeadlineTimer } from ${JSON.stringify(module)};`,
        `const entries = new Set<{ deadline: number }>();`,
        `const timer = new DeadlineTimer(() => entries, (entry) => { entries.delete(entry); console.log("expired"); });`,
        `const answered = { deadline: Date.now() + Number(process.argv[2]) };`,
        `entries.add(answered);`,
        `timer.watch(answered);`,
        `entries.delete(answered);`,
        `timer.idle(); // the timer stays armed but must not hold the process`,
        `if (process.argv[3] === "again") setTimeout(() => {`,
        `  const next = { deadline: Date.now() + 600 }; // later than the armed timer: nothing re-armed`,
        `  entries.add(next);`,
        `  timer.watch(next); // so the armed timer must hold the process again, and re-arm when it fires`,
        `}, 50);`,
      ].join("\n"),
    );
    const run = (...args: string[]) =>
      new Promise<string>((resolve, reject) => {
        const runtimeArgs = isDeno ? ["run", "-A", script] : ["--import", "tsx", script];
        execFile(
          process.execPath,
          [...runtimeArgs, ...args],
          { timeout: 15_000 },
          (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)),
        );
      });
    try {
      // Held by a 60 s timer, the probe would be killed by the 15 s limit (and reject).
      assert.equal(await run("60000", "idle"), "");
      assert.equal(await run("400", "again"), "expired\n");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
