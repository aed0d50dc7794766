// The Skills extension from the client's side — ext-skills specification/stable/skills.mdx:
// listing (every page, entries checked, no file read), loading (SKILL.md verified: size, digest,
// frontmatter), reading files (only listed ones, inside the skill), and each refusal a typed
// SkillError naming the server and the skill, the connection still usable after it. Against
// conformance/fixtures/skills-server.mjs over stdio and HTTP, in both eras.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { checkSkillEntry, resolveSkillPath, skillNameProblem } from "../../src/client/skills/skill-entry.ts";
import { frontmatterDifferences, parseSkillFile } from "../../src/client/skills/skill-frontmatter.ts";
import { type LoadedSkill, ServerSkills, sha256Digest, type Skill, SkillError } from "../../src/client/skills/skills.ts";
import { skillsExtension } from "../../src/client/skills/skills-extension.ts";
import { Client, EXTENSIONS, MemoryTransport, Peer, StdioTransport, StreamableHttpTransport } from "../../src/mod.ts";
import { scratchDir } from "../support/cli-runner.ts";
import { type PortFixture, startPortFixture } from "../support/fixture-process.ts";
import { hangGuard } from "../support/hang-guard.ts";

const CLIENT_INFO = { name: "mcpwire-tests", version: "1.0.0" };
const SKILLS_SERVER = fileURLToPath(new URL("../../conformance/fixtures/skills-server.mjs", import.meta.url));
const SKILLS_FIXTURE = "../../conformance/fixtures/skills-server.mjs"; // relative to test/fixtures/

/** A Client connected to the fixture over stdio with `args`, named "docs". */
async function stdioClient(
  args: string[] = [],
  options: { protocol?: "auto" | "legacy" | "modern"; extensions?: Record<string, boolean> } = {},
): Promise<Client> {
  const client = new Client(CLIENT_INFO, { name: "docs", requestTimeoutMs: 10_000, use: [skillsExtension], ...options });
  await hangGuard(client.connect(new StdioTransport({ command: "node", args: [SKILLS_SERVER, "--stdio", ...args] })), 15_000, "connect");
  return client;
}

async function refusal(promise: Promise<unknown>): Promise<SkillError> {
  try {
    await hangGuard(promise, 15_000, "skills call");
  } catch (error) {
    if (error instanceof SkillError) return error;
    throw error;
  }
  assert.fail("the call resolved; a SkillError was expected");
}

function byName(skills: Skill[], name: string): Skill {
  const found = skills.find((skill) => skill.frontmatter.name === name);
  assert.ok(found, `no listed skill "${name}" (listed: ${skills.map((skill) => skill.frontmatter.name).join(", ")})`);
  return found;
}

/**
 * File paths that look like one segment but hide a way out of the skill once decoded (each
 * segment decoded once, as a server maps a URI to a file), a NUL, or do not decode at all.
 */
const ENCODED_ESCAPES = [
  "..%2fsecret%2fSKILL.md",
  "%2e%2e%2fsecret%2fSKILL.md",
  "%2E%2E%2Fsecret%2FSKILL.md",
  "..%5csecret%5cSKILL.md",
  "%2e%2e%5csecret",
  "data.csv%00.md",
  "data.csv\u0000.md",
  "references%2fGUIDE.md",
  ".%2e/secret",
  "%zz.md",
  "%E0%A4%A.md",
];

