// The definitions family and the lists area's duplicates, over crafted sessions: each rule fails
// on a definition that breaks it, naming the message and the JSON Pointer of the broken field,
// and passes on the spec's own examples; a rule a revision does not have is skipped there.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { DefinitionRules, judgeDefinitions } from "../../src/check/definitions.ts";
import { DuplicateRules, judgeDuplicates } from "../../src/check/duplicates.ts";
import { MAX_FINDINGS_PER_RULE, Verdicts } from "../../src/check/verdicts.ts";
import {
  draft07Tool,
  filesTemplate,
  observedSession,
  readmeResource,
  reviewPrompt,
  type SessionSpec,
  weatherDataTool,
  weatherTool,
} from "../support/observed-session.ts";
import { RecordingJudge } from "../support/recording-judge.ts";

/** The conformant session: the spec's examples, one list each (tools answer message 5, prompts 7, resources 9, templates 11). */
function conformant(): SessionSpec {
  return {
    tools: [weatherTool(), weatherDataTool(), draft07Tool()],
    prompts: [reviewPrompt()],
    resources: [readmeResource()],
    resourceTemplates: [filesTemplate()],
  };
}

async function judged(spec: SessionSpec) {
  const judge = new RecordingJudge();
  await judgeDefinitions(observedSession(spec), judge);
  return judge;
}

describe("definitions: the spec's own examples", () => {
  test("pass every rule that applies to 2025-11-25, x-mcp-header skipped as a 2026-07-28 rule", async () => {
    const judge = await judged(conformant());
    assert.deepEqual(judge.failures, []);
    for (const each of Object.values(DefinitionRules)) {
      assert.equal(judge.outcome(each.id), each.id === "definitions/x-mcp-header" ? "skip" : "pass", each.id);
    }
    assert.match(judge.skipReason("definitions/x-mcp-header"), /starts with 2026-07-28/);
  });

  test("pass on the 2026-07-28 wire too, with an array outputSchema (any 2020-12 schema there) and a valid x-mcp-header", async () => {
    const listUsers = {
      name: "list_users",
      inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } },
      outputSchema: { type: "array", items: { type: "object" } },
    };
    const judge = await judged({ ...conformant(), era: "modern", tools: [weatherTool(), listUsers] });
    assert.deepEqual(judge.failures, []);
    assert.equal(judge.outcome("definitions/x-mcp-header"), "pass");
    assert.equal(judge.outcome("definitions/output-schema"), "pass");
  });
});

/** One breaking case: what to change in the conformant session, the rule, the message index and the pointer of the failure. */
interface Case {
  name: string;
  rule: string;
  spec: SessionSpec;
  index: number;
  pointer: string;
  detail?: RegExp;
}

