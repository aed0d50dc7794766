// The arguments of `mcpwire call`: key=value words typed by the tool's input schema, one JSON
// object, an args file or stdin; every bad input a usage error with its own code, found before a
// request is sent.

import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { after } from "node:test";
import { UsageError } from "../../src/cli/args.ts";
import type { CallArgumentsErrorCode } from "../../src/cli/errors.ts";
import { CallArgumentsError, MAX_ARGUMENTS_DEPTH, parseArgumentWords, readArgumentsFile, typeArguments } from "../../src/cli/tools/call-arguments.ts";
import { runtime } from "../../src/runtime/mod.ts";

const WHO = 'server "s", tool "t"';

/** A schema with one property of each kind the typing reads. */
const SCHEMA = {
  type: "object",
  properties: {
    a: { type: "number", description: "First number" },
    n: { type: "integer" },
    flag: { type: "boolean" },
    name: { type: "string" },
    tags: { type: "array", items: { type: "string" } },
    counts: { type: "array", items: { type: "integer" } },
    pairs: { type: "array", items: { type: "object", properties: { k: { type: "number" } } } },
    nested: { type: "object", properties: { k: { type: "number" } }, required: ["k"] },
    maybe: { type: ["string", "null"] },
    either: { anyOf: [{ type: "number" }, { type: "string" }] },
    mode: { type: "string", enum: ["fast", "slow"] },
    level: { enum: [1, 2, 3] },
    fixed: { const: "v1" },
    loose: {},
  },
};

function typed(words: string[], schema: unknown = SCHEMA) {
  return typeArguments(parseArgumentWords(words), schema, WHO);
}

/** Asserts that `run` throws a CallArgumentsError with this code whose message matches `pattern`. */
function rejects(run: () => unknown, code: CallArgumentsErrorCode, pattern: RegExp): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof CallArgumentsError, String(error));
    assert.ok(error instanceof UsageError, "a usage error: exit 2");
    assert.equal(error.code, code, error.message);
    assert.match(error.message, pattern);
    return true;
  });
}

async function rejectsAsync(run: () => Promise<unknown>, code: CallArgumentsErrorCode, pattern: RegExp): Promise<void> {
  await assert.rejects(run, (error: unknown) => {
    assert.ok(error instanceof CallArgumentsError, String(error));
    assert.equal(error.code, code, error.message);
    assert.match(error.message, pattern);
    return true;
  });
}

describe("the forms of the arguments", () => {
  test("no words are no arguments", () => {
    assert.deepEqual(parseArgumentWords([]), { form: "none" });
    assert.deepEqual(typed([]).args, {});
  });

  test("one JSON object is taken as it is, untyped", () => {
    assert.deepEqual(typed(['{"a":2,"name":2}']).args, { a: 2, name: 2 });
  });

  test("key=value words become one object", () => {
    assert.deepEqual(typed(["a=2", "name=hi"]).args, { a: 2, name: "hi" });
  });

  test("a value may hold '=' and be empty", () => {
    assert.deepEqual(typed(["name=x=y"]).args, { name: "x=y" });
    assert.deepEqual(typed(["name="]).args, { name: "" });
  });

  test("JSON that does not parse is named as such", () => {
    rejects(() => parseArgumentWords(["{message:"]), "not-json", /the JSON argument is not valid JSON/);
  });

  test("JSON that is not an object is refused", () => {
    rejects(() => parseArgumentWords(["[1,2]"]), "not-object", /must be a JSON object.*not an array/);
  });

  test("a word without '=' is not a pair", () => {
    rejects(() => parseArgumentWords(["a=1", "oops"]), "not-a-pair", /"oops" is not key=value/);
  });

  test("a pair with no key is refused", () => {
    rejects(() => parseArgumentWords(["=5"]), "not-a-pair", /no key/);
  });

  test("a key given twice is refused, naming it", () => {
    rejects(() => parseArgumentWords(["a=1", "b=2", "a=3"]), "duplicate-key", /"a" is given twice/);
  });

  test("a JSON object with key=value words is refused", () => {
    rejects(() => parseArgumentWords(["a=1", '{"b":2}']), "mixed-forms", /cannot be combined/);
  });
});

