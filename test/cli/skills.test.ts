// `mcpwire skills` and `mcpwire skills show` as real child processes against the skills fixture
// (conformance/fixtures/skills-server.mjs) over stdio and HTTP, and `mcpwire run`'s model loading
// a skill through mcp_<server>_skill (the OpenAI provider against a loopback fake API).

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { mcpwire as runMcpwire, scratchDir, writeConfig } from "../support/cli-runner.ts";
import { refusedOrigin, startFakeModelApi } from "../support/fake-model-apis.ts";
import { type PortFixture, startPortFixture } from "../support/fixture-process.ts";

const SKILLS_SERVER = fileURLToPath(new URL("../../conformance/fixtures/skills-server.mjs", import.meta.url));
const scratch = scratchDir("mcpwire-skills-");
let nowhere = "";

function childEnv(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env, OLLAMA_HOST: nowhere };
  for (const name of ["OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY"]) delete env[name];
  return env;
}
const mcpwire = (args: string[]) => runMcpwire(args, { env: childEnv() });

/** YAML lines for a stdio skills server named `name` started with `args`. */
function stdioServer(name: string, args: string[] = []): string[] {
  return [`  ${name}:`, "    command: node", `    args: ${JSON.stringify([SKILLS_SERVER, "--stdio", ...args])}`];
}

let http: PortFixture;
let config = "";

before(async () => {
  nowhere = await refusedOrigin();
  http = await startPortFixture("../../conformance/fixtures/skills-server.mjs", { args: ["--http", "--era", "modern", "--skills", "good"] });
  config = await writeConfig(scratch.path, "skills.yaml", [
    "mcp_servers:",
    ...stdioServer("docs"),
    "  web:",
    `    url: ${http.origin}/mcp`,
    ...stdioServer("plain", ["--no-extension"]),
    ...stdioServer("broken", ["--unimplemented"]),
  ]);
});
after(() => http.stop());

