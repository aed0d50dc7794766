// Result files: a tool result over the cap is written whole to a file (mode 0600, directory 0700)
// and the model gets its head, its tail and the path; binary content is saved as files named by
// path and MIME type; old files are pruned; a directory that cannot be written falls back to the
// cut string with a warning. Every directory is a temporary one (never the real HOME or XDG).

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ToolRegistry } from "../../src/registry/tool-registry.ts";
import { defaultResultsDirectory, ResultFileError, ResultFiles } from "../../src/registry/result-files.ts";
import { hangGuard } from "../support/hang-guard.ts";

const POSIX = process.platform !== "win32";

function resultOf(text: string): { result?: string; error?: string } {
  return JSON.parse(text) as { result?: string; error?: string };
}

/** The path a result names: `… in the file <path>; …` or `saved to <path>]`. */
function pathIn(text: string): string {
  const match = /(?:in the file|saved to) (\S+?)(?:;|\])/.exec(text);
  assert.ok(match, `no path in: ${text.slice(0, 300)}`);
  return match[1]!;
}

function mode(path: string): number {
  return statSync(path).mode & 0o777;
}

let root: string;
before(() => {
  root = mkdtempSync(join(tmpdir(), "mcpwire-result-files-"));
});
after(() => rmSync(root, { recursive: true, force: true }));

let counter = 0;
function freshDir(): string {
  return join(root, `case-${++counter}`, "results");
}

describe("defaultResultsDirectory", () => {
  test("$XDG_CACHE_HOME/mcpwire/results, else ~/.cache/mcpwire/results; a relative XDG_CACHE_HOME is ignored", () => {
    assert.equal(defaultResultsDirectory({ XDG_CACHE_HOME: "/x/cache/", HOME: "/home/a" }, "linux"), "/x/cache/mcpwire/results");
    assert.equal(defaultResultsDirectory({ HOME: "/home/a" }, "linux"), "/home/a/.cache/mcpwire/results");
    assert.equal(defaultResultsDirectory({ XDG_CACHE_HOME: "cache", HOME: "/home/a" }, "darwin"), "/home/a/.cache/mcpwire/results");
    assert.equal(defaultResultsDirectory({ LOCALAPPDATA: "C:\\Users\\a\\AppData\\Local" }, "windows"), "C:\\Users\\a\\AppData\\Local/mcpwire/results");
    assert.equal(defaultResultsDirectory({}, "linux"), undefined);
  });
});

