// A task's status in the CLI's progress display — spec 2025-11-25 basic/utilities/tasks: a line
// per status change off a terminal, one redrawn line on a terminal; the server's text shown
// with its control characters visible.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { interruptProgress, ProgressDisplay } from "../../src/cli/progress.ts";

function display(terminal: boolean): { progress: ProgressDisplay; out: string[] } {
  const out: string[] = [];
  return { progress: new ProgressDisplay((text) => out.push(text), terminal), out };
}

describe("ProgressDisplay for a task", () => {
  test("without a terminal each status change is one line: id, status, message", () => {
    const { progress, out } = display(false);
    progress.task({ taskId: "t-1", status: "working", statusMessage: "Gathering sources..." });
    progress.task({ taskId: "t-1", status: "completed" });
    progress.finish();
    assert.deepEqual(out, ["task t-1: working — Gathering sources...\n", "task t-1: completed\n"]);
  });

  test("on a terminal the status line redraws in place and is ended before other output", () => {
    const { progress, out } = display(true);
    progress.task({ taskId: "t-1", status: "working", statusMessage: "one" });
    progress.task({ taskId: "t-1", status: "input_required", statusMessage: "two" });
    interruptProgress();
    assert.deepEqual(out, ["\rtask t-1: working — one\x1b[K", "\rtask t-1: input_required — two\x1b[K", "\n"]);
    progress.finish();
    assert.equal(out.length, 3, "finish after an interruption adds nothing");
  });

  test("a server's escape sequences and newlines in the id or message are shown, not obeyed", () => {
    const { progress, out } = display(false);
    progress.task({ taskId: "t\x1b[2J", status: "working", statusMessage: "line\nbreak\x07" });
    assert.equal(out.length, 1);
    assert.doesNotMatch(out[0]!, /\x1b|\x07/);
    assert.equal(out[0]!.split("\n").length, 2, "one line");
  });
});