describe("typing by the schema", () => {
  test("numbers, integers and booleans", () => {
    assert.deepEqual(typed(["a=2.5", "n=-3", "flag=true"]).args, { a: 2.5, n: -3, flag: true });
    assert.deepEqual(typed(["a=1e3", "flag=false"]).args, { a: 1000, flag: false });
  });

  test('a string property keeps 2 as "2" and true as "true"', () => {
    assert.deepEqual(typed(["name=2"]).args, { name: "2" });
    assert.deepEqual(typed(["name=true"]).args, { name: "true" });
  });

  test("arrays: a bare list [x,y], typed item by item", () => {
    assert.deepEqual(typed(["tags=[x,y]"]).args, { tags: ["x", "y"] });
    assert.deepEqual(typed(["tags=[ x , 'y z' ]"]).args, { tags: ["x", "y z"] });
    assert.deepEqual(typed(["counts=[1,2]"]).args, { counts: [1, 2] });
    assert.deepEqual(typed(["tags=[]"]).args, { tags: [] });
  });

  test("arrays: JSON arrays, and numbers under string items kept as strings", () => {
    assert.deepEqual(typed(['tags=["a","b"]']).args, { tags: ["a", "b"] });
    assert.deepEqual(typed(["tags=[1,2]"]).args, { tags: ["1", "2"] });
    assert.deepEqual(typed(['pairs=[{"k":1},{"k":2}]']).args, { pairs: [{ k: 1 }, { k: 2 }] });
  });

  test("objects are JSON", () => {
    assert.deepEqual(typed(['nested={"k":1}']).args, { nested: { k: 1 } });
  });

  test("the loose form a shell leaves of JSON ({k:1}, [{k:1}]) is typed by the schema", () => {
    assert.deepEqual(typed(["nested={k:1}"]).args, { nested: { k: 1 } });
    assert.deepEqual(typed(["pairs=[{k:1}, {k:2}]"]).args, { pairs: [{ k: 1 }, { k: 2 }] });
    assert.deepEqual(typed(['tags=["a b",c]']).args, { tags: ["a b", "c"] });
    assert.deepEqual(typed(["loose={x:[1,a],y:'2'}"]).args, { loose: { x: [1, "a"], y: "2" } });
    const strings = { type: "object", properties: { o: { type: "object", properties: { name: { type: "string" } } } } };
    assert.deepEqual(typed(["o={name:2}"], strings).args, { o: { name: "2" } });
  });

  test("a type list: null when written null, else the string", () => {
    assert.deepEqual(typed(["maybe=null"]).args, { maybe: null });
    assert.deepEqual(typed(["maybe=2"]).args, { maybe: "2" });
  });

  test("anyOf of simple types: the most specific reading wins", () => {
    assert.deepEqual(typed(["either=2"]).args, { either: 2 });
    assert.deepEqual(typed(["either=two"]).args, { either: "two" });
  });

  test("enums and consts: a member as written, or as JSON", () => {
    assert.deepEqual(typed(["mode=fast", "level=2", "fixed=v1"]).args, { mode: "fast", level: 2, fixed: "v1" });
  });

  test("a property with no type: JSON when it parses, else the text", () => {
    assert.deepEqual(typed(["loose=3"]).args, { loose: 3 });
    assert.deepEqual(typed(['loose={"x":[1]}']).args, { loose: { x: [1] } });
    assert.deepEqual(typed(["loose=hello"]).args, { loose: "hello" });
  });

  test("a key named __proto__ is an argument like any other", () => {
    const { args } = typed(["__proto__=1", "loose={__proto__:2}"], undefined);
    assert.deepEqual(Object.keys(args), ["__proto__", "loose"]);
    assert.equal(Object.getPrototypeOf(args), Object.prototype);
    assert.equal(JSON.stringify(args), '{"__proto__":1,"loose":{"__proto__":2}}');
  });

  test("key:=JSON takes the JSON value as written", () => {
    assert.deepEqual(typed(['name:="2"', "loose:=[1,2]"]).args, { name: "2", loose: [1, 2] });
  });

  test("no schema at all: every value JSON when it parses, else the text", () => {
    assert.deepEqual(typed(["x=1", "y=hi", "z=[1]"], undefined).args, { x: 1, y: "hi", z: [1] });
  });
});

