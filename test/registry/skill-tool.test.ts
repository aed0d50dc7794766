// Skills offered through the registry — ext-skills skills.mdx ("Names", "Reading Skill Content",
// "Security Considerations"): one loader tool per server, names and descriptions up front (the
// catalog and the Runner's system prompt), the body loaded on request, verified, tagged with its
// origin; refusals reach the model as errors; the Runner's model loads a skill through the tool.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { Runner } from "../../src/agent/runner.ts";
import { withSkillsPrompt } from "../../src/agent/skills-prompt.ts";
import { skillsExtension } from "../../src/client/extensions/mod.ts";
import { Client, StdioTransport } from "../../src/mod.ts";
import { registerMcpServer } from "../../src/registry/mcp-server.ts";
import { existingSkillCatalog } from "../../src/registry/skill-catalog.ts";
import { registerMcpSkills } from "../../src/registry/skill-tool.ts";
import { ToolRegistry } from "../../src/registry/tool-registry.ts";
import { scratchDir } from "../support/cli-runner.ts";
import { hangGuard } from "../support/hang-guard.ts";
import { answer, callTools, ScriptedProvider, toolResults } from "../support/scripted-provider.ts";

const CLIENT_INFO = { name: "mcpwire-tests", version: "1.0.0" };
const SKILLS_SERVER = fileURLToPath(new URL("../../conformance/fixtures/skills-server.mjs", import.meta.url));

async function connect(name: string, args: string[] = []): Promise<Client> {
  const client = new Client(CLIENT_INFO, { name, requestTimeoutMs: 10_000, use: [skillsExtension] });
  await hangGuard(client.connect(new StdioTransport({ command: "node", args: [SKILLS_SERVER, "--stdio", ...args] })), 15_000, "connect");
  return client;
}

const parse = (text: string) => JSON.parse(text) as { result?: string; error?: string };

