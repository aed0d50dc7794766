// Result files as the host configures them: the top-level `results:` key (directory, max_files,
// max_age_days, off switch) and each server's `results:` (false, or a directory of its own),
// applied by a McpManager with resultFiles on (`mcpwire run` / `chat`) to a real stdio server
// (test/fixtures/many-tools-server.mjs): its long export and its image, audio and blob.

import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { parseConfig } from "../../src/host/config/parse.ts";
import { ConfigError, type McpwireConfig } from "../../src/host/config/types.ts";
import { McpManager } from "../../src/host/servers/manager.ts";
import { fixturePath } from "../support/fixture-process.ts";
import { hangGuard } from "../support/hang-guard.ts";

const MANY = fixturePath("many-tools-server.mjs");
const ARGS = { owner: "o", repo: "r", id: 1 };

function yaml(text: string, env: Record<string, string> = {}): McpwireConfig {
  return parseConfig(text, { file: "/etc/mcpwire/mcpwire.yaml", displayName: "mcpwire.yaml", env });
}

function resultOf(text: string): { result?: string; error?: string } {
  return JSON.parse(text) as { result?: string; error?: string };
}

describe("config keys", () => {
  test("results: a mapping with directory (interpolated, ~ and relative paths resolved), max_files, max_age_days", () => {
    const config = yaml(
      "mcp_servers: {a: {command: x}}\nresults:\n  directory: ${CACHE}/r\n  max_files: 10\n  max_age_days: 2\n",
      { CACHE: "/var/cache" },
    );
    assert.deepEqual(config.results, { enabled: true, directory: "/var/cache/r", maxFiles: 10, maxAgeMs: 2 * 86_400_000 });
    assert.equal(yaml("mcp_servers: {a: {command: x}}\nresults: {directory: ~/r}\n", { HOME: "/home/u" }).results?.directory, "/home/u/r");
    assert.equal(yaml("mcp_servers: {a: {command: x}}\nresults: {directory: out}\n").results?.directory, "/etc/mcpwire/out");
    assert.deepEqual(yaml("mcp_servers: {a: {command: x}}\nresults: false\n").results, { enabled: false });
    assert.deepEqual(yaml("mcp_servers: {a: {command: x}}\nresults: {enabled: false}\n").results, { enabled: false });
    assert.equal(yaml("mcp_servers: {a: {command: x}}\n").results, undefined);
  });

  test("a server's results: false, true, or { directory }", () => {
    const config = yaml(
      "mcp_servers:\n  a: {command: x, results: false}\n  b: {command: x, results: true}\n  c: {command: x, results: {directory: /tmp/c}}\n",
    );
    assert.deepEqual(config.servers.map((server) => server.results), [{ enabled: false }, { enabled: true }, { enabled: true, directory: "/tmp/c" }]);
    assert.deepEqual(config.errors, []);
  });

  for (
    const [what, text, message] of [
      [
        "results that is a string",
        "results: yes-please",
        /mcpwire\.yaml:2:\d+: "results" must be true, false, or a mapping with enabled, directory, max_files, max_age_days; it is the string "yes-please"/,
      ],
      ["results.max_files 0", "results: {max_files: 0}", /"results\.max_files" must be a whole number of at least 1; it is the number 0/],
      ["results.max_age_days -1", "results: {max_age_days: -1}", /"results\.max_age_days" must be a number of days greater than 0; it is the number -1/],
      [
        "results.directory that is a number",
        "results: {directory: 5}",
        /"results\.directory" must be a string: the directory result files go to; it is the number 5/,
      ],
      ["results.enabled that is a string", 'results: {enabled: "no"}', /"results\.enabled" must be true or false/],
    ] as const
  ) {
    test(`bad input: ${what} is a ConfigError at its key`, () => {
      assert.throws(() => yaml(`mcp_servers: {a: {command: x}}\n${text}\n`), (error: unknown) => error instanceof ConfigError && message.test(error.message));
    });
  }

  test("bad input: results.directory with an unset variable is a host problem at its key (run / chat stop on it; the other verbs do not use it)", () => {
    const config = yaml('mcp_servers: {a: {command: x}}\nresults: {directory: "${NOPE}/r"}\n');
    assert.equal(config.results, undefined);
    const [error] = config.hostProblems?.errors ?? [];
    assert.ok(error instanceof ConfigError);
    assert.match(error.message, /"results\.directory": .*NOPE/);
  });

  test("bad input: an unknown key under results: is a warning with a suggestion", () => {
    const config = yaml("mcp_servers: {a: {command: x}}\nresults: {max_file: 3}\n");
    assert.match(config.warnings.map((warning) => warning.message).join("\n"), /unknown key "results\.max_file" is ignored; did you mean "max_files"\?/);
  });

  test("bad input: a server's results that is a string disables that server, naming the key", () => {
    const config = yaml("mcp_servers:\n  a: {command: x, results: sometimes}\n  b: {command: x}\n");
    const [a, b] = config.servers;
    assert.equal(a!.enabled, false);
    assert.match(a!.error!.message, /"results" must be true, false, or a mapping with enabled and\/or directory/);
    assert.equal(b!.enabled, true);
  });

  test("bad input: an unknown key in a server's results: is a warning naming the known keys", () => {
    const config = yaml("mcp_servers:\n  a: {command: x, results: {dir: /tmp}}\n");
    assert.match(
      config.warnings.map((warning) => warning.message).join("\n"),
      /unknown key "results\.dir" is ignored; (did you mean "results\.directory"\?|known keys: enabled, directory)/,
    );
  });
});