describe("values that do not fit", () => {
  test("a number property given a word", () => {
    rejects(() => typed(["a=abc"]), "type-mismatch", /server "s", tool "t": argument a=abc does not fit a: number; write a number, e\.g\. a=42/);
  });

  test("an integer property given a fraction", () => {
    rejects(() => typed(["n=1.5"]), "type-mismatch", /n=1\.5 does not fit n: number; write a whole number/);
  });

  test("a number property given hex or nothing", () => {
    rejects(() => typed(["a=0x10"]), "type-mismatch", /a=0x10/);
    rejects(() => typed(["a="]), "type-mismatch", /a= does not fit/);
  });

  test("a boolean property given yes", () => {
    rejects(() => typed(["flag=yes"]), "type-mismatch", /flag=yes does not fit flag: boolean; write flag=true or flag=false/);
  });

  test("an array property given a single word", () => {
    rejects(() => typed(["tags=x"]), "type-mismatch", /tags=x does not fit tags: string\[\]; write a list, e\.g\. tags=\[x,y\]/);
  });

  test("an array whose item does not fit", () => {
    rejects(() => typed(["counts=[1,x]"]), "type-mismatch", /counts=\[1,x\] does not fit counts: number\[\]/);
  });

  test("an object property given text that is not a JSON object", () => {
    rejects(() => typed(["nested=k:1"]), "type-mismatch", /nested=k:1 does not fit nested: \{ k: number \}; write a JSON object/);
    rejects(() => typed(['nested={"j":1}']), "type-mismatch", /does not fit nested/);
  });

  test("a loose value that is not well formed", () => {
    rejects(() => typed(["tags=[a,,b]"]), "type-mismatch", /tags=\[a,,b\] does not fit/);
    rejects(() => typed(["nested={k:1"]), "type-mismatch", /does not fit nested/);
    rejects(() => typed(["nested={k:1,k:2}"]), "type-mismatch", /does not fit nested/);
    rejects(() => typed(["nested={k:x}"]), "type-mismatch", /does not fit nested: \{ k: number \}/);
  });

  test("brackets nested 100,000 deep are refused, not a stack overflow", () => {
    rejects(() => typed([`tags=${"[".repeat(100_000)}${"]".repeat(100_000)}`]), "type-mismatch", /does not fit tags/);
  });

  test("an enum property given a value outside it", () => {
    rejects(() => typed(["mode=medium"]), "type-mismatch", /mode=medium is not one of "fast", "slow"/);
    rejects(() => typed(["level=4"]), "type-mismatch", /level=4 is not one of 1, 2, 3/);
  });

  test("key:=JSON that is not JSON, or not of the type", () => {
    rejects(() => typed(["a:=abc"]), "not-json", /a:= needs a JSON value/);
    rejects(() => typed(['a:="2"']), "type-mismatch", /does not fit a: number/);
  });
});

describe("a hostile server's schema", () => {
  test("anyOf nested in anyOf (2^40 branches) types a value within a bounded effort", () => {
    let bomb: Record<string, unknown> = { type: "number" };
    for (let i = 0; i < 40; i++) bomb = { anyOf: [bomb, bomb] };
    assert.deepEqual(typed(["x=2", "y=[1,2]"], { type: "object", properties: { x: bomb, y: { type: "array", items: bomb } } }).args, { x: 2, y: [1, 2] });
  });

  test("a schema nested 100,000 levels deep does not overflow the stack", () => {
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 100_000; i++) deep = { type: "array", items: deep };
    // Arrays all the way down: [[a]] is two levels short of it.
    rejects(() => typed(["x=[[a]]"], { type: "object", properties: { x: deep } }), "type-mismatch", /does not fit x: …(\[\])+;/);
    // Past the depth the typing follows, a value is taken as written (the server judges it).
    const { args } = typed([`x=${"[".repeat(40)}a${"]".repeat(40)}`], { type: "object", properties: { x: deep } });
    assert.equal(JSON.stringify(args), `{"x":${"[".repeat(40)}"a"${"]".repeat(40)}}`);
  });
});

