// The CLI's progress display: a redrawn bar on a terminal, plain lines otherwise, and a bar
// line that is ended before anything else writes to stderr.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { interruptProgress, ProgressDisplay } from "../../src/cli/progress.ts";

function display(terminal: boolean): { progress: ProgressDisplay; out: string[] } {
  const out: string[] = [];
  return { progress: new ProgressDisplay((text) => out.push(text), terminal), out };
}

describe("ProgressDisplay", () => {
  test("without a terminal each update is one plain line with percent, counts and message", () => {
    const { progress, out } = display(false);
    progress.update({ progress: 1, total: 3, message: "step one" });
    progress.update({ progress: 7 });
    progress.finish();
    assert.deepEqual(out, ["progress 33% (1/3) step one\n", "progress 7\n"]);
  });

  test("on a terminal the bar redraws in place and finish ends its line", () => {
    const { progress, out } = display(true);
    progress.update({ progress: 1, total: 2 });
    progress.update({ progress: 2, total: 2, message: "done" });
    progress.finish();
    assert.equal(out.length, 3);
    assert.match(out[0]!, /^\r\[#{12}\.{12}\] 50% \(1\/2\)\x1b\[K$/);
    assert.match(out[1]!, /^\r\[#{24}\] 100% \(2\/2\) done\x1b\[K$/);
    assert.equal(out[2], "\n");
  });

  test("interruptProgress ends an open bar's line once, so a log line or prompt starts on its own", () => {
    const { progress, out } = display(true);
    progress.update({ progress: 1, total: 4 });
    interruptProgress();
    interruptProgress();
    assert.equal(out.filter((text) => text === "\n").length, 1);
    progress.finish(); // nothing more to end
    assert.equal(out.filter((text) => text === "\n").length, 1);
  });
});
