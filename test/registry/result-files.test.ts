// Result files: a tool result over the cap is written whole to a file (mode 0600, directory 0700)
// and the model gets its head, its tail and the path; binary content is saved as files named by
// path and MIME type; old files are pruned; a directory that cannot be written falls back to the
// cut string with a warning. Every directory is a temporary one (never the real HOME or XDG).

import assert from "node:assert/strict";
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { after, before, describe, test } from "node:test";
import { ResultFileError } from "../../src/registry/registry-errors.ts";
import { defaultResultsDirectory, ResultFiles } from "../../src/registry/result-files.ts";
import { ToolRegistry } from "../../src/registry/tool-registry.ts";
import { runtime } from "../../src/runtime/mod.ts";
import { hangGuard } from "../support/hang-guard.ts";

const POSIX = process.platform !== "win32";
/** Only root can give a directory to another user (chown). */
const ROOT = POSIX && process.getuid?.() === 0;

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

  test("the default directory (mcpwire's own, in its cache) that exists open to others is tightened to 0700", { skip: !POSIX }, async () => {
    const cache = freshDir();
    const saved = process.env.XDG_CACHE_HOME;
    process.env.XDG_CACHE_HOME = cache;
    try {
      const directory = join(cache, "mcpwire", "results");
      mkdirSync(directory, { recursive: true });
      chmodSync(directory, 0o755);
      const files = new ResultFiles();
      assert.equal(files.directory, directory);
      await files.saveText("x", "t");
      assert.equal(mode(directory), 0o700);
    } finally {
      if (saved === undefined) delete process.env.XDG_CACHE_HOME;
      else process.env.XDG_CACHE_HOME = saved;
    }
  });

  test("a configured directory that exists is the user's: it keeps its mode (0755), the file in it is 0600", { skip: !POSIX }, async () => {
    const directory = freshDir();
    mkdirSync(directory, { recursive: true });
    chmodSync(directory, 0o755);
    const saved = await new ResultFiles({ directory }).saveText("x", "t");
    assert.equal(mode(directory), 0o755, "not chmod'ed");
    assert.equal(mode(saved.path), 0o600);
  });

  test("a configured directory others may write in is refused, not chmod'ed, saying how to fix it", { skip: !POSIX }, async () => {
    const directory = freshDir();
    mkdirSync(directory, { recursive: true });
    chmodSync(directory, 0o777);
    await assert.rejects(
      new ResultFiles({ directory }).saveText("x", "t"),
      (error: unknown) => error instanceof ResultFileError && error.message.includes("others may write in it (mode 0777; chmod go-w"),
    );
    assert.equal(mode(directory), 0o777, "not chmod'ed");
    assert.deepEqual(readdirSync(directory), []);
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

  test('an error result over the cap is saved too, in {"error": …}', async () => {
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
    if (POSIX) { for (const line of lines.slice(1)) assert.equal(mode(pathIn(line)), 0o600); }
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

describe("a results directory that is not this user's own", () => {
  const LONG = "HEAD-START " + "0123456789".repeat(25_000) + " TAIL-END";

  /** A directory of mode 0755 holding one file of the user's, to point a link at. */
  function victim(): string {
    const target = join(root, `victim-${++counter}`);
    mkdirSync(target, { recursive: true });
    chmodSync(target, 0o755);
    writeFileSync(join(target, "keep.txt"), "the user's own file");
    return target;
  }

  async function dispatchLong(directory: string) {
    const registry = new ToolRegistry({ resultFiles: new ResultFiles({ directory }) });
    const warnings: string[] = [];
    registry.on("warning", ({ message }) => warnings.push(message));
    registry.register({ name: "dump", handler: () => LONG });
    const { result } = resultOf(await hangGuard(registry.dispatch("dump"), 10_000, "dispatch"));
    return { result: result!, warnings };
  }

  test(
    "a symbolic link: what it points to is not chmod'ed nor written in; the cut string, and a warning naming the path and why",
    { skip: !POSIX },
    async () => {
      const target = victim();
      const directory = join(root, `case-${++counter}`, "mcpwire", "results");
      mkdirSync(join(directory, ".."), { recursive: true });
      symlinkSync(target, directory);
      const { result, warnings } = await dispatchLong(directory);
      assert.equal(mode(target), 0o755, "not chmod'ed");
      assert.deepEqual(readdirSync(target), ["keep.txt"], "nothing written through the link");
      assert.ok(lstatSync(directory).isSymbolicLink(), "the link is left as it was");
      // The fallback of an unwritable directory: the plain cut, head first, no file line.
      assert.ok(result.length <= 100_000 && result.startsWith("HEAD-START"));
      assert.match(result, /\[… [\d,]+ characters cut …\]/);
      assert.equal(warnings.length, 1);
      assert.ok(warnings[0]!.includes(`refusing the results directory ${directory}: it is a symbolic link`), warnings[0]);
      assert.match(
        warnings[0]!,
        /^tool "dump": its result of 250,020 characters was not saved whole .*set results\.directory to another place.*the model got its head and tail only$/,
      );
    },
  );

  test("the refusal is a ResultFileError with code unsafe-directory", { skip: !POSIX }, async () => {
    const directory = join(root, `link-${++counter}`);
    symlinkSync(victim(), directory);
    const error = await new ResultFiles({ directory }).saveText("x", "t").then(() => assert.fail("saved"), (reason: unknown) => reason);
    assert.ok(error instanceof ResultFileError && error.code === "unsafe-directory", String(error));
  });

  test("binary content is not saved through a link either: described, with a warning", { skip: !POSIX }, async () => {
    const target = victim();
    const directory = join(root, `link-${++counter}`);
    symlinkSync(target, directory);
    const registry = new ToolRegistry({ resultFiles: new ResultFiles({ directory }) });
    const warnings: string[] = [];
    registry.on("warning", ({ message }) => warnings.push(message));
    registry.register({ name: "pic", handler: () => ({ content: [{ type: "image", data: "iVBORw0K", mimeType: "image/png" }] }) });
    assert.equal(resultOf(await registry.dispatch("pic")).result, "[image: image/png, 6 bytes]");
    assert.deepEqual(readdirSync(target), ["keep.txt"]);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /its image content \(image\/png\) was not saved: refusing the results directory .*: it is a symbolic link/);
  });

  test("pruning never lists or deletes through a link", { skip: !POSIX }, async () => {
    const target = victim();
    const ours = "20200101-000000-t-0123abcd.txt"; // a name pruning would take for ours, months old
    writeFileSync(join(target, ours), "old");
    utimesSync(join(target, ours), new Date("2020-01-01"), new Date("2020-01-01"));
    const directory = join(root, `link-${++counter}`);
    symlinkSync(target, directory);
    await new ResultFiles({ directory, maxAgeMs: 1000 }).prune();
    assert.deepEqual(readdirSync(target).sort(), [ours, "keep.txt"].sort());
  });

  test("a directory owned by another user: not chmod'ed, nothing written; the cut string and a warning", { skip: !ROOT }, async () => {
    const directory = victim();
    chownSync(directory, 4242, 4242);
    const { result, warnings } = await dispatchLong(directory);
    assert.equal(mode(directory), 0o755);
    assert.deepEqual(readdirSync(directory), ["keep.txt"]);
    assert.ok(result.startsWith("HEAD-START"));
    assert.equal(warnings.length, 1);
    assert.ok(warnings[0]!.includes(`refusing the results directory ${directory}: it is owned by user id 4242, not by this user (0)`), warnings[0]);
  });

  test("a link in a parent is followed (a ~/.cache on another disk): the results directory made under it is used", { skip: !POSIX }, async () => {
    const disk = join(root, `disk-${++counter}`);
    mkdirSync(disk);
    const cache = join(root, `cache-${counter}`);
    symlinkSync(disk, cache);
    const saved = await new ResultFiles({ directory: join(cache, "mcpwire", "results") }).saveText("kept", "t");
    assert.equal(readFileSync(saved.path, "utf8"), "kept");
    assert.equal(mode(join(disk, "mcpwire", "results")), 0o700);
  });
});

describe("runtime.writePrivateFile at a path that holds a link or a file", () => {
  test("a file already at the path is replaced (mode 0600)", { skip: !POSIX }, async () => {
    const directory = join(root, `case-${++counter}`);
    mkdirSync(directory);
    const path = join(directory, "20261203-114512-t-0123abcd.txt");
    writeFileSync(path, "before");
    await runtime.writePrivateFile(path, "the result");
    assert.ok(lstatSync(path).isFile());
    assert.equal(readFileSync(path, "utf8"), "the result");
    assert.equal(mode(path), 0o600);
  });

  // Never renamed over (runtime/special-file.ts): the link stays, what it points to is written, as
  // editors do. A results directory holds no link of anyone else's: it is this user's alone (0700).
  test("a symbolic link at the path is written through, the link kept", { skip: !POSIX }, async () => {
    const target = join(root, `outside-${++counter}.txt`);
    writeFileSync(target, "outside");
    const directory = join(root, `case-${counter}`);
    mkdirSync(directory);
    const path = join(directory, "20261203-114512-t-0123abcd.txt");
    symlinkSync(target, path);
    await runtime.writePrivateFile(path, "the result");
    assert.ok(lstatSync(path).isSymbolicLink());
    assert.equal(readFileSync(target, "utf8"), "the result");
  });

  test("linkInfo tells a link from a directory, with owner and mode; nothing there is undefined", { skip: !POSIX }, async () => {
    const directory = join(root, `info-${++counter}`);
    mkdirSync(directory, { mode: 0o750 });
    chmodSync(directory, 0o750);
    symlinkSync(directory, `${directory}.link`);
    const { mtimeMs: _mtimeMs, ...info } = (await runtime.linkInfo(directory))!;
    assert.deepEqual(info, { kind: "directory", uid: runtime.userId(), mode: 0o750 });
    assert.equal((await runtime.linkInfo(`${directory}.link`))?.kind, "symlink");
    assert.equal(await runtime.linkInfo(join(directory, "none")), undefined);
  });
});