const tool = (changes: Record<string, unknown>): SessionSpec => ({ ...conformant(), tools: [weatherTool(), { ...weatherDataTool(), ...changes }] });
const CASES: Case[] = [
  { name: "a tool whose name is a number", rule: "definitions/name", spec: tool({ name: 42 }), index: 5, pointer: "/result/tools/1/name" },
  {
    name: "a prompt without a name",
    rule: "definitions/name",
    spec: { prompts: [{ description: "no name" }] },
    index: 5,
    pointer: "/result/prompts/0/name",
  },
  {
    name: "a tool name of 129 characters",
    rule: "definitions/tool-name-length",
    spec: tool({ name: "a".repeat(129) }),
    index: 5,
    pointer: "/result/tools/1/name",
  },
  { name: "an empty tool name", rule: "definitions/tool-name-length", spec: tool({ name: "" }), index: 5, pointer: "/result/tools/1/name" },
  {
    name: "a tool name with a space and a slash",
    rule: "definitions/tool-name-characters",
    spec: tool({ name: "get weather/now" }),
    index: 5,
    pointer: "/result/tools/1/name",
    detail: /U\+0020.*"\/" U\+002F/,
  },
  {
    name: "a tool without inputSchema",
    rule: "definitions/input-schema",
    spec: tool({ inputSchema: undefined }),
    index: 5,
    pointer: "/result/tools/1/inputSchema",
  },
  {
    name: "an inputSchema that is null",
    rule: "definitions/input-schema",
    spec: tool({ inputSchema: null }),
    index: 5,
    pointer: "/result/tools/1/inputSchema",
  },
  {
    name: 'an inputSchema of type "string"',
    rule: "definitions/input-schema",
    spec: tool({ inputSchema: { type: "string" } }),
    index: 5,
    pointer: "/result/tools/1/inputSchema/type",
  },
  {
    name: "an array outputSchema before 2026-07-28",
    rule: "definitions/output-schema",
    spec: tool({ outputSchema: { type: "array", items: { type: "string" } } }),
    index: 5,
    pointer: "/result/tools/1/outputSchema/type",
  },
  {
    name: 'an inputSchema whose property has type "strng"',
    rule: "definitions/schema-valid",
    spec: tool({ inputSchema: { type: "object", properties: { a: { type: "strng" } } } }),
    index: 5,
    pointer: "/result/tools/1/inputSchema",
    detail: /inputSchema is not a valid JSON Schema 2020-12/,
  },
  {
    name: "a draft-07 outputSchema with a negative minLength",
    rule: "definitions/schema-valid",
    spec: tool({ outputSchema: { $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { a: { type: "string", minLength: -1 } } } }),
    index: 5,
    pointer: "/result/tools/1/outputSchema",
    detail: /draft-07/,
  },
  {
    name: "an x-mcp-header holding a space (2026-07-28)",
    rule: "definitions/x-mcp-header",
    spec: { ...tool({ inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Bad Header" } } } }), era: "modern" },
    index: 4,
    pointer: "/result/tools/1/inputSchema",
    detail: /not an HTTP field-name token/,
  },
  {
    name: 'readOnlyHint "true" (a string)',
    rule: "definitions/tool-annotations",
    spec: tool({ annotations: { readOnlyHint: "true" } }),
    index: 5,
    pointer: "/result/tools/1/annotations/readOnlyHint",
  },
  {
    name: "annotations that are an array",
    rule: "definitions/tool-annotations",
    spec: tool({ annotations: [] }),
    index: 5,
    pointer: "/result/tools/1/annotations",
  },
  { name: "a tool title that is a number", rule: "definitions/title", spec: tool({ title: 7 }), index: 5, pointer: "/result/tools/1/title" },
  {
    name: "a resource URI holding a space",
    rule: "definitions/resource-uri",
    spec: { resources: [readmeResource(), { ...readmeResource(), uri: "file:///my notes.md" }] },
    index: 5,
    pointer: "/result/resources/1/uri",
    detail: /U\+0020/,
  },
  {
    name: "a resource URI without a scheme",
    rule: "definitions/resource-uri",
    spec: { resources: [{ ...readmeResource(), uri: "README.md" }] },
    index: 5,
    pointer: "/result/resources/0/uri",
    detail: /no scheme/,
  },
  {
    name: "a template with an unclosed expression",
    rule: "definitions/uri-template",
    spec: { resourceTemplates: [{ ...filesTemplate(), uriTemplate: "file:///{path" }] },
    index: 5,
    pointer: "/result/resourceTemplates/0/uriTemplate",
  },
  {
    name: "a template variable with a space",
    rule: "definitions/uri-template",
    spec: { resourceTemplates: [{ ...filesTemplate(), uriTemplate: "db://{table name}" }] },
    index: 5,
    pointer: "/result/resourceTemplates/0/uriTemplate",
  },
  {
    name: 'a mimeType "markdown"',
    rule: "definitions/mime-type",
    spec: { resources: [{ ...readmeResource(), mimeType: "markdown" }] },
    index: 5,
    pointer: "/result/resources/0/mimeType",
  },
  {
    name: "a priority of 2",
    rule: "definitions/resource-annotations",
    spec: { resources: [{ ...readmeResource(), annotations: { priority: 2 } }] },
    index: 5,
    pointer: "/result/resources/0/annotations/priority",
  },
  {
    name: 'an audience of "everyone"',
    rule: "definitions/resource-annotations",
    spec: { resourceTemplates: [{ ...filesTemplate(), annotations: { audience: ["everyone"] } }] },
    index: 5,
    pointer: "/result/resourceTemplates/0/annotations/audience",
  },
  {
    name: 'a prompt argument whose required is "true"',
    rule: "definitions/prompt-arguments",
    spec: { prompts: [{ ...reviewPrompt(), arguments: [{ name: "code", required: "true" }] }] },
    index: 5,
    pointer: "/result/prompts/0/arguments/0/required",
  },
  {
    name: "a prompt argument without a name",
    rule: "definitions/prompt-arguments",
    spec: { prompts: [{ ...reviewPrompt(), arguments: [{ name: "code" }, { description: "language" }] }] },
    index: 5,
    pointer: "/result/prompts/0/arguments/1/name",
  },
  {
    name: 'an icon of theme "blue"',
    rule: "definitions/icons",
    spec: tool({ icons: [{ src: "https://example.com/i.png", theme: "blue" }] }),
    index: 5,
    pointer: "/result/tools/1/icons/0/theme",
  },
  {
    name: "an icon whose src is not a URI",
    rule: "definitions/icons",
    spec: { prompts: [{ ...reviewPrompt(), icons: [{ src: "icons/review.svg" }] }] },
    index: 5,
    pointer: "/result/prompts/0/icons/0/src",
  },
  {
    name: "an icon of scheme javascript:",
    rule: "definitions/icon-scheme",
    spec: { resources: [{ ...readmeResource(), icons: [{ src: "javascript:alert(1)" }] }] },
    index: 5,
    pointer: "/result/resources/0/icons/0/src",
  },
  {
    name: "an icon of scheme file:",
    rule: "definitions/icon-scheme",
    spec: tool({ icons: [{ src: "file:///usr/share/icons/weather.png" }] }),
    index: 5,
    pointer: "/result/tools/1/icons/0/src",
  },
  {
    name: 'an icon size "48"',
    rule: "definitions/icon-sizes",
    spec: tool({ icons: [{ src: "data:image/png;base64,iVBORw0KGgo=", sizes: ["48x48", "48"] }] }),
    index: 5,
    pointer: "/result/tools/1/icons/0/sizes/1",
  },
];

describe("definitions: each rule broken", () => {
  for (const each of CASES) {
    test(`${each.rule}: ${each.name}`, async () => {
      const judge = await judged(each.spec);
      const failures = judge.failuresOf(each.rule);
      assert.equal(failures.length, 1, JSON.stringify(judge.failures));
      assert.deepEqual({ index: failures[0]!.seen?.index, pointer: failures[0]!.seen?.pointer }, { index: each.index, pointer: each.pointer });
      if (each.detail !== undefined) assert.match(failures[0]!.detail, each.detail);
    });
  }

  test("a rule broken in 60 places: the report keeps the first 20 and counts the other 40 (verdicts.ts)", async () => {
    const tools = Array.from({ length: 60 }, (_, at) => ({ ...weatherTool(), name: `tool ${at}` }));
    const verdicts = new Verdicts();
    await judgeDefinitions(observedSession({ tools }), verdicts);
    const outcome = verdicts.outcomes().find((each) => each.rule.id === "definitions/tool-name-characters")!;
    assert.equal(outcome.status, "failed");
    assert.equal(outcome.findings.length, MAX_FINDINGS_PER_RULE);
    assert.equal(outcome.findings[19]!.seen?.pointer, "/result/tools/19/name");
    assert.equal(outcome.more, 40);
  });

  test("an item that is not an object is a finding of definitions/name, and the other rules still judge the rest", async () => {
    const judge = await judged({ tools: ["get_weather", weatherTool()] });
    assert.deepEqual(judge.failuresOf("definitions/name").map((each) => each.seen?.pointer), ["/result/tools/0"]);
    assert.equal(judge.outcome("definitions/input-schema"), "pass");
  });

  test("a $ref to another document is not called invalid (it is never fetched); one to a missing $defs entry is", async () => {
    for (const $ref of ["https://example.com/schemas/a.json", "a.json#/$defs/b"]) {
      const judge = await judged(tool({ inputSchema: { type: "object", properties: { a: { $ref } } } }));
      assert.deepEqual(judge.failuresOf("definitions/schema-valid"), [], $ref);
    }
    const judge = await judged(tool({ inputSchema: { type: "object", properties: { a: { $ref: "#/$defs/missing" } } } }));
    assert.match(judge.failuresOf("definitions/schema-valid")[0]!.detail, /can't resolve reference #\/\$defs\/missing/);
  });

  test("an unknown $schema dialect is not judged", async () => {
    const judge = await judged({ tools: [{ ...draft07Tool(), inputSchema: { $schema: "https://example.com/my-dialect", type: "object", required: "a" } }] });
    assert.equal(judge.outcome("definitions/schema-valid"), "skip");
  });
});

describe("definitions: the server's own icons and title", () => {
  test("initialize's serverInfo: an icon of scheme ftp: and a title that is not a string", async () => {
    const observed = observedSession({ tools: [weatherTool()] });
    const result = observed.negotiation!.result as Record<string, unknown>;
    result.serverInfo = { name: "weather", version: "1.0.0", title: ["Weather"], icons: [{ src: "ftp://example.com/w.png", sizes: ["48x48"] }] };
    const judge = new RecordingJudge();
    await judgeDefinitions(observed, judge);
    assert.deepEqual(judge.failuresOf("definitions/icon-scheme").map((each) => `${each.seen?.index}${each.seen?.pointer}`), [
      "2/result/serverInfo/icons/0/src",
    ]);
    assert.deepEqual(judge.failuresOf("definitions/title").map((each) => each.seen?.pointer), ["/result/serverInfo/title"]);
  });

  test("server/discover's serverInfo in _meta (2026-07-28): its icons are judged", async () => {
    const observed = observedSession({ era: "modern" });
    const result = observed.negotiation!.result as Record<string, unknown>;
    result._meta = {
      "io.modelcontextprotocol/serverInfo": { name: "ExampleServer", version: "1.0.0", icons: [{ src: "https://example.com/i.svg", theme: "night" }] },
    };
    const judge = new RecordingJudge();
    await judgeDefinitions(observed, judge);
    assert.deepEqual(judge.failuresOf("definitions/icons").map((each) => each.seen?.pointer), [
      "/result/_meta/io.modelcontextprotocol~1serverInfo/icons/0/theme",
    ]);
  });
});

describe("definitions: each rule only where its revision has it", () => {
  test("2025-06-18: tool names and icons are not judged (both came with 2025-11-25), titles are", async () => {
    const judge = await judged({ ...tool({ name: "get weather", title: 7, icons: [{ src: "file:///x.png" }] }), protocolVersion: "2025-06-18" });
    for (const id of ["definitions/tool-name-characters", "definitions/icons", "definitions/icon-scheme", "definitions/schema-valid"]) {
      assert.equal(judge.outcome(id), "skip", id);
    }
    assert.equal(judge.outcome("definitions/title"), "fail");
    assert.equal(judge.outcome("definitions/output-schema"), "pass");
  });

  test("2024-11-05: titles, annotations and outputSchema are not judged", async () => {
    const judge = await judged({ ...tool({ title: 7, annotations: { readOnlyHint: "yes" } }), protocolVersion: "2024-11-05" });
    for (const id of ["definitions/title", "definitions/tool-annotations", "definitions/output-schema"]) assert.equal(judge.outcome(id), "skip", id);
    assert.equal(judge.outcome("definitions/input-schema"), "pass");
  });
});

describe("lists: duplicates", () => {
  const judgedLists = (spec: SessionSpec) => {
    const judge = new RecordingJudge();
    judgeDuplicates(observedSession(spec), judge);
    return judge;
  };

  test("pass on lists whose identifiers are each given once", () => {
    const judge = judgedLists(conformant());
    for (const each of Object.values(DuplicateRules)) assert.equal(judge.outcome(each.id), "pass", each.id);
  });

  test("a second tool, prompt and resource of one identifier are each a finding at the second", () => {
    const judge = judgedLists({
      tools: [weatherTool(), draft07Tool(), weatherTool()],
      prompts: [reviewPrompt(), reviewPrompt()],
      resources: [readmeResource(), { ...readmeResource(), name: "readme again" }],
    });
    assert.deepEqual(judge.failuresOf("lists/duplicate-tool-name").map((each) => each.seen), [
      { index: 5, pointer: "/result/tools/2/name", excerpt: "get_weather" },
    ]);
    assert.match(judge.failuresOf("lists/duplicate-tool-name")[0]!.detail, /at \/result\/tools\/0/);
    assert.equal(judge.failuresOf("lists/duplicate-prompt-name")[0]!.seen?.pointer, "/result/prompts/1/name");
    assert.equal(judge.failuresOf("lists/duplicate-resource-uri")[0]!.seen?.pointer, "/result/resources/1/uri");
  });

  test("a list that was not followed is skipped, saying so", () => {
    const judge = judgedLists({ tools: [weatherTool()] });
    assert.equal(judge.outcome("lists/duplicate-tool-name"), "pass");
    assert.match(judge.skipReason("lists/duplicate-prompt-name"), /prompts were not listed/);
  });
});
