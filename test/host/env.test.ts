// Tests of the child-environment policy: the safe baseline, the server's env on top, nothing
// else — proved end to end with server-everything's get-env tool over stdio.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { CHILD_ENV_BASELINE, CHILD_ENV_BASELINE_WINDOWS, childEnvironment, isBaselineVariable } from "../../src/host/env.ts";
import { Client, StdioTransport, type TextContent } from "../../src/mod.ts";
import { runtime } from "../../src/runtime/mod.ts";

const EVERYTHING = fileURLToPath(
  new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url),
);

const PARENT = {
  PATH: "/usr/bin:/bin",
  HOME: "/home/ada",
  USER: "ada",
  LOGNAME: "ada",
  SHELL: "/bin/zsh",
  TERM: "xterm-256color",
  LANG: "en_GB.UTF-8",
  LC_ALL: "C.UTF-8",
  LC_CTYPE: "UTF-8",
  TMPDIR: "/tmp",
  TZ: "Europe/London",
  XDG_CONFIG_HOME: "/home/ada/.config",
  XDG_RUNTIME_DIR: "/run/user/1000",
  GITHUB_TOKEN: "ghp_secret",
  AWS_SECRET_ACCESS_KEY: "aws-secret",
  OPENAI_API_KEY: "sk-secret",
  NODE_OPTIONS: "--require /tmp/evil.js",
  HTTPS_PROXY: "http://user:pass@proxy:8080",
};

describe("childEnvironment", () => {
  test("passes the baseline and every XDG_* variable, and no other variable of the parent", () => {
    const env = childEnvironment({}, PARENT, { windows: false });
    const expected = Object.fromEntries(
      Object.entries(PARENT).filter(([name]) => CHILD_ENV_BASELINE.includes(name) || name.startsWith("XDG_")),
    );
    assert.deepEqual(env, expected);
    for (const secret of ["GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "OPENAI_API_KEY", "NODE_OPTIONS", "HTTPS_PROXY"]) {
      assert.equal(env[secret], undefined, `${secret} leaked`);
    }
  });

  test("the baseline names the variables the policy promises", () => {
    for (const name of ["PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "TZ"]) {
      assert.ok(CHILD_ENV_BASELINE.includes(name), name);
    }
    for (const name of ["SYSTEMROOT", "APPDATA", "LOCALAPPDATA", "PATHEXT", "TEMP", "TMP", "USERPROFILE", "COMSPEC"]) {
      assert.ok(CHILD_ENV_BASELINE_WINDOWS.includes(name), name);
    }
  });

  test("the server's env is added and wins over the baseline", () => {
    const env = childEnvironment({ PATH: "/opt/server/bin", API_KEY: "for-this-server" }, PARENT, { windows: false });
    assert.equal(env.PATH, "/opt/server/bin");
    assert.equal(env.API_KEY, "for-this-server");
    assert.equal(env.HOME, "/home/ada");
    assert.equal(env.GITHUB_TOKEN, undefined);
  });

  test("a baseline variable the parent does not have is absent, not empty", () => {
    const env = childEnvironment({}, { PATH: "/bin", TZ: undefined }, { windows: false });
    assert.deepEqual(env, { PATH: "/bin" });
  });

  test("the server may pass on a parent's secret only by naming it in its env", () => {
    // What `env: { GITHUB_TOKEN: ${GITHUB_TOKEN} }` in a config becomes after interpolation.
    const env = childEnvironment({ GITHUB_TOKEN: PARENT.GITHUB_TOKEN }, PARENT, { windows: false });
    assert.equal(env.GITHUB_TOKEN, "ghp_secret");
    assert.equal(env.OPENAI_API_KEY, undefined);
  });

  test("POSIX names are case-sensitive: Path is not PATH", () => {
    assert.deepEqual(childEnvironment({}, { Path: "C:\\bin", path: "x" }, { windows: false }), {});
    assert.equal(isBaselineVariable("Path", { windows: false }), false);
  });

  test("on Windows the extra variables pass, matched in any case, keeping their spelling", () => {
    const parent = {
      Path: "C:\\Windows\\system32",
      SystemRoot: "C:\\Windows",
      APPDATA: "C:\\Users\\ada\\AppData\\Roaming",
      ComSpec: "C:\\Windows\\system32\\cmd.exe",
      PATHEXT: ".COM;.EXE;.BAT",
      USERPROFILE: "C:\\Users\\ada",
      GITHUB_TOKEN: "ghp_secret",
    };
    const env = childEnvironment({}, parent, { windows: true });
    assert.deepEqual(env, {
      Path: parent.Path,
      SystemRoot: parent.SystemRoot,
      APPDATA: parent.APPDATA,
      ComSpec: parent.ComSpec,
      PATHEXT: parent.PATHEXT,
      USERPROFILE: parent.USERPROFILE,
    });
  });

  test("on Windows the server's PATH replaces the parent's Path instead of sitting beside it", () => {
    const env = childEnvironment({ PATH: "D:\\tools" }, { Path: "C:\\Windows", TEMP: "C:\\Temp" }, { windows: true });
    assert.deepEqual(env, { TEMP: "C:\\Temp", PATH: "D:\\tools" });
  });

  test("the defaults read this process's environment with this platform's rules", () => {
    const ours = runtime.env();
    const env = childEnvironment();
    for (const [name, value] of Object.entries(env)) {
      assert.ok(isBaselineVariable(name), `${name} is not in the baseline`);
      assert.equal(value, ours[name]);
    }
    if (ours.PATH !== undefined) assert.equal(env.PATH, ours.PATH);
  });
});

describe("childEnvironment end to end: server-everything's get-env", () => {
  test("a secret in the parent environment never reaches the child; the server's env does", async () => {
    const parent: Record<string, string> = { ...runtime.env(), MCPWIRE_SECRET: "s3cret", GITHUB_TOKEN: "ghp_also_secret" };
    const env = childEnvironment({ MY_VAR: "x" }, parent);
    const client = new Client({ name: "mcpwire-tests", version: "1.0.0" }, { name: "everything", requestTimeoutMs: 20_000 });
    const stderr: string[] = [];
    await client.connect(
      new StdioTransport({ command: "node", args: [EVERYTHING, "stdio"], env, onStderr: (line) => stderr.push(line) }),
    );
    try {
      const result = await client.callTool("get-env", {});
      assert.notEqual(result.isError, true, stderr.join("\n"));
      const text = result.content
        .filter((block): block is TextContent => block.type === "text")
        .map((block) => block.text)
        .join("\n");
      const seen = JSON.parse(text) as Record<string, string>;
      assert.equal(seen.MY_VAR, "x");
      assert.equal(seen.MCPWIRE_SECRET, undefined, "the secret leaked into the child");
      assert.equal(seen.GITHUB_TOKEN, undefined, "GITHUB_TOKEN leaked into the child");
      assert.ok(!text.includes("s3cret"), "the secret's value appears in the child's environment");
      if (parent.PATH !== undefined) assert.equal(seen.PATH, parent.PATH);
      for (const name of Object.keys(seen)) {
        assert.ok(name === "MY_VAR" || isBaselineVariable(name), `the child sees ${name}, which the policy does not pass`);
      }
    } finally {
      await client.close();
    }
  });
});
