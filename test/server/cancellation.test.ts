// Cancellation both ways and progress through the server half: a host's notifications/cancelled
// aborts the handler's signal; the requests a handler sent the host are cancelled with it;
// context.progress uses the host's own token — spec 2025-11-25 basic/utilities/cancellation,
// basic/utilities/progress (both eras).

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Progress } from "../../src/jsonrpc/peer.ts";
import { demoWithClient, until } from "./demo-server.ts";

describe("cancellation and progress", () => {
  for (const protocol of ["modern", "legacy"] as const) {
    test(`${protocol}: progress reaches the host under its token; the host's cancel aborts the handler's signal`, async () => {
      const { server, client, log } = await demoWithClient({ protocol });
      try {
        const progress: Progress[] = [];
        const controller = new AbortController();
        const call = client.callTool("wait", {}, { signal: controller.signal, onProgress: (update) => progress.push(update) });
        await until(() => progress.length === 1 && log.aborted.length === 1, "the progress and the wait");
        assert.deepEqual(progress, [{ progress: 1, total: 2, message: "waiting" }]);
        const token = log.contexts.at(-1)!.meta?.progressToken;
        assert.ok(typeof token === "number" || typeof token === "string", "the request carried a token");
        controller.abort(new Error("the user stopped it"));
        await assert.rejects(call, /cancelled by the caller/);
        const reason = await log.aborted[0]!;
        assert.match(String((reason as Error).message), /cancelled by the peer/);
      } finally {
        await client.close();
        await server.close();
      }
    });
  }

  test("a request the handler sent the host is cancelled when the host cancels the request it answers", async () => {
    let samplingSignal: AbortSignal | undefined;
    const { server, client } = await demoWithClient({
      protocol: "legacy",
      handlers: {
        sampling: (_request, context) => {
          samplingSignal = context.signal;
          return new Promise((_resolve, reject) => context.signal.addEventListener("abort", () => reject(new Error("stopped")), { once: true }));
        },
      },
    });
    try {
      const controller = new AbortController();
      const call = client.callTool("ask", { method: "sampling/createMessage", params: { messages: [], maxTokens: 5 } }, { signal: controller.signal });
      await until(() => samplingSignal !== undefined, "the sampling request at the host");
      assert.equal(samplingSignal!.aborted, false);
      controller.abort();
      await assert.rejects(call);
      await until(() => samplingSignal!.aborted, "the host's sampling handler told to stop");
    } finally {
      await client.close();
      await server.close();
    }
  });
});