describe("required and unknown parameters", () => {
  const sum = { type: "object", properties: { a: { type: "number" }, b: { type: "number", description: "Second number" } }, required: ["a", "b"] };

  test("a missing required argument is named with its type and description", () => {
    rejects(() => typed(["a=2"], sum), "missing-required", /tool "t": missing the required argument b \(number: Second number\); add b=…/);
  });

  test("several missing required arguments are all named", () => {
    rejects(() => typed([], sum), "missing-required", /missing the required arguments a \(number\), b \(number: Second number\); add a=… b=…/);
  });

  test("a required name the schema does not describe (constructor) is named all the same", () => {
    rejects(() => typed([], { type: "object", required: ["constructor"] }), "missing-required", /missing the required argument constructor \(unknown\)/);
  });

  test("the JSON form is checked for required arguments too", () => {
    rejects(() => typed(['{"a":2}'], sum), "missing-required", /argument b/);
  });

  test("a key the schema does not list is sent, with a warning and a suggestion", () => {
    const { args, warnings } = typed(["count=1", "cuont=3"], { type: "object", properties: { count: { type: "number" }, name: {} } });
    assert.deepEqual(args, { count: 1, cuont: 3 });
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /"cuont" is not a parameter its schema lists \(it lists count, name\); sent as given; did you mean "count"\?/);
  });

  test("a key the schema does not list is refused where no others are allowed", () => {
    rejects(() => typed(["a=1", "b=2", "c=3"], { ...sum, additionalProperties: false }), "unknown-parameter", /has no parameter "c" \(it lists a, b\)/);
  });

  test("a misspelt required parameter leads the refusal with its nearest name, in words and in a JSON object", () => {
    const echo = { type: "object", properties: { message: { type: "string" } }, required: ["message"] };
    for (const words of [["mesage=hi"], ['{"mesage":"hi"}']]) {
      rejects(
        () => typed(words, echo),
        "unknown-parameter",
        /^server "s", tool "t" has no parameter "mesage" \(did you mean "message"\?\), and misses the required argument message/,
      );
    }
    // A JSON object's unlisted key: sent as written, with the warning the words get.
    const { args, warnings } = typed(['{"count":1,"cuont":3}'], { type: "object", properties: { count: { type: "number" } } });
    assert.deepEqual(args, { count: 1, cuont: 3 });
    assert.match(warnings[0] ?? "", /"cuont" is not a parameter its schema lists \(it lists count\); sent as given; did you mean "count"\?/);
    rejects(() => typed(['{"a":1,"c":3}'], { ...sum, additionalProperties: false }), "unknown-parameter", /has no parameter "c" \(it lists a, b\)/);
  });

  test("keys beyond the listed ones are typed by additionalProperties", () => {
    const map = { type: "object", additionalProperties: { type: "string" } };
    assert.deepEqual(typed(["x=2"], map).args, { x: "2" });
  });
});