describe("ResultFiles", () => {
  test("a saved text is whole, in a file of mode 0600, in a directory made with mode 0700", { skip: !POSIX }, async () => {
    const directory = freshDir();
    const files = new ResultFiles({ directory });
    const saved = await files.saveText("héllo\n".repeat(1000), "srv-tool");
    assert.equal(readFileSync(saved.path, "utf8"), "héllo\n".repeat(1000));
    assert.equal(saved.bytes, 7000);
    assert.equal(mode(saved.path), 0o600);
    assert.equal(mode(directory), 0o700);
    assert.match(saved.path, /\/\d{8}-\d{6}-srv-tool-[0-9a-f]{8}\.txt$/);
  });

  test("an existing directory open to others is tightened to 0700", { skip: !POSIX }, async () => {
    const directory = freshDir();
    mkdirSync(directory, { recursive: true });
    chmodSync(directory, 0o755);
    await new ResultFiles({ directory }).saveText("x", "t");
    assert.equal(mode(directory), 0o700);
  });

  test("a label with path characters stays inside the directory", async () => {
    const directory = freshDir();
    const saved = await new ResultFiles({ directory }).saveText("x", "../../etc/passwd");
    assert.equal(readdirSync(directory).length, 1);
    assert.ok(saved.path.startsWith(directory + "/") && !saved.path.slice(directory.length + 1).includes("/"));
  });

  test("pruning by count keeps the newest maxFiles of ours and never touches other files", async () => {
    const directory = freshDir();
    mkdirSync(directory, { recursive: true });
    writeFileSync(join(directory, "notes.txt"), "the user's own file");
    const files = new ResultFiles({ directory, maxFiles: 3 });
    const paths: string[] = [];
    for (let i = 0; i < 5; i++) {
      const saved = await files.saveText(`result ${i}`, "t");
      // Distinct modification times without waiting: each older file is set back in time.
      utimesSync(saved.path, new Date(Date.now() - (10 - i) * 60_000), new Date(Date.now() - (10 - i) * 60_000));
      paths.push(saved.path);
    }
    await files.prune();
    const left = readdirSync(directory).sort();
    assert.equal(left.length, 4, left.join(", "));
    assert.ok(left.includes("notes.txt"));
    for (const path of paths.slice(2)) assert.ok(existsSync(path), `kept ${path}`);
    for (const path of paths.slice(0, 2)) assert.ok(!existsSync(path), `pruned ${path}`);
  });

  test("pruning by age deletes our files older than maxAgeMs", async () => {
    const directory = freshDir();
    const files = new ResultFiles({ directory, maxAgeMs: 24 * 60 * 60 * 1000 });
    const old = await files.saveText("old", "t");
    const month = new Date(Date.now() - 30 * 24 * 60 * 60 * 1000);
    utimesSync(old.path, month, month);
    const young = await files.saveText("young", "t"); // the save prunes
    assert.ok(!existsSync(old.path));
    assert.ok(existsSync(young.path));
  });

  test("base64 that is not base64 is refused with code invalid-data", async () => {
    const error = await new ResultFiles({ directory: freshDir() }).saveBase64("!!not base64!!", "image/png", "t").then(
      () => assert.fail("saved"),
      (reason: unknown) => reason,
    );
    assert.ok(error instanceof ResultFileError && error.code === "invalid-data");
    assert.match(error.message, /the image\/png data is not valid base64/);
  });

  for (
    const [what, options, message] of [
      ["maxFiles 0", { maxFiles: 0 }, /maxFiles must be a whole number of at least 1/],
      ["maxFiles 2.5", { maxFiles: 2.5 }, /maxFiles must be a whole number/],
      ["maxAgeMs 0", { maxAgeMs: 0 }, /maxAgeMs must be a number of ms greater than 0/],
    ] as const
  ) {
    test(`new ResultFiles refuses ${what}`, () => {
      assert.throws(() => new ResultFiles({ directory: freshDir(), ...options }), message);
    });
  }
});