describe("skills: the entry checks", () => {
  const entry = (fields: Record<string, unknown>) => ({
    uri: "skill://git-workflow/SKILL.md",
    frontmatter: { name: "git-workflow", description: "Git conventions" },
    resources: [{ uri: "skill://git-workflow/SKILL.md", digest: `sha256:${"a".repeat(64)}`, size: 10 }],
    ...fields,
  });
  const code = (value: unknown) => {
    try {
      checkSkillEntry("docs", value);
    } catch (error) {
      assert.ok(error instanceof SkillError);
      assert.equal(error.server, "docs");
      return error.code;
    }
    return "accepted";
  };

  test("a well-formed entry passes; a nested prefix is fine; 'dynamic' is accepted", () => {
    assert.equal(code(entry({})), "accepted");
    assert.equal(code(entry({ uri: "skill://acme/billing/git-workflow/SKILL.md", resources: "dynamic" })), "accepted");
  });

  test("frontmatter missing name or description is missing-field", () => {
    assert.equal(code(entry({ frontmatter: { description: "x" } })), "missing-field");
    assert.equal(code(entry({ frontmatter: { name: "git-workflow" } })), "missing-field");
    assert.equal(code(entry({ frontmatter: { name: "git-workflow", description: "  " } })), "missing-field");
  });

  test("names that break the Agent Skills rules, or differ from the final segment, are bad-name", () => {
    for (const name of ["Git-Workflow", "git--workflow", "-git", "git-", "a".repeat(65), "git_workflow"]) assert.ok(skillNameProblem(name), name);
    assert.equal(skillNameProblem("pdf-processing2"), undefined);
    assert.equal(code(entry({ uri: "skill://Bad--Name/SKILL.md", frontmatter: { name: "Bad--Name", description: "x" } })), "bad-name");
    assert.equal(code(entry({ uri: "skill://other/SKILL.md" })), "bad-name");
  });

  test("resources missing, of another type, without SKILL.md, with a bad digest or size are bad-entry", () => {
    assert.equal(code(entry({ resources: undefined })), "bad-entry");
    assert.equal(code(entry({ resources: "static" })), "bad-entry");
    assert.equal(code(entry({ resources: [] })), "bad-entry");
    assert.equal(code(entry({ resources: [{ uri: "skill://git-workflow/SKILL.md", digest: "sha256:ABC", size: 1 }] })), "bad-entry");
    assert.equal(code(entry({ resources: [{ uri: "skill://git-workflow/SKILL.md", digest: `sha256:${"a".repeat(64)}`, size: -1 }] })), "bad-entry");
    assert.equal(code(entry({ uri: "skill://git-workflow/README.md" })), "bad-entry");
  });

  test("a listed file outside the skill's directory is outside-skill, whatever the spelling", () => {
    const listed = (uri: string) => entry({ resources: [...entry({}).resources, { uri, digest: `sha256:${"b".repeat(64)}`, size: 1 }] });
    for (const uri of ["skill://git-workflow/../other/SKILL.md", "skill://git-workflow/a/%2e%2e/%2E%2E/x", "skill://git-workflowx/a", "skill://other/a.md"]) {
      assert.equal(code(listed(uri)), "outside-skill", uri);
    }
    assert.equal(code(listed("skill://git-workflow/references/GUIDE.md")), "accepted");
  });

  test("over 512 files or 16 MiB is too-large, checked from the entry alone", () => {
    const many = Array.from({ length: 513 }, (_, i) => ({ uri: `skill://git-workflow/f${i}`, digest: `sha256:${"c".repeat(64)}`, size: 1 }));
    assert.equal(code(entry({ resources: [...entry({}).resources, ...many] })), "too-large");
    const big = { uri: "skill://git-workflow/big.bin", digest: `sha256:${"c".repeat(64)}`, size: 16 * 1024 * 1024 };
    assert.equal(code(entry({ resources: [...entry({}).resources, big] })), "too-large");
  });

  test("relative paths resolve against the skill's root; ../ and absolute paths do not resolve", () => {
    assert.equal(resolveSkillPath("skill://acme/billing/refunds/SKILL.md", "references/GUIDE.md"), "skill://acme/billing/refunds/references/GUIDE.md");
    assert.equal(resolveSkillPath("skill://a/SKILL.md", "./x.md"), "skill://a/x.md");
    for (const path of ["../b/SKILL.md", "x/../../b", "/etc/passwd", "skill://b/SKILL.md", "x/%2e%2e/y", "a\\..\\b", "", ...ENCODED_ESCAPES]) {
      assert.equal(resolveSkillPath("skill://a/SKILL.md", path), undefined, JSON.stringify(path));
    }
    // What is checked is what is sent: an encoded name that decodes to a plain one is kept as given.
    assert.equal(resolveSkillPath("skill://a/SKILL.md", "my%20notes.md"), "skill://a/my%20notes.md");
  });

  test("a listed file whose uri hides a separator or a NUL is outside-skill", () => {
    const listed = (uri: string) => entry({ resources: [...entry({}).resources, { uri, digest: `sha256:${"b".repeat(64)}`, size: 1 }] });
    for (const uri of ["skill://git-workflow/..%2fsecret%2fSKILL.md", "skill://git-workflow/..%5csecret", "skill://git-workflow/a%00.md"]) {
      assert.equal(code(listed(uri)), "outside-skill", uri);
    }
  });

  test("frontmatter: parsed from the leading --- block and compared field by field", async () => {
    const parsed = await parseSkillFile('---\nname: a\ndescription: b\nmetadata:\n  version: "1"\n---\n\n# Body\n');
    assert.ok(typeof parsed !== "string");
    assert.deepEqual(parsed.frontmatter, { name: "a", description: "b", metadata: { version: "1" } });
    assert.equal(parsed.body, "\n# Body\n");
    assert.deepEqual(frontmatterDifferences(parsed.frontmatter, { name: "a", description: "b", metadata: { version: "1" } }), []);
    assert.deepEqual(frontmatterDifferences(parsed.frontmatter, { name: "a", description: "c", metadata: { version: 1 } }), ["description", "metadata"]);
    assert.deepEqual(frontmatterDifferences({ name: "a" }, { name: "a", license: "MIT" }), ["license"]);
    assert.match(String(await parseSkillFile("# no frontmatter\n")), /does not begin/);
    assert.match(String(await parseSkillFile("---\nname: a\n")), /no --- line closing/);
    assert.match(String(await parseSkillFile("---\n- a\n---\n")), /not a YAML mapping/);
    assert.match(String(await parseSkillFile("---\na: [\n---\n")), /not valid YAML/);
  });
});