describe("--args-file", () => {
  const dir = mkdtempSync(join(tmpdir(), "mcpwire-call-args-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const files = { file: (path: string) => runtime.readTextFile(path), stdin: () => Promise.resolve('{"a":1}') };

  test("a file holding a JSON object", async () => {
    const path = join(dir, "args.json");
    writeFileSync(path, '{"a": 2, "b": 40}\n');
    assert.deepEqual(await readArgumentsFile(path, files), { form: "object", value: { a: 2, b: 40 } });
  });

  test("- reads stdin", async () => {
    assert.deepEqual(await readArgumentsFile("-", files), { form: "object", value: { a: 1 } });
  });

  test("a file that does not exist is named", async () => {
    await rejectsAsync(() => readArgumentsFile(join(dir, "absent.json"), files), "args-file", /cannot read --args-file ".*absent\.json": no such file/);
  });

  test("a directory is not a file", async () => {
    await rejectsAsync(() => readArgumentsFile(dir, files), "args-file", /cannot read --args-file/);
  });

  test("an empty file, or empty stdin", async () => {
    const path = join(dir, "empty.json");
    writeFileSync(path, "  \n");
    await rejectsAsync(() => readArgumentsFile(path, files), "not-json", /is empty/);
    await rejectsAsync(() => readArgumentsFile("-", { ...files, stdin: () => Promise.resolve("") }), "not-json", /stdin \(--args-file -\) is empty/);
  });

  test("a file that is not JSON, or not an object", async () => {
    const bad = join(dir, "bad.json");
    writeFileSync(bad, "a=1");
    await rejectsAsync(() => readArgumentsFile(bad, files), "not-json", /bad\.json" is not valid JSON/);
    const list = join(dir, "list.json");
    writeFileSync(list, "[1]");
    await rejectsAsync(() => readArgumentsFile(list, files), "not-object", /must be a JSON object/);
  });
});

describe("arguments nested too deep", () => {
  const dir = mkdtempSync(join(tmpdir(), "mcpwire-call-deep-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  /** `{"a":[[[…]]]}`: the arguments object, and `levels` levels of arrays in it. */
  const deep = (levels: number) => `{"a":${"[".repeat(levels)}${"]".repeat(levels)}}`;
  const tooDeep = new RegExp(`is nested deeper than ${MAX_ARGUMENTS_DEPTH} levels, the most mcpwire sends as a tool's arguments; flatten it`);

  test("100,000 levels in the JSON argument, an args file or stdin: a usage error naming the limit, not a stack overflow", async () => {
    rejects(() => parseArgumentWords([deep(100_000)]), "too-deep", new RegExp(`^the JSON argument ${tooDeep.source}`));
    const path = join(dir, "deep.json");
    writeFileSync(path, deep(100_000));
    const sources = { file: (file: string) => runtime.readTextFile(file), stdin: () => Promise.resolve(deep(100_000)) };
    await rejectsAsync(() => readArgumentsFile(path, sources), "too-deep", new RegExp(`^--args-file ".*deep\\.json" ${tooDeep.source}`));
    await rejectsAsync(() => readArgumentsFile("-", sources), "too-deep", new RegExp(`^stdin \\(--args-file -\\) ${tooDeep.source}`));
    // A top-level array is as deep: the depth is told before the shape.
    rejects(() => parseArgumentWords(["[".repeat(100_000) + "]".repeat(100_000)]), "too-deep", tooDeep);
  });

  test("arguments exactly as deep as the limit are taken", () => {
    assert.equal(typed([deep(MAX_ARGUMENTS_DEPTH - 1)], {}).args.a !== undefined, true);
    rejects(() => parseArgumentWords([deep(MAX_ARGUMENTS_DEPTH)]), "too-deep", tooDeep);
  });

  test("a key=value or key:=JSON value too deep is refused naming the argument", () => {
    const levels = (n: number) => "[".repeat(n) + "]".repeat(n);
    rejects(() => typed([`loose:=${levels(100_000)}`]), "too-deep", new RegExp(`^server "s", tool "t": argument loose ${tooDeep.source}`));
    rejects(() => typed([`loose=${levels(100_000)}`]), "too-deep", /argument loose is nested deeper/);
    rejects(() => typed([`loose=${levels(MAX_ARGUMENTS_DEPTH)}`]), "too-deep", /argument loose is nested deeper/);
    assert.equal(JSON.stringify(typed([`loose=${levels(MAX_ARGUMENTS_DEPTH - 1)}`]).args.loose), levels(MAX_ARGUMENTS_DEPTH - 1));
    // Text that only looks deep stays text where the schema asks for a string.
    assert.equal(typed([`name=${levels(100_000)}`]).args.name, levels(100_000));
  });
});
