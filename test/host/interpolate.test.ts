// Tests of `${VAR}` interpolation: values, defaults, unset variables, the `$$` escape, malformed references.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { interpolate, InterpolationError } from "../../src/host/config/interpolate.ts";

const env = { HOME: "/home/ada", TOKEN: "t0k", EMPTY: "", PORT: "8080" };

function unsetError(text: string): InterpolationError {
  try {
    interpolate(text, env);
  } catch (error) {
    assert.ok(error instanceof InterpolationError, `not an InterpolationError: ${error}`);
    return error;
  }
  assert.fail(`interpolate(${JSON.stringify(text)}) did not throw`);
}

describe("interpolate", () => {
  test("text without a $ comes back unchanged", () => {
    assert.equal(interpolate("plain text {braces}", env), "plain text {braces}");
  });

  test("${NAME} is replaced by the variable's value, several times in one string", () => {
    assert.equal(interpolate("${HOME}/bin", env), "/home/ada/bin");
    assert.equal(interpolate("Bearer ${TOKEN} on ${HOME}:${PORT}", env), "Bearer t0k on /home/ada:8080");
  });

  test("a variable set to the empty string gives the empty string", () => {
    assert.equal(interpolate("[${EMPTY}]", env), "[]");
  });

  test("${NAME:-default} uses the value when set, the default when unset or empty", () => {
    assert.equal(interpolate("${PORT:-3000}", env), "8080");
    assert.equal(interpolate("${NOPE:-3000}", env), "3000");
    assert.equal(interpolate("${EMPTY:-fallback}", env), "fallback");
    assert.equal(interpolate("${NOPE:-}", env), "");
  });

  test("a default may hold colons, slashes and spaces, and references of its own", () => {
    assert.equal(interpolate("${URL:-http://localhost:3000/mcp}", env), "http://localhost:3000/mcp");
    assert.equal(interpolate("${A:-one two}", env), "one two");
    assert.equal(interpolate("${A:-${HOME}/x}", env), "/home/ada/x");
    assert.equal(interpolate("${A:-${B:-deep}}!", env), "deep!");
  });

  test("an unset variable without a default throws, naming the variable and how to fix it", () => {
    const error = unsetError("Bearer ${GITHUB_TOKEN}");
    assert.equal(error.code, "unset-variable");
    assert.equal(error.variable, "GITHUB_TOKEN");
    assert.match(error.message, /\$\{GITHUB_TOKEN\} is not set/);
    assert.match(error.message, /\$\{GITHUB_TOKEN:-default\}/);
  });

  test("every unset variable in a string is named, including ones inside a default", () => {
    const error = unsetError("${A}-${TOKEN}-${B}-${C:-${D}}");
    assert.deepEqual(error.variables, ["A", "B", "D"]);
    assert.match(error.message, /\$\{A\}, \$\{B\} and \$\{D\} are not set/);
  });

  test("$$ is a literal $, so $${NAME} is the text ${NAME}", () => {
    assert.equal(interpolate("$${HOME}", env), "${HOME}");
    assert.equal(interpolate("cost: $$5", env), "cost: $5");
    assert.equal(interpolate("$$${PORT}", env), "$8080");
    assert.equal(interpolate("$$$$", env), "$$");
    assert.equal(interpolate("${A:-$${literal}}", env), "${literal}");
  });

  test("a $ not followed by { or $ is left alone: $HOME is not interpolated", () => {
    assert.equal(interpolate("$HOME and $ and 5$", env), "$HOME and $ and 5$");
  });

  test("a malformed reference is a syntax error saying what is allowed", () => {
    for (const text of ["${HOME", "x ${A:-${B}", "${}", "${1ABC}", "${A B}", "${A-default}"]) {
      try {
        interpolate(text, env);
        assert.fail(`${text} did not throw`);
      } catch (error) {
        assert.ok(error instanceof InterpolationError, `${text}: ${error}`);
        assert.equal(error.code, "bad-interpolation", text);
        assert.match(error.message, /\$\{NAME\}/, text);
        assert.match(error.message, /\$\$\{ for a literal/, text);
      }
    }
  });
});
