// `mcpwire resources`, `read`, `prompts`, `prompt` and `complete` (issue 27): the CLI as a child
// process against the real server-everything (2025-11-25) and a fixture whose every string holds
// terminal escapes, on both eras (test/fixtures/hostile-resources-server.mjs, --modern for 2026-07-28).
// One server-everything over Streamable HTTP serves every run of the file (each run its own session):
// the tests only read from it.

import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { type HttpServerProcess, startEverything } from "../fixtures/sse-servers.ts";
import { mcpwire, type Outcome, scratchDir, writeConfig } from "../support/cli-runner.ts";
import { fixturePath } from "../support/fixture-process.ts";

const HOSTILE = fixturePath("hostile-resources-server.mjs");
/** Characters a terminal acts on (TAB and LF are ordinary text). */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
/** How the CLI shows the fixture's escapes. */
const SHOWN = String.raw`\x1b[31mred\x1b[0m \x1b]8;;https://evil.example/\x07good.example\x1b]8;;\x07 bell\x07 cr\roverwritten \u202eabc`;
const TEXT_TEMPLATE = "demo://resource/dynamic/text/{resourceId}";

const scratch = scratchDir("mcpwire-resources-prompts-");
let everything = "";
let server: HttpServerProcess | undefined;
const hostile: Record<"legacy" | "modern", string> = { legacy: "", modern: "" };

before(async () => {
  server = await startEverything("streamableHttp");
  everything = await writeConfig(scratch.path, "everything.yaml", ["mcp_servers:", "  everything:", `    url: ${server.origin}/mcp`]);
  for (const era of ["legacy", "modern"] as const) {
    const args = era === "modern" ? [HOSTILE, "--modern"] : [HOSTILE];
    hostile[era] = await writeConfig(scratch.path, `${era}.yaml`, ["mcp_servers:", "  hostile:", "    command: node", `    args: ${JSON.stringify(args)}`]);
  }
});

after(async () => {
  await server?.stop();
});

function assertClean(outcome: Outcome): void {
  const found = RAW_CONTROL.exec(outcome.stdout + outcome.stderr);
  assert.equal(found, null, `a raw control character U+${found?.[0].charCodeAt(0).toString(16).padStart(4, "0")} reached the terminal`);
}