describe("skills over stdio (both eras)", () => {
  for (const protocol of ["legacy", "modern"] as const) {
    describe(`${protocol} era`, () => {
      let client: Client;
      let skills: ServerSkills;
      before(async () => {
        client = await stdioClient([], { protocol });
        skills = new ServerSkills(client, { server: "docs" });
      });
      after(() => client.close());

      test("the client declares the extension by default and sees the server's", () => {
        assert.deepEqual(client.capabilities.extensions?.[EXTENSIONS.skills], {});
        assert.equal(client.era, protocol);
        assert.ok(skills.available);
      });

      test("listing follows every page, keeps the good skills and refuses the broken ones, each naming server and skill", async () => {
        const listing = await hangGuard(skills.list(), 15_000, "list");
        assert.deepEqual(listing.skills.map((skill) => skill.frontmatter.name).sort(), ["daily", "drifted", "git-workflow", "padded", "refunds", "tampered"]);
        const refused = new Map(listing.refused.map((error) => [error.skill, error]));
        assert.equal(refused.get("skill://no-description/SKILL.md")?.code, "missing-field");
        assert.equal(refused.get("skill://no-name/SKILL.md")?.code, "missing-field");
        assert.equal(refused.get("skill://Bad--Name/SKILL.md")?.code, "bad-name");
        assert.equal(refused.get("skill://misnamed/SKILL.md")?.code, "bad-name");
        assert.equal(refused.get("skill://huge/SKILL.md")?.code, "too-large");
        assert.equal(refused.get("skill://escape/SKILL.md")?.code, "outside-skill");
        for (const error of listing.refused) {
          assert.equal(error.server, "docs");
          assert.match(error.message, /^server "docs": skill "skill:\/\/[^"]+"/);
        }
        assert.match(refused.get("skill://huge/SKILL.md")!.message, /17825792 bytes, over the 16777216-byte \(16 MiB\) limit/);
      });

      test("loading verifies SKILL.md and gives body and files; a listed file reads verified", async () => {
        const { skills: listed } = await skills.list();
        const loaded = await hangGuard(skills.load(byName(listed, "git-workflow")), 15_000, "load");
        assert.equal(loaded.verified, true);
        assert.equal(loaded.server, "docs");
        assert.match(loaded.body, /^\n# Git workflow/);
        assert.deepEqual(loaded.files, ["references/GUIDE.md"]);
        const guide = await skills.readFile(loaded, "references/GUIDE.md");
        assert.match(guide.text ?? "", /PELICAN/);
        assert.equal(guide.uri, "skill://git-workflow/references/GUIDE.md");
        const refunds = await skills.load(byName(listed, "refunds"));
        assert.deepEqual(refunds.skill.frontmatter.metadata, { version: "1.2" });
      });

      test("a digest mismatch is refused and the content is not returned", async () => {
        const error = await refusal(skills.load(byName((await skills.list()).skills, "tampered")));
        assert.equal(error.code, "digest-mismatch");
        assert.equal(error.skill, "skill://tampered/SKILL.md");
        assert.match(error.message, /server "docs": skill "tampered" .*"SKILL.md" hashes to sha256:[0-9a-f]{64} but its entry says sha256:/);
        assert.doesNotMatch(error.message, /Evil body/);
      });

      test("a size mismatch is refused", async () => {
        const error = await refusal(skills.load(byName((await skills.list()).skills, "padded")));
        assert.equal(error.code, "size-mismatch");
        assert.match(error.message, /bytes but its entry says \d+/);
      });

      test("a frontmatter that differs from the entry's is refused, naming the field", async () => {
        const error = await refusal(skills.load(byName((await skills.list()).skills, "drifted")));
        assert.equal(error.code, "frontmatter-mismatch");
        assert.match(error.message, /differs from the entry's in "description"/);
      });

      test("a path that leaves the skill's directory, and an unlisted file, are refused without a read", async () => {
        const loaded: LoadedSkill = await skills.load(byName((await skills.list()).skills, "git-workflow"));
        for (const path of ["../acme/billing/refunds/SKILL.md", "references/../../x", "/SKILL.md", "skill://tampered/SKILL.md"]) {
          const error = await refusal(skills.readFile(loaded, path));
          assert.equal(error.code, "outside-skill", path);
          assert.match(error.message, /leaves the skill's directory/);
        }
        const unlisted = await refusal(skills.readFile(loaded, "references/OTHER.md"));
        assert.equal(unlisted.code, "unlisted");
      });

      test("skills/get returns one entry; an unknown URI is not-found", async () => {
        const skill = await skills.get("skill://acme/billing/refunds/SKILL.md");
        assert.equal(skill.frontmatter.name, "refunds");
        const error = await refusal(skills.get("skill://nowhere/SKILL.md"));
        assert.equal(error.code, "not-found");
      });

      test("a dynamic skill loads unverified and reads files inside it", async () => {
        const loaded = await skills.load(byName((await skills.list()).skills, "daily"));
        assert.equal(loaded.verified, false);
        const data = await skills.readFile(loaded, "data.csv");
        assert.equal(data.verified, false);
        assert.match(data.text ?? "", /today,42/);
      });

      test("after every refusal the connection is still usable", async () => {
        assert.equal(client.state, "ready");
        assert.equal((await client.listTools())[0]?.name, "echo");
      });
    });
  }
});

describe("skills: encoded separators in a file path never reach the server", () => {
  const scratch = scratchDir("mcpwire-skills-client-");
  test("ServerSkills.readFile refuses each with outside-skill and sends no resources/read for it", async () => {
    const record = join(scratch.path, "asked.log");
    const client = await stdioClient(["--record", record]);
    try {
      const skills = new ServerSkills(client, { server: "docs" });
      const loaded = await skills.load(byName((await skills.list()).skills, "daily"));
      for (const path of ENCODED_ESCAPES) {
        const error = await refusal(skills.readFile(loaded, path));
        assert.equal(error.code, "outside-skill", JSON.stringify(path));
        assert.equal(error.file, path);
        assert.match(error.message, /^server "docs": skill "daily" \(skill:\/\/reports\/daily\/SKILL.md\): the path ".*" is refused: /);
      }
      assert.match((await skills.readFile(loaded, "data.csv")).text ?? "", /today,42/);
    } finally {
      await client.close();
    }
    const reads = readFileSync(record, "utf8").split("\n").filter((line) => line.startsWith("resources/read"));
    assert.deepEqual(reads, ["resources/read skill://reports/daily/SKILL.md", "resources/read skill://reports/daily/data.csv"]);
  });
});

describe("skills: servers that do not serve them", () => {
  test("a server that declares the extension but answers -32601 gives not-implemented, and the connection stays usable", async () => {
    const client = await stdioClient(["--unimplemented"]);
    try {
      const skills = new ServerSkills(client, { server: "docs" });
      const error = await refusal(skills.list());
      assert.equal(error.code, "not-implemented");
      assert.match(error.message, /server "docs" declares the skills extension \(io\.modelcontextprotocol\/skills\) but answered skills\/list with -32601/);
      assert.equal((await refusal(skills.get("skill://git-workflow/SKILL.md"))).code, "not-implemented");
      assert.equal((await client.listTools()).length, 1);
    } finally {
      await client.close();
    }
  });

  test("a server that does not declare it gets no skills/* request", async () => {
    const client = await stdioClient(["--no-extension"]);
    try {
      const skills = new ServerSkills(client, { server: "docs" });
      assert.equal(skills.available, false);
      const error = await refusal(skills.list());
      assert.equal(error.code, "not-declared");
      assert.match(error.message, /does not declare the skills extension/);
    } finally {
      await client.close();
    }
  });

  test("a client with the extension turned off does not declare it and sends nothing", async () => {
    const client = await stdioClient([], { extensions: { [EXTENSIONS.skills]: false } });
    try {
      assert.equal(client.capabilities.extensions?.[EXTENSIONS.skills], undefined);
      const error = await refusal(new ServerSkills(client, { server: "docs" }).list());
      assert.equal(error.code, "not-declared");
      assert.match(error.message, /turned off/);
    } finally {
      await client.close();
    }
  });
});

describe("skills over Streamable HTTP (both eras)", () => {
  let server: PortFixture;
  before(async () => {
    server = await startPortFixture(SKILLS_FIXTURE, { args: ["--http"] });
  });
  after(() => server.stop());

  for (const protocol of ["legacy", "modern"] as const) {
    test(`${protocol}: list, load and verify, refuse the tampered skill`, async () => {
      const client = new Client(CLIENT_INFO, { name: "docs", protocol, requestTimeoutMs: 10_000, use: [skillsExtension] });
      await hangGuard(client.connect(new StreamableHttpTransport({ url: `${server.origin}/mcp` })), 15_000, "connect");
      try {
        assert.equal(client.era, protocol);
        const skills = new ServerSkills(client, { server: "docs" });
        const { skills: listed, refused } = await skills.list();
        assert.equal(listed.length, 6);
        assert.equal(refused.length, 6);
        const loaded = await skills.load(byName(listed, "refunds"));
        assert.match((await skills.readFile(loaded, "examples/email.md")).text ?? "", /refund is on its way/);
        assert.equal((await refusal(skills.load(byName(listed, "tampered")))).code, "digest-mismatch");
        assert.equal(client.state, "ready");
      } finally {
        await client.close();
      }
    });
  }
});

describe("skills: content the fixture does not serve (an in-process server)", () => {
  const encoder = new TextEncoder();
  /** A legacy in-process server with one skill "bin" whose files are `files` (uri → text or { blob }), listed with the digests of `listed`. */
  async function serve(listed: Record<string, Uint8Array>, served: Record<string, { text: string } | { blob: string }>): Promise<Client> {
    const [clientEnd, serverEnd] = MemoryTransport.pair();
    const peer = new Peer({ name: "in-process", send: (message) => serverEnd.send(message) });
    serverEnd.onmessage = (message) => peer.receive(message);
    const resources = await Promise.all(Object.entries(listed).map(async ([uri, bytes]) => ({ uri, digest: await sha256Digest(bytes), size: bytes.length })));
    peer.setRequestHandler("initialize", () => ({
      protocolVersion: "2025-11-25",
      capabilities: { resources: {}, extensions: { [EXTENSIONS.skills]: {} } },
      serverInfo: { name: "in-process", version: "0" },
    }));
    peer.setRequestHandler("skills/list", () => ({
      skills: [{ uri: "skill://bin/SKILL.md", frontmatter: { name: "bin", description: "Binary files" }, resources }],
    }));
    peer.setRequestHandler("resources/read", (params) => {
      const uri = String(params?.uri);
      return { contents: [{ uri, ...served[uri] }] };
    });
    void serverEnd.start();
    const client = new Client(CLIENT_INFO, { name: "mem", protocol: "legacy", use: [skillsExtension] });
    await hangGuard(client.connect(clientEnd), 10_000, "connect");
    return client;
  }
  const SKILL_MD = "---\nname: bin\ndescription: Binary files\n---\nBody\n";

  test("a base64 blob is verified on its raw bytes; bytes that are not UTF-8 have no text", async () => {
    const logo = new Uint8Array([0, 255, 1, 128]);
    const client = await serve(
      { "skill://bin/SKILL.md": encoder.encode(SKILL_MD), "skill://bin/logo.bin": logo },
      { "skill://bin/SKILL.md": { text: SKILL_MD }, "skill://bin/logo.bin": { blob: btoa(String.fromCharCode(...logo)) } },
    );
    try {
      const skills = new ServerSkills(client, { server: "mem" });
      const loaded = await skills.load((await skills.list()).skills[0]!);
      const file = await skills.readFile(loaded, "logo.bin");
      assert.deepEqual([...file.bytes], [0, 255, 1, 128]);
      assert.equal(file.text, undefined);
      assert.equal(file.verified, true);
    } finally {
      await client.close();
    }
  });

  test("a blob that is not base64 is bad-content", async () => {
    const client = await serve(
      { "skill://bin/SKILL.md": encoder.encode(SKILL_MD), "skill://bin/logo.bin": new Uint8Array([1]) },
      { "skill://bin/SKILL.md": { text: SKILL_MD }, "skill://bin/logo.bin": { blob: "not base64 !!" } },
    );
    try {
      const skills = new ServerSkills(client, { server: "mem" });
      const loaded = await skills.load((await skills.list()).skills[0]!);
      const error = await refusal(skills.readFile(loaded, "logo.bin"));
      assert.equal(error.code, "bad-content");
      assert.match(error.message, /server "mem": skill "bin" .*no text or base64 blob/);
    } finally {
      await client.close();
    }
  });

  test("a SKILL.md without frontmatter (its digest matching) is bad-frontmatter", async () => {
    const plain = "# Just markdown\n";
    const client = await serve({ "skill://bin/SKILL.md": encoder.encode(plain) }, { "skill://bin/SKILL.md": { text: plain } });
    try {
      const skills = new ServerSkills(client, { server: "mem" });
      const error = await refusal(skills.load((await skills.list()).skills[0]!));
      assert.equal(error.code, "bad-frontmatter");
      assert.match(error.message, /SKILL.md does not begin with a --- line/);
    } finally {
      await client.close();
    }
  });
});
