// Log levels through the server half: on the handshake era `logging/setLevel` is recorded for the
// session (and passed to the handlers) and filters notifications/message; on 2026-07-28 each
// request's `io.modelcontextprotocol/logLevel` does, and a request without it gets none — spec
// 2025-11-25 server/utilities/logging; spec 2026-07-28 server/utilities/logging.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { LogMessage } from "../../src/client/types.ts";
import { demoWithClient } from "./demo-server.ts";

/** Calls the demo's "log" tool (debug, info, warning, error) and returns the levels the host got. */
async function levelsLogged(client: import("../../src/client/client.ts").Client): Promise<string[]> {
  const got: LogMessage[] = [];
  const off = client.on("log", (message) => got.push(message));
  try {
    await client.callTool("log", {});
    // The notifications went out before the answer, in order: nothing more to wait for.
    return got.map((message) => message.level);
  } finally {
    off();
  }
}

describe("log levels", () => {
  test("handshake era: none before logging/setLevel; then those at or above it; the handler saw the setLevel", async () => {
    const { server, client, log } = await demoWithClient({ protocol: "legacy" });
    try {
      assert.deepEqual(await levelsLogged(client), []);
      await client.setLoggingLevel("warning");
      assert.ok(log.contexts.some((context) => context.method === "logging/setLevel"), "passed to the handlers");
      assert.equal([...server.sessions.values()][0]!.host?.logLevel, "warning");
      assert.deepEqual(await levelsLogged(client), ["warning", "error"]);
      // A session's own notifications/message are filtered by the same level.
      const got: string[] = [];
      client.on("log", (message) => got.push(message.level));
      await server.broadcast("notifications/message", { level: "info", data: "dropped" });
      await server.broadcast("notifications/message", { level: "error", data: "kept" });
      await client.ping();
      assert.deepEqual(got, ["error"]);
    } finally {
      await client.close();
      await server.close();
    }
  });

  test("2026-07-28: none without the request's log level; with it, those at or above it", async () => {
    const { server, client, log } = await demoWithClient({ protocol: "modern" });
    try {
      assert.deepEqual(await levelsLogged(client), []);
      assert.equal(log.contexts.at(-1)!.host.logLevel, undefined);
      await client.setLoggingLevel("info");
      assert.deepEqual(await levelsLogged(client), ["info", "warning", "error"]);
      assert.equal(log.contexts.at(-1)!.host.logLevel, "info");
    } finally {
      await client.close();
      await server.close();
    }
  });
});