describe("mcpwire resources and read against server-everything", () => {
  test("resources lists the 7 resources and the templates; --json lists them with their server", async () => {
    const [listed, json] = await Promise.all([
      mcpwire(["resources", "everything", "--config", everything]),
      mcpwire(["resources", "--json", "--config", everything]),
    ]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^SERVER\s+NAME\s+URI\s+MIME TYPE\s+DESCRIPTION$/m);
    assert.equal(listed.stdout.match(/demo:\/\/resource\/static\/document\//g)?.length, 7);
    assert.match(listed.stdout, /^SERVER\s+NAME\s+URI TEMPLATE/m);
    assert.ok(listed.stdout.includes(TEXT_TEMPLATE));
    assert.equal(json.code, 0, json.stderr);
    const parsed = JSON.parse(json.stdout) as { resources: { server: string; uri: string }[]; resourceTemplates: { uriTemplate: string }[] };
    assert.equal(parsed.resources.length, 7);
    assert.ok(parsed.resources.every((resource) => resource.server === "everything"));
    assert.ok(parsed.resourceTemplates.some((template) => template.uriTemplate === TEXT_TEMPLATE));
  });

  test("read prints a text resource; a misspelt URI gets the nearest and exit 2", async () => {
    const [read, wrong] = await Promise.all([
      mcpwire(["read", "everything", "demo://resource/static/document/architecture.md", "--config", everything]),
      mcpwire(["read", "everything", "demo://resource/static/document/architectur.md", "--config", everything]),
    ]);
    assert.equal(read.code, 0, read.stderr);
    assert.match(read.stdout, /^# Everything Server/);
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /did you mean "demo:\/\/resource\/static\/document\/architecture\.md"/);
  });

  test("read TEMPLATE key=value expands the template; a missing variable is exit 2 naming it", async () => {
    const [read, byName, missing, misspelt] = await Promise.all([
      mcpwire(["read", "everything", TEXT_TEMPLATE, "resourceId=3", "--config", everything]),
      mcpwire(["read", "everything", "Dynamic Text Resource", "resourceId=4", "--config", everything]),
      mcpwire(["read", "everything", TEXT_TEMPLATE, "--config", everything]),
      mcpwire(["read", "everything", TEXT_TEMPLATE, "resourceID=3", "--config", everything]),
    ]);
    assert.equal(read.code, 0, read.stderr);
    assert.match(read.stdout, /^Resource 3: This is a plaintext resource/);
    assert.equal(byName.code, 0, byName.stderr);
    assert.match(byName.stdout, /^Resource 4:/);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /needs resourceId=…/);
    assert.equal(misspelt.code, 2);
    assert.match(misspelt.stderr, /did you mean "resourceId"\?/);
  });

  test("a blob is written to --out, and never to the terminal", async () => {
    const out = join(scratch.path, "blob.bin");
    const [written, refused] = await Promise.all([
      mcpwire(["read", "everything", "demo://resource/dynamic/blob/2", "--out", out, "--config", everything]),
      mcpwire(["read", "everything", "demo://resource/dynamic/blob/2", "--config", everything]),
    ]);
    assert.equal(written.code, 0, written.stderr);
    assert.match(await readFile(out, "utf8"), /^Resource 2: This is a base64 blob/);
    assert.equal(refused.code, 2);
    assert.equal(refused.stdout, "");
    assert.match(refused.stderr, /is binary .*--out FILE/);
  });

  test("an unknown server gets did-you-mean and exit 2", async () => {
    const outcome = await mcpwire(["read", "everyting", "demo://x", "--config", everything]);
    assert.equal(outcome.code, 2);
    assert.match(outcome.stderr, /no server "everyting" is configured; did you mean "everything"\?/);
  });
});

describe("mcpwire prompts, prompt and complete against server-everything", () => {
  test("prompts lists the 4 prompts with their arguments; --json too", async () => {
    const [listed, json] = await Promise.all([
      mcpwire(["prompts", "--config", everything]),
      mcpwire(["prompts", "everything", "--json", "--config", everything]),
    ]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^everything\s+args-prompt\s+city, state\?\s+/m);
    assert.equal(json.code, 0, json.stderr);
    assert.equal((JSON.parse(json.stdout) as { prompts: unknown[] }).prompts.length, 4);
  });

  test("prompt with arguments prints its messages; --json the result", async () => {
    const [got, json] = await Promise.all([
      mcpwire(["prompt", "everything", "args-prompt", "city=Paris", "state=Texas", "--config", everything]),
      mcpwire(["prompt", "everything", "args-prompt", "city=Paris", "--json", "--config", everything]),
    ]);
    assert.equal(got.code, 0, got.stderr);
    assert.equal(got.stdout, "[user]\nWhat's weather in Paris, Texas?\n");
    assert.equal(json.code, 0, json.stderr);
    assert.equal(JSON.parse(json.stdout).messages[0].content.text, "What's weather in Paris?");
  });

  test("a missing required argument lists the server's completions for it; exit 2", async () => {
    const outcome = await mcpwire(["prompt", "everything", "completable-prompt", "--config", everything]);
    assert.equal(outcome.code, 2);
    assert.match(outcome.stderr, /needs department=… name=…/);
    assert.match(outcome.stderr, /department \(Choose the department\.\): the server suggests Engineering, Sales, Marketing, Support/);
  });

  test("misspelt prompt and argument names get did-you-mean and exit 2", async () => {
    const [prompt, argument] = await Promise.all([
      mcpwire(["prompt", "everything", "arg-prompt", "--config", everything]),
      mcpwire(["prompt", "everything", "args-prompt", "cty=Paris", "--config", everything]),
    ]);
    assert.equal(prompt.code, 2);
    assert.match(prompt.stderr, /no prompt on server "everything" named "arg-prompt"; did you mean "args-prompt"\?/);
    assert.equal(argument.code, 2);
    assert.match(argument.stderr, /did you mean "city"\?/);
  });

  test("complete --prompt with a context argument, and --template; --json", async () => {
    const [names, json, template] = await Promise.all([
      mcpwire(["complete", "everything", "--prompt", "completable-prompt", "name=", "department=Sales", "--config", everything]),
      mcpwire(["complete", "everything", "--prompt", "completable-prompt", "department=Ma", "--json", "--config", everything]),
      mcpwire(["complete", "everything", "--template", TEXT_TEMPLATE, "resourceId=5", "--config", everything]),
    ]);
    assert.equal(names.code, 0, names.stderr);
    assert.equal(names.stdout, "David\nEve\nFrank\n");
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(JSON.parse(json.stdout).values, ["Marketing"]);
    assert.equal(template.code, 0, template.stderr);
    assert.equal(template.stdout, "5\n");
  });
});

for (const era of ["legacy", "modern"] as const) {
  describe(`hostile strings reach the terminal sanitized (${era === "modern" ? "2026-07-28" : "2025-11-25"})`, () => {
    test("resources, read, prompts and prompt show the escapes as text", async () => {
      const runs = [
        ["resources"],
        ["read", "hostile", "note", "path=docs/a b", "section=x"],
        ["prompts"],
        ["prompt", "hostile", "greet", "who=me"],
        ["complete", "hostile", "--template", "note://{+path}{#section}", "path=docs"],
      ];
      const outcomes = await Promise.all(runs.map((args) => mcpwire([...args, "--config", hostile[era]])));
      for (const [index, outcome] of outcomes.entries()) {
        const args = runs[index]!;
        assert.equal(outcome.code, 0, `${args.join(" ")}: ${outcome.stderr}`);
        assertClean(outcome);
        assert.ok(outcome.stdout.includes(SHOWN) || outcome.stdout.includes("\\x1b[31mred"), `${args.join(" ")} shows the escapes: ${outcome.stdout}`);
      }
    });

    test("a template's {+var}{#var} expansion, and a missing variable's suggestions sanitized", async () => {
      const [read, missing] = await Promise.all([
        mcpwire(["read", "hostile", "note://{+path}{#section}", "path=docs/a b", "section=x y", "--config", hostile[era]]),
        mcpwire(["read", "hostile", "note", "--config", hostile[era]]),
      ]);
      assert.equal(read.code, 0, read.stderr);
      assert.match(read.stdout, /^read note:\/\/docs\/a%20b#x%20y$/m);
      assert.equal(missing.code, 2);
      assertClean(missing);
      assert.match(missing.stderr, /needs path=… section=…/);
      assert.ok(missing.stderr.includes(`path: the server suggests docs/a b, docs/${SHOWN}`), missing.stderr);
    });

    test("a blob of control bytes is not printed; --out writes its bytes", async () => {
      const out = join(scratch.path, `${era}.bin`);
      const [refused, written] = await Promise.all([
        mcpwire(["read", "hostile", "blob://x", "--config", hostile[era]]),
        mcpwire(["read", "hostile", "blob://x", "--out", out, "--config", hostile[era]]),
      ]);
      assert.equal(refused.code, 2);
      assertClean(refused);
      assert.equal(written.code, 0, written.stderr);
      assert.deepEqual([...await readFile(out)], [...new TextEncoder().encode("\u001b[2J\u0000\u0007bytes")]);
    });

    test("an unknown resource is exit 2 with the nearest; a missing prompt argument gets suggestions", async () => {
      const [unknown, missing] = await Promise.all([
        mcpwire(["read", "hostile", "blob://y", "--config", hostile[era]]),
        mcpwire(["prompt", "hostile", "greet", "--config", hostile[era]]),
      ]);
      assert.equal(unknown.code, 2);
      assert.match(unknown.stderr, /did you mean "blob:\/\/x"\?/);
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /who \(whom to greet\): the server suggests world, moon/);
    });
  });
}

describe("mcpwire watch (2025-11-25)", () => {
  test("prints each notifications/resources/updated of the URI and ends after --count; another URI's is said once, sanitized", async () => {
    const outcome = await mcpwire(["watch", "hostile", "blob://x", "--count", "2", "--config", hostile.legacy]);
    assert.equal(outcome.code, 0, outcome.stderr);
    assertClean(outcome);
    const lines = outcome.stdout.trimEnd().split("\n");
    assert.equal(lines.length, 2);
    for (const line of lines) assert.match(line, /^\d\d:\d\d:\d\d updated blob:\/\/x$/);
    assert.ok(outcome.stderr.includes(`warning: server "hostile" sent an update of blob://x${SHOWN}, which was not subscribed to`), outcome.stderr);
  });

  test("--json prints one object a line; watch without a URI is exit 2", async () => {
    const [json, usage] = await Promise.all([
      mcpwire(["watch", "hostile", "blob://x", "--count", "1", "--json", "--config", hostile.legacy]),
      mcpwire(["watch", "hostile", "--config", hostile.legacy]),
    ]);
    assert.equal(json.code, 0, json.stderr);
    assert.equal(JSON.parse(json.stdout).uri, "blob://x");
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /watch needs a server and a resource URI/);
  });
});