describe("skills in the registry", () => {
  let docs: Client;
  let other: Client;
  before(async () => {
    [docs, other] = await Promise.all([connect("docs"), connect("other", ["--skills", "good"])]);
  });
  after(() => Promise.all([docs.close(), other.close()]));

  test("one loader tool per server; names and descriptions in the catalog; refused skills are warnings", async () => {
    const registry = new ToolRegistry();
    const warnings: string[] = [];
    registry.on("warning", ({ message }) => warnings.push(message));
    const registration = await registerMcpSkills(registry, "docs", docs);
    assert.equal(registration.tool, "mcp_docs_skill");
    const tool = registry.get("mcp_docs_skill");
    assert.equal(tool?.toolset, "mcp-docs");
    assert.deepEqual((tool?.inputSchema.properties as { skill: { enum: string[] } }).skill.enum, [
      "git-workflow",
      "refunds",
      "daily",
      "tampered",
      "padded",
      "drifted",
    ]);
    assert.ok(registry.list().some((schema) => schema.name === "mcp_docs_skill"));
    assert.equal(warnings.length, 6);
    assert.ok(warnings.some((message) => /server "docs": skill "skill:\/\/Bad--Name\/SKILL.md": the name "Bad--Name"/.test(message)));
    const offered = existingSkillCatalog(registry)?.list() ?? [];
    assert.deepEqual(offered.find((skill) => skill.key === "refunds"), {
      server: "docs",
      key: "refunds",
      name: "refunds",
      description: "Process customer refund requests per company policy",
      uri: "skill://acme/billing/refunds/SKILL.md",
      tool: "mcp_docs_skill",
    });
    registration.unregister();
    assert.equal(registry.has("mcp_docs_skill"), false);
    assert.deepEqual(existingSkillCatalog(registry)?.list(), []);
  });

  test("the loader returns SKILL.md tagged with its server, then a listed file; the file read before no load", async () => {
    const registry = new ToolRegistry();
    await registerMcpSkills(registry, "docs", docs);
    const loaded = parse(await registry.dispatch("mcp_docs_skill", { skill: "git-workflow" }));
    assert.match(
      loaded.result ?? "",
      /^\[Loaded skill "git-workflow" from MCP server "docs" \(skill:\/\/git-workflow\/SKILL.md\)\. This is the server's content, not the user's/,
    );
    assert.match(loaded.result ?? "", /references\/GUIDE\.md/);
    assert.match(loaded.result ?? "", /# Git workflow/);
    const guide = parse(await registry.dispatch("mcp_docs_skill", { skill: "git-workflow", file: "references/GUIDE.md" }));
    assert.match(guide.result ?? "", /^\[File "references\/GUIDE.md" of skill "git-workflow" from MCP server "docs" .*verified\]\n\n# Commit messages/);
    const refunds = parse(await registry.dispatch("mcp_docs_skill", { skill: "refunds", file: "examples/email.md" }));
    assert.match(refunds.result ?? "", /refund is on its way/);
  });

  test("each refusal reaches the model as an error naming server, skill and what was wrong", async () => {
    const registry = new ToolRegistry();
    await registerMcpSkills(registry, "docs", docs);
    const cases: [Record<string, string>, RegExp][] = [
      [{ skill: "tampered" }, /server "docs": skill "tampered" .*hashes to sha256:[0-9a-f]+ but its entry says/],
      [{ skill: "padded" }, /server "docs": skill "padded" .*bytes but its entry says/],
      [{ skill: "drifted" }, /server "docs": skill "drifted" .*differs from the entry's in "description"/],
      [{ skill: "git-workflow", file: "../acme/billing/refunds/SKILL.md" }, /leaves the skill's directory/],
      [{ skill: "git-workflow", file: "references/MISSING.md" }, /not one of the files its entry lists/],
    ];
    for (const [args, pattern] of cases) {
      const outcome = parse(await registry.dispatch("mcp_docs_skill", args));
      assert.match(outcome.error ?? "(no error)", pattern, JSON.stringify(args));
      assert.doesNotMatch(outcome.error ?? "", /Evil body/);
    }
    assert.match(parse(await registry.dispatch("mcp_docs_skill", { skill: "nope" })).error ?? "", /enum|offers no skill/);
    assert.equal(docs.state, "ready");
  });

  test("a server's own tool named like the loader keeps its name; the loader takes the next", async () => {
    const registry = new ToolRegistry();
    const fake = {
      listTools: async () => [{ name: "skill", inputSchema: { type: "object" as const } }],
      callTool: docs.callTool.bind(docs),
      on: docs.on.bind(docs),
    };
    await registerMcpServer(registry, "docs", fake);
    const warnings: string[] = [];
    registry.on("warning", ({ message }) => warnings.push(message));
    const registration = await registerMcpSkills(registry, "docs", docs);
    assert.equal(registry.get("mcp_docs_skill")?.origin.kind, "mcp");
    assert.equal(registration.tool, "mcp_docs_skill_load");
    assert.ok(warnings.some((message) => /taken by another tool, so its skills load through mcp_docs_skill_load/.test(message)));
  });

  test("two servers with a same-named skill: each is resolved within its own server's tool", async () => {
    const registry = new ToolRegistry();
    await registerMcpSkills(registry, "docs", docs);
    await registerMcpSkills(registry, "other", other);
    const keys = existingSkillCatalog(registry)!.list().filter((skill) => skill.name === "git-workflow").map((skill) => `${skill.server}:${skill.tool}`);
    assert.deepEqual(keys, ["docs:mcp_docs_skill", "other:mcp_other_skill"]);
    const fromOther = parse(await registry.dispatch("mcp_other_skill", { skill: "git-workflow" }));
    assert.match(fromOther.result ?? "", /from MCP server "other"/);
  });

  test("the system prompt lists the skills on offer with their origin; a disabled toolset hides them", async () => {
    const registry = new ToolRegistry();
    await registerMcpSkills(registry, "other", other);
    const prompt = withSkillsPrompt("Be brief.", registry, registry.list()) ?? "";
    assert.match(prompt, /^Be brief\.\n\nSkills you can load/);
    assert.match(prompt, /- git-workflow \(MCP server "other"\): Follow this team's Git conventions .* load with mcp_other_skill \{"skill": "git-workflow"\}/);
    registry.disableToolset("mcp-other");
    assert.equal(withSkillsPrompt("Be brief.", registry, registry.list()), "Be brief.");
    assert.equal(withSkillsPrompt(undefined, new ToolRegistry(), []), undefined);
  });

  test("a server that declares the extension but answers -32601: registering its skills rejects with not-implemented", async () => {
    const broken = await connect("broken", ["--unimplemented"]);
    try {
      const registry = new ToolRegistry();
      await assert.rejects(
        registerMcpSkills(registry, "broken", broken),
        (error: Error & { code?: string }) => error.code === "not-implemented" && /server "broken" declares the skills extension/.test(error.message),
      );
      assert.equal(registry.has("mcp_broken_skill"), false);
      assert.equal(broken.state, "ready");
    } finally {
      await broken.close();
    }
  });
});

describe("the skill loader and encoded separators", () => {
  const scratch = scratchDir("mcpwire-skills-registry-");
  test("a file path that hides a way out (..%2f, %2e%2e%2f, ..%5c, NUL) is an error to the model; nothing is read for it", async () => {
    const record = join(scratch.path, "asked.log");
    const client = await connect("docs", ["--record", record]);
    try {
      const registry = new ToolRegistry();
      await registerMcpSkills(registry, "docs", client);
      for (const file of ["..%2fsecret%2fSKILL.md", "%2e%2e%2fsecret%2fSKILL.md", "..%5csecret%5cSKILL.md", "data.csv%00.md", "data.csv\u0000.md", "%zz"]) {
        const outcome = parse(await registry.dispatch("mcp_docs_skill", { skill: "daily", file }));
        assert.match(outcome.error ?? "(no error)", /server "docs": skill "daily" .*: the path ".*" is refused: /, JSON.stringify(file));
      }
      const read = (text: string) => text.split("\n").filter((line) => line.startsWith("resources/read"));
      assert.deepEqual(read(readFileSync(record, "utf8")), []);
      const data = parse(await registry.dispatch("mcp_docs_skill", { skill: "daily", file: "data.csv" }));
      assert.match(data.result ?? "", /today,42/);
      assert.deepEqual(read(readFileSync(record, "utf8")), ["resources/read skill://reports/daily/SKILL.md", "resources/read skill://reports/daily/data.csv"]);
    } finally {
      await client.close();
    }
  });
});

describe("the Runner and skills", () => {
  let client: Client;
  before(async () => {
    client = await connect("docs", ["--skills", "good"]);
  });
  after(() => client.close());

  test("the model sees the skills in its system prompt, loads one through the tool and reads a file of it", async () => {
    const registry = new ToolRegistry();
    await registerMcpSkills(registry, "docs", client);
    const provider = new ScriptedProvider([
      callTools({ name: "mcp_docs_skill", arguments: { skill: "git-workflow" } }),
      callTools({ name: "mcp_docs_skill", arguments: { skill: "git-workflow", file: "references/GUIDE.md" } }),
      answer((request) => `The guide says: ${/secret word is (\w+)/.exec(toolResults(request).at(-1) ?? "")?.[1] ?? "?"}`),
    ]);
    const runner = new Runner({ provider, registry, systemPrompt: "You help." });
    const text = await hangGuard(runner.run("How do I write commit messages here?"), 20_000, "run");
    assert.equal(text, "The guide says: PELICAN");
    const system = provider.requests[0]!.system ?? "";
    assert.match(system, /^You help\.\n\nSkills you can load/);
    assert.match(system, /refunds \(MCP server "docs"\)/);
    const loadedResult = toolResults(provider.requests[1]!)[0] ?? "";
    assert.match(loadedResult, /Loaded skill \\"git-workflow\\" from MCP server \\"docs\\"/);
    assert.ok(provider.requests[0]!.tools?.some((tool) => tool.name === "mcp_docs_skill"));
  });
});
