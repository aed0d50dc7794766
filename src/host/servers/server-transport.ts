// A configured server's transport, made anew for each connect of its ServerConnection
// (server-connection.ts): stdio with its stderr lines and its sandbox's outcome reported, HTTP
// with the server's OAuth fetch (made once; every token it obtains is added to the redactor).

import type { AuthEvent } from "../../auth/oauth-fetch.ts";
import { serverAuthFetch } from "../../auth/server-auth.ts";
import type { TokenSet } from "../../auth/token-endpoint.ts";
import type { Redactor } from "../../common/redact.ts";
import type { Transport } from "../../transport/transport.ts";
import type { ServerConfig } from "../config/types.ts";
import { SandboxError } from "../sandbox/sandbox-availability.ts";
import type { ServerEvents } from "./server-status.ts";
import type { ServerTrace } from "./server-trace.ts";
import { createTransport } from "./transport-factory.ts";

/** What a server's transports report to, and what they are made with. */
export interface ServerTransportHooks {
  /** The manager's redactor: OAuth tokens are added to it; a traced transport redacts with it. */
  redactor: Redactor;
  /** The server's trace, when the manager traces (trace-event.ts). */
  trace: ServerTrace | undefined;
  /** A line the server wrote to stderr. */
  stderr: (detail: ServerEvents["stderr"]) => void;
  /** A problem to report: the `sandbox: prefer` warning, with its SandboxError. */
  problem: (detail: ServerEvents["problem"]) => void;
  /** Each OAuth step (telemetry on: a span each, host-telemetry.ts). */
  authEvent?: (event: AuthEvent) => void;
}

/** Makes a server's transport for each connect, and remembers what the last start's sandbox was. */
export class ServerTransports {
  readonly #config: ServerConfig;
  readonly #hooks: ServerTransportHooks;
  /** Whether the last start ran the server in its sandbox (config `sandbox:`). */
  #sandboxed = false;
  #sandboxedBy: "bubblewrap" | "deno" | undefined;
  /** Whether the `sandbox: prefer` warning (no sandbox to be had) was given. */
  #warnedUnsandboxed = false;

  constructor(config: ServerConfig, hooks: ServerTransportHooks) {
    this.#config = config;
    this.#hooks = hooks;
  }

  /** The last start's sandbox, for status(): whether it ran sandboxed, and by what. */
  get sandbox(): { sandboxed: boolean; by?: "bubblewrap" | "deno" } {
    return this.#sandboxed && this.#sandboxedBy !== undefined ? { sandboxed: true, by: this.#sandboxedBy } : { sandboxed: this.#sandboxed };
  }

  /** A new transport for this server; ServerConnection checked its config first: a stdio server has a command, the others an http(s) url. */
  make(): Transport {
    const { redactor } = this.#hooks;
    const name = this.#config.name;
    const trace = this.#hooks.trace === undefined ? {} : { trace: this.#hooks.trace.transportTrace };
    if (this.#config.transport === "stdio") {
      return createTransport(this.#config, {
        onStderr: (line) => this.#hooks.stderr({ server: name, line }),
        onSandbox: (outcome) => {
          this.#sandboxed = outcome.sandboxed;
          this.#sandboxedBy = outcome.by;
          // A problem whose error is a SandboxError: the CLI shows it as a warning; once per
          // server, not at every reconnect (the reason does not change while mcpwire runs).
          if (outcome.warning !== undefined && !this.#warnedUnsandboxed) {
            this.#warnedUnsandboxed = true;
            this.#hooks.problem({ server: name, message: outcome.warning, error: new SandboxError(outcome.warning, "sandbox-unavailable") });
          }
        },
        ...trace,
        ...(this.#hooks.trace ? { redactor } : {}),
      });
    }
    return createTransport(this.#config, { redactor, fetch: this.#authFetch(), ...trace });
  }

  /** OAuth (issue 8): stored tokens, refreshed; a needed login says to run `mcpwire auth login`. Made once. */
  #oauthFetch: typeof fetch | undefined | null = null;
  #authFetch(): typeof fetch | undefined {
    if (this.#oauthFetch === null) {
      const { redactor, authEvent } = this.#hooks;
      this.#oauthFetch = serverAuthFetch(this.#config.name, this.#config.url!, this.#config.auth ?? { enabled: true }, {
        // Every token obtained or loaded is a secret every output of the host must not show.
        onTokens: (tokens: TokenSet) => {
          redactor.add(tokens.accessToken);
          redactor.add(tokens.refreshToken);
          if (typeof tokens.raw.id_token === "string") redactor.add(tokens.raw.id_token);
        },
        ...(authEvent !== undefined ? { onEvent: authEvent } : {}),
      });
    }
    return this.#oauthFetch;
  }
}
