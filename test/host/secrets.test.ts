// The host's secrets (src/host/secrets.ts): the config's credentials in one Redactor, errors and
// server data copied for events with every secret replaced and every depth bounded.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { depthMarker } from "../../src/common/bounded.ts";
import { REDACTED, Redactor } from "../../src/common/redact.ts";
import type { McpwireConfig } from "../../src/host/config/types.ts";
import { configSecrets, redactedCopy, redactError, redactorFor } from "../../src/host/secrets.ts";
import { ConnectionClosedError, RpcError } from "../../src/jsonrpc/errors.ts";

const SECRET = "s3cret-value-0042";

describe("redactError", () => {
  test("the copy keeps the error's class and fields; message, stack and fields are redacted", () => {
    const error = new ConnectionClosedError(`connection closed; last stderr: token ${SECRET}`, {
      details: { reason: `exited, said ${SECRET}`, stderrTail: [`token ${SECRET}`, "bye"] },
    });
    const copy = redactError(error, new Redactor([SECRET]));
    assert.ok(copy instanceof ConnectionClosedError);
    assert.equal(copy.name, "ConnectionClosedError");
    assert.equal(copy.message, `connection closed; last stderr: token ${REDACTED}`);
    assert.ok(copy.stack?.startsWith(`ConnectionClosedError: connection closed; last stderr: token ${REDACTED}`), copy.stack);
    assert.deepEqual(copy.details, { reason: `exited, said ${REDACTED}`, stderrTail: [`token ${REDACTED}`, "bye"] });
    assert.equal(error.message.includes(SECRET), true, "the original is left as it was");
  });

  test("a JSON-RPC error's data is a bounded, redacted copy, and a cause is copied the same way", () => {
    const deep = JSON.parse('{"a":'.repeat(100_000) + "1" + "}".repeat(100_000)) as unknown;
    const error = new Error("outer", { cause: new RpcError(`inner ${SECRET}`, -32000, { data: { env: SECRET, deep } }) });
    const copy = redactError(error, new Redactor([SECRET]));
    const cause = copy.cause as RpcError;
    assert.ok(cause instanceof RpcError);
    assert.equal(cause.message, `inner ${REDACTED}`);
    const data = cause.data as { env: string; deep: unknown };
    assert.equal(data.env, REDACTED);
    assert.ok(JSON.stringify(data.deep).includes(depthMarker(64)));
  });
});

describe("redactedCopy", () => {
  test("known secrets in strings, and string members named like a credential, are replaced", () => {
    const copy = redactedCopy(
      { message: `key ${SECRET}`, apiKey: "abcdefghijklmnop", token_type: "Bearer", list: [SECRET, 1, null, true], n: 3 },
      new Redactor([SECRET]),
    );
    assert.deepEqual(copy, { message: `key ${REDACTED}`, apiKey: REDACTED, token_type: "Bearer", list: [REDACTED, 1, null, true], n: 3 });
  });

  test("depth and size are bounded and marked", () => {
    const deep = JSON.parse("[".repeat(100_000) + "]".repeat(100_000)) as unknown;
    assert.ok(JSON.stringify(redactedCopy(deep, new Redactor(), { maxDepth: 8 })).includes(depthMarker(8)));
    const wide = Array.from({ length: 50 }, (_, i) => i);
    assert.deepEqual(redactedCopy(wide, new Redactor(), { maxNodes: 3 }).slice(0, 3), [0, 1, "[more than 3 values: not copied]"]);
  });
});

describe("the config's secrets", () => {
  test("header values, credential env values, OAuth client secrets and provider API keys go into the redactor", () => {
    const config = {
      servers: [
        {
          name: "a",
          transport: "http",
          url: "http://127.0.0.1:1/mcp",
          headers: { "X-Api-Key": "header-value-1234" },
          env: { TOKEN: "env-value-56789", GITHUB_PERSONAL_ACCESS_TOKEN: "ghp-value-24680", DATA_DIR: "/var/lib/server-data", NODE_ENV: "production" },
          auth: { enabled: true, clientSecret: "client-secret-999" },
          tools: {},
          enabled: true,
          timeoutMs: 1000,
          connectTimeoutMs: 1000,
        },
      ],
      providers: { openai: { apiKey: "provider-key-31337" } },
      warnings: [],
    } as unknown as McpwireConfig;
    assert.deepEqual(configSecrets(config).sort(), ["client-secret-999", "env-value-56789", "ghp-value-24680", "header-value-1234", "provider-key-31337"]);
    // Env values whose names do not say credential are ordinary words in messages.
    assert.equal(redactorFor(config).redact("mode production in /var/lib/server-data"), "mode production in /var/lib/server-data");
    const redactor = redactorFor(config);
    assert.equal(
      redactor.redact("header-value-1234 env-value-56789 client-secret-999 provider-key-31337"),
      [REDACTED, REDACTED, REDACTED, REDACTED].join(" "),
    );
  });
});
