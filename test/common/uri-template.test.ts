// RFC 6570 expansion (src/common/uri-template.ts) on the RFC's own examples of levels 1–3
// (section 1.2), with what it refuses: level 4 modifiers, and a variable without a value; and
// templateSyntaxProblem, which reads all four levels to say whether a string is a template at all.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { expandTemplate, templateSyntaxProblem, templateVariables, UriTemplateError } from "../../src/common/uri-template.ts";

// RFC 6570 section 1.2's variables.
const VALUES = { var: "value", hello: "Hello World!", path: "/foo/bar", empty: "", x: "1024", y: "768" };

describe("expandTemplate", () => {
  const cases: [string, string][] = [
    // Level 1
    ["{var}", "value"],
    ["{hello}", "Hello%20World%21"],
    // Level 2
    ["{+var}", "value"],
    ["{+hello}", "Hello%20World!"],
    ["{+path}/here", "/foo/bar/here"],
    ["here?ref={+path}", "here?ref=/foo/bar"],
    ["X{#var}", "X#value"],
    ["X{#hello}", "X#Hello%20World!"],
    // Level 3
    ["map?{x,y}", "map?1024,768"],
    ["{x,hello,y}", "1024,Hello%20World%21,768"],
    ["{+x,hello,y}", "1024,Hello%20World!,768"],
    ["{+path,x}/here", "/foo/bar,1024/here"],
    ["{#x,hello,y}", "#1024,Hello%20World!,768"],
    ["X{.var}", "X.value"],
    ["X{.x,y}", "X.1024.768"],
    ["{/var}", "/value"],
    ["{/var,x}/here", "/value/1024/here"],
    ["{;x,y}", ";x=1024;y=768"],
    ["{;x,y,empty}", ";x=1024;y=768;empty"],
    ["{?x,y}", "?x=1024&y=768"],
    ["{?x,y,empty}", "?x=1024&y=768&empty="],
    ["?fixed=yes{&x}", "?fixed=yes&x=1024"],
  ];
  for (const [template, expected] of cases) {
    test(`${template} → ${expected}`, () => assert.equal(expandTemplate(template, VALUES), expected));
  }

  test("a pct-encoded triplet is kept by {+var}, encoded by {var}; non-ASCII as UTF-8", () => {
    assert.equal(expandTemplate("{+v}", { v: "a%20b" }), "a%20b");
    assert.equal(expandTemplate("{v}", { v: "a%20b" }), "a%2520b");
    assert.equal(expandTemplate("{v}", { v: "é" }), "%C3%A9");
  });

  test("a variable without a value is a missing-variable error naming it", () => {
    assert.throws(() => expandTemplate("demo://{a}/{b}", { a: "1" }), (error: unknown) => {
      assert.ok(error instanceof UriTemplateError);
      assert.equal(error.code, "missing-variable");
      assert.deepEqual(error.missing, ["b"]);
      return true;
    });
  });

  test("level 4 modifiers are refused as unsupported", () => {
    for (const template of ["{var:3}", "{list*}"]) {
      assert.throws(() => templateVariables(template), (error: unknown) => error instanceof UriTemplateError && error.code === "unsupported-template");
    }
  });

  test("templateVariables lists each variable once, in order", () => {
    assert.deepEqual(templateVariables("x://{+a}{#b}/{a}{?c,b}"), ["a", "b", "c"]);
  });
});

describe("templateSyntaxProblem", () => {
  test("the templates of RFC 6570 section 1.2, levels 1 to 4, and the spec's file:///{path} are templates", () => {
    const templates = [
      "file:///{path}",
      "{var}",
      "{+path}/here",
      "X{#var}",
      "{x,y}",
      "{?x,y,empty}",
      "X{.var}",
      "{/var,x}/here",
      "{;x,y}",
      "?fixed=yes{&x}",
      "{var:3}",
      "{/list*,path:4}",
      "{?keys*}",
      "http://example.com/%E2%82%AC/{id}",
      "café://{x}",
    ];
    for (const template of templates) assert.equal(templateSyntaxProblem(template), undefined, template);
  });

  test("what is not a template says where and why", () => {
    const cases: [string, RegExp][] = [
      ["file:///{path", /not closed/],
      ["a}b", /closes no expression/],
      ["{a{b}}", /holds a "\{"/],
      ["{}", /empty variable name/],
      ["{table name}", /"table name" is not a variable name/],
      ["{=x}", /reserved by RFC 6570/],
      ["{x:0}", /not a variable name/],
      ["{x:10000}", /not a variable name/],
      ["a b/{x}", /" " at offset 1/],
      ["100%/{x}", /"%" at offset 3/],
      ['say"{x}"', /may not stand outside/],
    ];
    for (const [template, why] of cases) assert.match(templateSyntaxProblem(template) ?? "valid", why, template);
  });
});