describe("mcpwire skills", () => {
  test("lists every server's skills (stdio and HTTP), refused entries on stderr, servers without the extension left out", async () => {
    const { code, stdout, stderr } = await mcpwire(["skills", "--config", config]);
    assert.equal(code, 1, stderr); // "broken" declares the extension and answers -32601: listed on stderr, exit 1
    assert.match(stderr, /mcpwire skills: server "broken" declares the skills extension .* -32601/);
    assert.match(stdout, /^SERVER\s+SKILL\s+DESCRIPTION\s+FILES\s+URI\n/);
    assert.match(stdout, /\ndocs\s+git-workflow\s+Follow this team's Git conventions for branching and commits\s+2\s+skill:\/\/git-workflow\/SKILL.md\n/);
    assert.match(stdout, /\nweb\s+refunds\s+.*skill:\/\/acme\/billing\/refunds\/SKILL.md/);
    assert.match(stdout, /\ndocs\s+daily\s+.*dynamic/);
    assert.doesNotMatch(stdout, /plain|Bad--Name/);
    assert.match(stderr, /refused: server "docs": skill "skill:\/\/Bad--Name\/SKILL.md": the name "Bad--Name"/);
  });

  test("--json for one server: the entries and the refusals with their codes", async () => {
    const { code, stdout, stderr } = await mcpwire(["skills", "docs", "--json", "--config", config]);
    assert.equal(code, 0, stderr);
    const listing = JSON.parse(stdout) as {
      skills: Array<{ server: string; name: string; resources: unknown }>;
      refused: Array<{ refusal: string; skill: string }>;
    };
    assert.deepEqual(listing.skills.map((skill) => skill.name), ["git-workflow", "refunds", "daily", "tampered", "padded", "drifted"]);
    assert.deepEqual(listing.refused.map((entry) => entry.refusal), ["missing-field", "missing-field", "bad-name", "bad-name", "too-large", "outside-skill"]);
  });

  test("a server that declares the extension but answers -32601, and one that does not declare it: exit 1 with the reason", async () => {
    const broken = await mcpwire(["skills", "broken", "--config", config]);
    assert.equal(broken.code, 1);
    assert.match(broken.stderr, /server "broken" declares the skills extension \(io\.modelcontextprotocol\/skills\) but answered skills\/list with -32601/);
    const plain = await mcpwire(["skills", "plain", "--config", config]);
    assert.equal(plain.code, 1);
    assert.match(plain.stderr, /server "plain" does not declare the skills extension/);
    const unknown = await mcpwire(["skills", "nowhere", "--config", config]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no server "nowhere" in the config/);
  });

  test("show prints the verified SKILL.md; --file prints a listed file; a path out of the skill is refused", async () => {
    const shown = await mcpwire(["skills", "show", "web", "refunds", "--config", config]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /^---\nname: refunds\n/);
    assert.match(shown.stderr, /skill "refunds" from server "web" \(skill:\/\/acme\/billing\/refunds\/SKILL.md\), verified; files: examples\/email.md/);
    const file = await mcpwire(["skills", "show", "docs", "git-workflow", "--file", "references/GUIDE.md", "--config", config]);
    assert.equal(file.code, 0, file.stderr);
    assert.match(file.stdout, /PELICAN/);
    const escape = await mcpwire(["skills", "show", "docs", "git-workflow", "--file", "../acme/billing/refunds/SKILL.md", "--config", config]);
    assert.equal(escape.code, 1);
    assert.match(escape.stderr, /the path "\.\.\/acme\/billing\/refunds\/SKILL.md" is refused: .*leaves the skill's directory/);
  });

  test("show --file with an encoded separator or a NUL is refused, exit 1, and the server is asked nothing for it", async () => {
    const record = join(scratch.path, "asked.log");
    const recorded = await writeConfig(scratch.path, "recorded.yaml", ["mcp_servers:", ...stdioServer("docs", ["--record", record])]);
    for (const file of ["..%2fsecret%2fSKILL.md", "%2e%2e%2fsecret%2fSKILL.md", "..%5csecret%5cSKILL.md", "data.csv%00.md"]) {
      const { code, stdout, stderr } = await mcpwire(["skills", "show", "docs", "daily", "--file", file, "--config", recorded]);
      assert.equal(code, 1, stderr);
      assert.equal(stdout, "");
      assert.match(stderr, /^mcpwire skills: server "docs": skill "daily": the path ".*" is refused: its segment .* \(decoded /, file);
    }
    const asked = existsSync(record) ? readFileSync(record, "utf8") : "";
    assert.doesNotMatch(asked, /secret|%00/);
    // The same server serves a plain path of the same skill, and the record shows it.
    const plain = await mcpwire(["skills", "show", "docs", "daily", "--file", "data.csv", "--config", recorded]);
    assert.equal(plain.code, 0, plain.stderr);
    assert.match(readFileSync(record, "utf8"), /resources\/read skill:\/\/reports\/daily\/data\.csv/);
  });

  test("show refuses a tampered, a padded and a drifted skill, and names a refused entry's reason", async () => {
    const expectations: [string, RegExp][] = [
      ["tampered", /"SKILL.md" hashes to sha256:[0-9a-f]{64} but its entry says sha256:/],
      ["padded", /"SKILL.md" is \d+ bytes but its entry says \d+/],
      ["drifted", /differs from the entry's in "description"/],
      ["huge", /over the 16777216-byte \(16 MiB\) limit/],
      ["escape", /is not inside the skill's directory/],
    ];
    for (const [skill, pattern] of expectations) {
      const { code, stdout, stderr } = await mcpwire(["skills", "show", "docs", skill, "--config", config]);
      assert.equal(code, 1, `${skill}: ${stderr}`);
      assert.match(stderr, pattern, skill);
      assert.equal(stdout, "", skill);
    }
  });
});

describe("mcpwire run with skills", () => {
  test("the model is told the skills, loads one through mcp_docs_skill and answers from it", async () => {
    const api = await startFakeModelApi("openai", [
      { toolCalls: [{ name: "mcp_docs_skill", arguments: { skill: "git-workflow" } }] },
      { toolCalls: [{ name: "mcp_docs_skill", arguments: { skill: "git-workflow", file: "references/GUIDE.md" } }] },
      (request) => ({ text: `The word is ${/secret word is (\w+)/.exec(request.toolResults.at(-1)?.content ?? "")?.[1] ?? "?"}` }),
    ]);
    try {
      const runConfig = await writeConfig(scratch.path, "run.yaml", [
        "providers:",
        "  openai:",
        `    base_url: ${JSON.stringify(api.url)}`,
        "mcp_servers:",
        ...stdioServer("docs", ["--skills", "good"]),
      ]);
      const { code, stdout, stderr } = await mcpwire(["run", "-p", "how do I write commits?", "--model", "openai/any", "--yes", "--config", runConfig]);
      assert.equal(code, 0, stderr);
      assert.equal(stdout, "The word is PELICAN\n");
      assert.match(stderr, /→ mcp_docs_skill \{"skill":"git-workflow"\}/);
      const messages = api.requests[0]!.body.messages as Array<{ role: string; content: string }>;
      assert.match(messages[0]!.content, /Skills you can load .*\n- git-workflow \(MCP server "docs"\)/s);
      assert.match(api.requests[1]!.toolResults[0]!.content, /Loaded skill \\?"git-workflow\\?" from MCP server \\?"docs\\?"/);
    } finally {
      await api.close();
    }
  });
});
