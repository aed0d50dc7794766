// The secrets a config puts in play — configured header values, the env values given to servers,
// OAuth client secrets, model API keys — collected once so every output of the host (errors,
// events, status, stderr tails, the CLI) can be passed through one Redactor that knows them.

import { Redactor } from "../common/redact.ts";
import type { McpwireConfig } from "./config-types.ts";

/** Every credential-capable value a loaded config holds (interpolated values included). */
export function configSecrets(config: McpwireConfig): string[] {
  const secrets: string[] = [];
  for (const server of config.servers) {
    secrets.push(...Object.values(server.headers ?? {}));
    secrets.push(...Object.values(server.env ?? {}));
    if (server.auth?.clientSecret !== undefined) secrets.push(server.auth.clientSecret);
  }
  for (const provider of Object.values(config.providers ?? {})) {
    if (provider.apiKey !== undefined) secrets.push(provider.apiKey);
  }
  return secrets;
}

/** A Redactor that knows the config's secrets (and learns more, e.g. tokens, through `add`). */
export function redactorFor(config: McpwireConfig, redactor: Redactor = new Redactor()): Redactor {
  for (const secret of configSecrets(config)) redactor.add(secret);
  return redactor;
}
