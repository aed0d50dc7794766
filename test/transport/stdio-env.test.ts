// The environment of a stdio server started by StdioTransport: by default a safe baseline of
// ours (PATH, HOME, …) plus the `env` given, as a config file's `env` and the official SDK do;
// "exact" and "inherit" on request; and a command that is not found names the PATH searched.
// The child is this test's own runtime (Node or Deno) running a fixture that prints its env.

import assert from "node:assert/strict";
import process from "node:process";
import { type CloseDetails, type JsonRpcMessage, StdioTransport, type StdioTransportOptions, TransportError } from "../../src/mod.ts";
import { behaviour } from "../support/behaviour.ts";
import { fixturePath } from "../support/fixture-process.ts";
import { hangGuard } from "../support/hang-guard.ts";

/** What follows process.execPath to run a plain script with this runtime. */
const scriptArgs = "Deno" in globalThis ? ["run", "-A"] : [];
const PARENT_ONLY = "MCPWIRE_TEST_PARENT_ONLY";

/** The environment the fixture child sees when started with these options. */
async function childEnv(options: Partial<StdioTransportOptions>): Promise<Record<string, string>> {
  const transport = new StdioTransport({ command: process.execPath, args: [...scriptArgs, fixturePath("print-env.mjs")], ...options });
  const seen = new Promise<Record<string, string>>((resolve, reject) => {
    transport.onmessage = (message: JsonRpcMessage) => {
      if ("method" in message && message.method === "env") resolve(message.params as Record<string, string>);
    };
    transport.onclose = (details: CloseDetails) => reject(new Error(`the child ended without printing its env: ${details.reason}`));
  });
  await transport.start();
  try {
    return await hangGuard(seen, 20_000, "the env-printing child");
  } finally {
    await transport.close();
  }
}

/** Runs `body` with a variable set in our environment that the baseline does not pass on. */
async function withParentOnly(body: () => Promise<void>): Promise<void> {
  process.env[PARENT_ONLY] = "parent";
  try {
    await body();
  } finally {
    delete process.env[PARENT_ONLY];
  }
}

behaviour("by default the child sees the baseline (PATH, HOME) and its env, not another variable of ours", () =>
  withParentOnly(async () => {
    const env = await childEnv({ env: { FOO: "1" } });
    assert.equal(env.FOO, "1");
    assert.ok(process.env.PATH !== undefined && env.PATH?.endsWith(process.env.PATH), `PATH: ${env.PATH}`);
    if (process.env.HOME !== undefined) assert.equal(env.HOME, process.env.HOME);
    assert.equal(env[PARENT_ONLY], undefined, "a variable outside the baseline leaked into the child");
  }));

behaviour("the env given wins over the baseline variable of the same name", async () => {
  const env = await childEnv({ env: { HOME: "/mcpwire-test-home" } });
  assert.equal(env.HOME, "/mcpwire-test-home");
});

behaviour("with envMode exact the child sees only the env given", async () => {
  // What the runtime itself adds to a child's environment (Deno sets a few of its own).
  const own = await childEnv({ env: {}, envMode: "exact" });
  assert.equal(own.HOME, undefined);
  await withParentOnly(async () => {
    assert.deepEqual(await childEnv({ env: { FOO: "1" }, envMode: "exact" }), { ...own, FOO: "1" });
  });
});

behaviour("with envMode inherit the child sees all of ours plus its env", () =>
  withParentOnly(async () => {
    const env = await childEnv({ env: { FOO: "1" }, envMode: "inherit" });
    assert.equal(env.FOO, "1");
    assert.equal(env[PARENT_ONLY], "parent");
  }));

behaviour("a command not found at spawn names the PATH searched, whole when short and bounded when long", async () => {
  const path = "/mcpwire-test/bin-a:/mcpwire-test/bin-b";
  const short = new StdioTransport({ command: "mcpwire-test-no-such-command", env: { PATH: path } });
  await assert.rejects(short.start(), (error: unknown) => {
    assert.ok(error instanceof TransportError, String(error));
    assert.equal(error.code, "ENOENT");
    assert.ok(error.message.includes(`PATH searched: ${path}`), error.message);
    return true;
  });
  await short.close();
  const long = new StdioTransport({ command: "mcpwire-test-no-such-command", env: { PATH: `/mcpwire-test/${"d".repeat(20_000)}` } });
  await assert.rejects(long.start(), (error: unknown) => {
    assert.ok(error instanceof TransportError, String(error));
    assert.match(error.message, /PATH searched: \/mcpwire-test\/d+…/);
    assert.ok(error.message.length < 2_000, `${error.message.length} characters`);
    return true;
  });
  await long.close();
});

behaviour("a shell's exit 127 for a command not found names the PATH it searched", async () => {
  const path = `/mcpwire-test/bin:${process.env.PATH ?? "/usr/bin:/bin"}`;
  const transport = new StdioTransport({ command: "sh", args: ["-c", "mcpwire-test-no-such-command"], env: { PATH: path } });
  const closed = new Promise<CloseDetails>((resolve) => (transport.onclose = resolve));
  await transport.start();
  try {
    const details = await hangGuard(closed, 20_000, "the shell's exit");
    assert.equal(details.exitCode, 127);
    assert.ok(details.reason.includes(`PATH searched: ${path}`), details.reason);
  } finally {
    await transport.close();
  }
}, { skip: process.platform === "win32" && "needs a POSIX sh" });