describe("dispatch with result files", () => {
  const LONG = "HEAD-START " + "0123456789".repeat(25_000) + " TAIL-END";

  function registryWith(files: ResultFiles, value: unknown, maxResultChars?: number) {
    const registry = new ToolRegistry({ resultFiles: files, ...(maxResultChars !== undefined ? { maxResultChars } : {}) });
    const warnings: string[] = [];
    registry.on("warning", ({ message }) => warnings.push(message));
    registry.register({ name: "dump", handler: () => value });
    return { registry, warnings };
  }

  test("a result over the cap: the whole in a file, the model gets the head, the tail and the path, within the cap", async () => {
    const directory = freshDir();
    const { registry, warnings } = registryWith(new ResultFiles({ directory }), LONG);
    const { result } = resultOf(await registry.dispatch("dump"));
    assert.ok(result!.length <= 100_000, `length ${result!.length}`);
    assert.match(result!, /^\[the result is 250,020 characters, over the 100,000 shown here; the whole of it is in the file /);
    assert.ok(result!.includes("HEAD-START") && result!.endsWith("TAIL-END"));
    assert.match(result!, /\[… [\d,]+ characters cut …\]/);
    const path = pathIn(result!);
    assert.ok(path.startsWith(directory + "/"));
    assert.equal(readFileSync(path, "utf8"), LONG);
    if (POSIX) assert.equal(mode(path), 0o600);
    assert.deepEqual(warnings, []);
  });

  test("the registry's maxResultChars is the cap files are measured against", async () => {
    const { registry } = registryWith(new ResultFiles({ directory: freshDir() }), "y".repeat(5_000), 1_000);
    const { result } = resultOf(await registry.dispatch("dump"));
    assert.ok(result!.length <= 1_000);
    assert.equal(readFileSync(pathIn(result!), "utf8"), "y".repeat(5_000));
  });

  test("a result under the cap writes nothing (the directory is not even made)", async () => {
    const directory = freshDir();
    const { registry } = registryWith(new ResultFiles({ directory }), "short");
    assert.equal(await registry.dispatch("dump"), '{"result":"short"}');
    assert.ok(!existsSync(directory));
  });

  test("an error result over the cap is saved too, in {\"error\": …}", async () => {
    const directory = freshDir();
    const { registry } = registryWith(new ResultFiles({ directory }), { content: [{ type: "text", text: LONG }], isError: true });
    const { error } = resultOf(await registry.dispatch("dump"));
    assert.match(error!, /^\[the result is [\d,]+ characters/);
    assert.match(readFileSync(pathIn(error!), "utf8"), /^tool "dump" returned an error: HEAD-START/);
  });

  test("a results directory that cannot be written: the cut string, and a warning naming the directory", async () => {
    const blocker = join(root, `blocker-${++counter}`);
    writeFileSync(blocker, "a file where the directory should be");
    const directory = join(blocker, "results");
    const { registry, warnings } = registryWith(new ResultFiles({ directory }), LONG);
    const { result } = resultOf(await hangGuard(registry.dispatch("dump"), 10_000, "dispatch"));
    assert.ok(result!.length <= 100_000);
    assert.ok(result!.startsWith("HEAD-START"), "the plain cut: head first, no file line");
    assert.match(result!, /\[… [\d,]+ characters cut …\]/);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /^tool "dump": its result of 250,020 characters was not saved whole \(cannot write to the results directory /);
    assert.ok(warnings[0]!.includes(directory));
    assert.match(warnings[0]!, /the model got its head and tail only/);
  });

  test("binary content: image, audio and blob resource saved as files; the model gets path and MIME type", async () => {
    const directory = freshDir();
    const pixel = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    const { registry, warnings } = registryWith(new ResultFiles({ directory }), {
      content: [
        { type: "text", text: "three files:" },
        { type: "image", data: pixel, mimeType: "image/png" },
        { type: "audio", data: "UklGRiQAAABXQVZF", mimeType: "audio/wav" },
        { type: "resource", resource: { uri: "mem://a.zip", mimeType: "application/zip", blob: "UEsFBgAA" } },
      ],
    });
    const { result } = resultOf(await registry.dispatch("dump"));
    const lines = result!.split("\n");
    assert.equal(lines[0], "three files:");
    assert.match(lines[1]!, /^\[image: image\/png, 70 bytes, saved to \S+\.png\]$/);
    assert.match(lines[2]!, /^\[audio: audio\/wav, 12 bytes, saved to \S+\.wav\]$/);
    assert.match(lines[3]!, /^\[resource: mem:\/\/a\.zip, application\/zip, 6 bytes, saved to \S+\.zip\]$/);
    const png = readFileSync(pathIn(lines[1]!));
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    assert.equal(readFileSync(pathIn(lines[2]!)).subarray(0, 4).toString("latin1"), "RIFF");
    assert.equal(readFileSync(pathIn(lines[3]!)).length, 6);
    if (POSIX) for (const line of lines.slice(1)) assert.equal(mode(pathIn(line)), 0o600);
    assert.deepEqual(warnings, []);
  });

  test("an image whose data is not base64: described as before, with a warning", async () => {
    const { registry, warnings } = registryWith(new ResultFiles({ directory: freshDir() }), {
      content: [{ type: "image", data: "%%%%", mimeType: "image/png" }],
    });
    const { result } = resultOf(await registry.dispatch("dump"));
    assert.match(result!, /^\[image: image\/png, \d+ bytes\]$/);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /^tool "dump": its image content \(image\/png\) was not saved: the image\/png data is not valid base64/);
  });

  test("without result files (the default) binary content is described and long results cut, as before", async () => {
    const registry = new ToolRegistry();
    registry.register({ name: "dump", handler: () => ({ content: [{ type: "image", data: "iVBORw0K", mimeType: "image/png" }] }) });
    assert.equal(resultOf(await registry.dispatch("dump")).result, "[image: image/png, 6 bytes]");
  });
});
