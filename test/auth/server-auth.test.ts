// The config's per-server `auth:` key and what a host makes of it: OAuth on by default, off with
// `auth: false`, a pre-registered client with ${VAR} secrets, positioned warnings for unknown keys.

import assert from "node:assert/strict";
import { test } from "node:test";
import { loopbackRedirectUri, serverAuthProvider } from "../../src/auth/server-auth.ts";
import { MemoryTokenStore } from "../../src/auth/token-store.ts";
import { parseConfig } from "../../src/host/config/parse.ts";

function load(yaml: string, env: Record<string, string> = {}) {
  return parseConfig(yaml, { file: "/tmp/mcpwire.yaml", env, displayName: "mcpwire.yaml" });
}

test("auth: false turns OAuth off; a mapping sets the pre-registered client (with ${VAR}), its issuer, CIMD URL and redirect port", () => {
  const config = load(
    [
      "mcp_servers:",
      "  off:",
      "    url: https://a.example.com/mcp",
      "    auth: false",
      "  on:",
      "    url: https://b.example.com/mcp",
      "    auth:",
      "      client_id: my-client",
      "      client_secret: ${SECRET}",
      "      issuer: https://login.example.com",
      "      client_metadata_url: https://me.example.com/client.json",
      "      redirect_port: 9123",
      "  plain:",
      "    url: https://c.example.com/mcp",
    ].join("\n"),
    { SECRET: "s3cret" },
  );
  const [off, on, plain] = config.servers;
  assert.deepEqual(off?.auth, { enabled: false });
  assert.deepEqual(on?.auth, {
    enabled: true,
    clientId: "my-client",
    clientSecret: "s3cret",
    issuer: "https://login.example.com",
    clientMetadataUrl: "https://me.example.com/client.json",
    redirectPort: 9123,
  });
  assert.equal(plain?.auth, undefined);
  assert.deepEqual(config.warnings, []);
});

test("an unknown auth key is a positioned warning naming the known ones; auth on a stdio server is ignored with a warning", () => {
  const config = load(
    ["mcp_servers:", "  s:", "    url: https://a.example.com/mcp", "    auth:", "      client_ld: x", "  local:", "    command: node", "    auth: false"].join(
      "\n",
    ),
  );
  const messages = config.warnings.map((w) => w.message);
  assert.ok(messages.some((m) => /unknown key "auth\.client_ld".*did you mean "auth\.client_id"/.test(m)), messages.join("\n"));
  assert.ok(messages.some((m) => /"auth" does not apply to a stdio server/.test(m)), messages.join("\n"));
});

test("the host provider: a loopback redirect on 127.0.0.1, the pre-registered client bound to its issuer, native application", () => {
  const provider = serverAuthProvider("s", { enabled: true, clientId: "id", clientSecret: "x", issuer: "https://i.example" }, new MemoryTokenStore());
  assert.equal(provider.redirectUri, loopbackRedirectUri(8976));
  assert.equal(provider.redirectUri, "http://127.0.0.1:8976/callback");
  assert.deepEqual(provider.preRegistered, [{ clientId: "id", clientSecret: "x", issuer: "https://i.example" }]);
  assert.equal(provider.clientMetadata.application_type, "native");
});