describe("a manager with result files on, over a real server", () => {
  let root: string;
  let manager: McpManager;
  before(async () => {
    root = mkdtempSync(join(tmpdir(), "mcpwire-result-config-"));
    const config = yaml(
      `mcp_servers:
  plain: {command: node, args: [${JSON.stringify(MANY)}]}
  quiet: {command: node, args: [${JSON.stringify(MANY)}], results: false}
  own: {command: node, args: [${JSON.stringify(MANY)}], results: {directory: ${JSON.stringify(join(root, "own"))}}}
results:
  directory: ${JSON.stringify(join(root, "shared"))}
`,
    );
    manager = new McpManager(config, { resultFiles: true });
    await hangGuard(manager.start(), 20_000, "manager.start()");
  });
  after(async () => {
    await manager.close();
    rmSync(root, { recursive: true, force: true });
  });

  test("a long result of a server is saved whole in the configured directory", async () => {
    const { result } = resultOf(await manager.registry.dispatch("mcp_plain_export_issue", ARGS));
    assert.match(result!, /^\[the result is [\d,]+ characters, over the 100,000 shown here; the whole of it is in the file /);
    const file = /in the file (\S+);/.exec(result!)![1]!;
    assert.ok(file.startsWith(join(root, "shared") + "/"), file);
    assert.match(file, /-plain-export_issue-[0-9a-f]{8}\.txt$/);
    const whole = readFileSync(file, "utf8");
    assert.ok(whole.startsWith("BEGIN EXPORT\n") && whole.endsWith("\nEND EXPORT"));
    assert.ok(whole.length > 250_000);
  });

  test("images, audio and blobs of a server are saved as files", async () => {
    const image = resultOf(await manager.registry.dispatch("mcp_plain_get_release", ARGS)).result!;
    assert.match(image, /^the release's badge:\n\[image: image\/png, 70 bytes, saved to \S+\.png\]$/);
    const audio = resultOf(await manager.registry.dispatch("mcp_plain_get_deployment", ARGS)).result!;
    assert.match(audio, /^\[audio: audio\/wav, \d+ bytes, saved to \S+\.wav\]$/);
    const blob = resultOf(await manager.registry.dispatch("mcp_plain_export_gist", ARGS)).result!;
    assert.match(blob, /^\[resource: gist:\/\/1\/archive\.zip, application\/zip, 22 bytes, saved to \S+\.zip\]$/);
  });

  test("a server with results: false keeps the old behaviour: described, cut, no file", async () => {
    const before = existsSync(join(root, "shared")) ? readdirSync(join(root, "shared")).length : 0;
    assert.equal(resultOf(await manager.registry.dispatch("mcp_quiet_get_release", ARGS)).result, "the release's badge:\n[image: image/png, 70 bytes]");
    const long = resultOf(await manager.registry.dispatch("mcp_quiet_export_issue", ARGS)).result!;
    assert.ok(long.startsWith("BEGIN EXPORT") && long.length <= 100_000);
    const after = existsSync(join(root, "shared")) ? readdirSync(join(root, "shared")).length : 0;
    assert.equal(after, before);
  });

  test("a server with its own directory writes there", async () => {
    const image = resultOf(await manager.registry.dispatch("mcp_own_get_release", ARGS)).result!;
    assert.ok(/saved to (\S+)\]/.exec(image)![1]!.startsWith(join(root, "own") + "/"));
  });
});

test("a manager without resultFiles (the library default) writes no file", async () => {
  const manager = new McpManager(yaml(`mcp_servers:\n  m: {command: node, args: [${JSON.stringify(MANY)}]}\n`));
  try {
    await hangGuard(manager.start(), 20_000, "manager.start()");
    assert.equal(resultOf(await manager.registry.dispatch("mcp_m_get_release", ARGS)).result, "the release's badge:\n[image: image/png, 70 bytes]");
  } finally {
    await manager.close();
  }
});
