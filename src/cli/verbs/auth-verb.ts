// `mcpwire auth login|logout|status`: a person authorizes mcpwire to a configured HTTP server —
// the authorization URL opened (or printed), a loopback redirect listener on 127.0.0.1, tokens
// in the user's token store — spec 2025-11-25 basic/authorization, RFC 8252 (native apps).

import { AuthError } from "../../auth/errors.ts";
import { createOAuthFetch } from "../../auth/oauth-fetch.ts";
import { DEFAULT_REDIRECT_PORT, defaultTokenStore, serverAuthProvider, type ServerAuthSettings } from "../../auth/server-auth.ts";
import type { TokenStore } from "../../auth/token-store.ts";
import { readResourceChallenge, type ResourceChallenge } from "../../auth/www-authenticate.ts";
import { messageOf } from "../../common/error-text.ts";
import type { McpwireConfig, ServerConfig } from "../../host/config/types.ts";
import { redactorFor } from "../../host/secrets.ts";
import { runtime } from "../../runtime/mod.ts";
import type { LoopbackListener } from "../../runtime/types.ts";
import { parseArgs, positiveInt, UsageError } from "../args.ts";
import { lineOf, useRedactor, write, writeJson } from "../output.ts";
import { configSource, IMPORT_OPTION, loadCliConfig } from "../session/host-session.ts";
import { renderTable } from "../table.ts";

export const AUTH_USAGE = `usage: mcpwire auth login <server> [--config FILE] [--no-browser] [--timeout SECONDS] [--redirect-port PORT]
       mcpwire auth logout <server> [--config FILE]
       mcpwire auth status [<server>] [--config FILE] [--json]

login   authorizes mcpwire to an HTTP server that asks for OAuth: finds its authorization
        server, registers (or uses the configured auth.client_id), opens the authorization
        URL in the browser (--no-browser: only prints it) and waits for the redirect on
        http://127.0.0.1:PORT/callback (auth.redirect_port, default ${DEFAULT_REDIRECT_PORT}; --redirect-port 0: any free port),
        at most --timeout seconds (default 300). Tokens go to the token store under
        $XDG_CONFIG_HOME/mcpwire/auth (or ~/.config/mcpwire/auth), readable by you only.
logout  forgets the server's tokens.
status  shows, per HTTP server, whether tokens are stored, their issuer, scope and expiry.
Tokens are never printed.`;

/** What tests (and embedders of the CLI) may replace. */
export interface AuthVerbOptions {
  store?: TokenStore;
  /** Opens a URL for the user; default: the platform's opener (xdg-open / open), never a shell. */
  browser?: (url: URL) => Promise<void>;
}

const DEFAULT_LOGIN_TIMEOUT_S = 300;

/** One line on stderr: redacted (the config's secrets, token shapes), control characters visible. */
function say(text: string): Promise<void> {
  return write("stderr", `${text}\n`);
}

function httpServer(config: McpwireConfig, name: string): ServerConfig {
  const server = config.servers.find((candidate) => candidate.name === name);
  if (server === undefined) {
    const names = config.servers.map((candidate) => candidate.name);
    throw new UsageError(`no server "${name}" in the config${names.length > 0 ? ` (servers: ${names.join(", ")})` : ""}`);
  }
  if (server.url === undefined || server.transport === "stdio") {
    throw new UsageError(`server "${name}" is a stdio server; OAuth applies to HTTP servers (a "url")`);
  }
  return server;
}

/**
 * Opens `url` with the platform's opener as a plain argument (no shell, so nothing in the URL
 * is interpreted): xdg-open on Linux and the BSDs, open on macOS. Elsewhere, or on failure,
 * the printed URL is the way.
 */
async function platformBrowser(url: URL): Promise<void> {
  const command = runtime.os === "darwin" ? "open" : runtime.os === "linux" || runtime.os.endsWith("bsd") ? "xdg-open" : undefined;
  if (command === undefined) return;
  try {
    const child = await runtime.spawn({ command, args: [url.href], env: runtime.env(), onStdout: () => {}, onStderr: () => {} });
    void child.exited;
  } catch {
    // no opener installed: the URL was printed
  }
}

/** The unauthenticated probe: a 401's challenge says where the metadata is and which scope. */
async function probe(url: string): Promise<{ status: number | string; challenge: ResourceChallenge }> {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "ping" }),
      signal: AbortSignal.timeout(10_000),
    });
    await response.body?.cancel();
    return { status: response.status, challenge: response.status === 401 ? readResourceChallenge(response.headers) : {} };
  } catch (error) {
    return { status: messageOf(error), challenge: {} };
  }
}

async function login(server: ServerConfig, argv: Map<string, string>, flags: Set<string>, options: AuthVerbOptions): Promise<number> {
  const settings: ServerAuthSettings = server.auth ?? { enabled: true };
  if (!settings.enabled) throw new UsageError(`server "${server.name}" has auth: false in the config; remove it to log in`);
  const timeoutS = positiveInt("timeout", argv.get("timeout"), DEFAULT_LOGIN_TIMEOUT_S);
  const portText = argv.get("redirect-port");
  const port = portText === undefined ? settings.redirectPort ?? DEFAULT_REDIRECT_PORT : Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--redirect-port must be 0 to 65535 (got "${portText}")`);
  const store = options.store ?? defaultTokenStore();
  const browser = flags.has("no-browser") ? undefined : options.browser ?? platformBrowser;

  let deliver: ((url: string) => void) | undefined;
  const callback = new Promise<string>((resolve) => (deliver = resolve));
  let listener: LoopbackListener;
  try {
    listener = await runtime.serveLoopback(port, (request) => {
      const url = new URL(request.url);
      if (url.pathname !== "/callback") return new Response("not found", { status: 404 });
      deliver?.(url.href);
      const text = url.searchParams.has("error")
        ? "mcpwire: the authorization was not granted. You can close this tab; the terminal says more."
        : "mcpwire: authorization received. You can close this tab and return to the terminal.";
      return new Response(text, { headers: { "content-type": "text/plain; charset=utf-8" } });
    });
  } catch (error) {
    throw new UsageError(
      `cannot listen for the OAuth redirect on 127.0.0.1:${port} (${messageOf(error)}); ` +
        `set auth.redirect_port for "${server.name}" or pass --redirect-port`,
      "usage",
      { cause: error },
    );
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`no redirect within ${timeoutS} s`)), timeoutS * 1000);
  try {
    const provider = serverAuthProvider(server.name, settings, store, async (url, context) => {
      await say(
        `Authorize mcpwire for server "${server.name}" at ${lineOf(context.issuer)}${context.scope ? ` (scope: ${lineOf(context.scope)})` : ""}:\n\n  ${
          lineOf(url.href)
        }\n`,
      );
      if (browser !== undefined) {
        await say("Opening the browser; if it does not open, visit the URL above.");
        await browser(url);
      }
      await say(`Waiting for the redirect to ${provider.redirectUri} (at most ${timeoutS} s)…`);
      const aborted = new Promise<never>((_, reject) => {
        // An aborted signal always has a reason (an AbortError when none was given): the caller's, or our timer's.
        const stop = (): void => reject(context.signal.aborted ? context.signal.reason : controller.signal.reason);
        if (context.signal.aborted || controller.signal.aborted) stop();
        context.signal.addEventListener("abort", stop, { once: true });
        controller.signal.addEventListener("abort", stop, { once: true });
      });
      return await Promise.race([callback, aborted]);
    }, listener.port);
    const oauth = createOAuthFetch({
      serverUrl: server.url!,
      provider,
      onEvent: (event) => {
        if (event.kind === "discovered") void say(`authorization server: ${lineOf(event.issuer)}${event.legacy ? " (2025-03-26 discovery)" : ""}`);
        if (event.kind === "client") void say(`client: ${lineOf(event.clientId)} (${event.source})`);
      },
    });
    const probed = await probe(server.url!);
    if (probed.status !== 401) {
      await say(
        `note: ${server.url} answered ${
          typeof probed.status === "number" ? `HTTP ${probed.status}` : lineOf(probed.status)
        } to an unauthenticated request, not 401; looking for its OAuth metadata anyway`,
      );
    }
    const tokens = await oauth.authorize(controller.signal, probed.challenge);
    const expiry = tokens.expiresAt !== undefined ? `, expires ${new Date(tokens.expiresAt).toISOString()}` : "";
    await write(
      "stdout",
      `logged in to "${server.name}"${tokens.scope ? ` with scope "${tokens.scope}"` : ""}${expiry}${tokens.refreshToken ? " (refreshable)" : ""}\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof AuthError) {
      await say(`mcpwire: auth login ${server.name}: ${lineOf(error.message)}`);
      return 1;
    }
    throw error;
  } finally {
    clearTimeout(timer);
    await listener.close();
  }
}

/** The options `mcpwire auth` takes. */
export const AUTH_OPTIONS = {
  config: { kind: "string", values: "file" },
  import: IMPORT_OPTION,
  "trust-project": { kind: "flag" },
  json: { kind: "flag" },
  "no-browser": { kind: "flag" },
  timeout: { kind: "string" },
  "redirect-port": { kind: "string" },
  help: { kind: "flag" },
} as const;

export async function auth(argv: readonly string[], options: AuthVerbOptions = {}): Promise<number> {
  const args = parseArgs(argv, AUTH_OPTIONS);
  const [action, name, extra] = args.positional;
  if (args.flags.has("help") || action === undefined) {
    await write(action === undefined && !args.flags.has("help") ? "stderr" : "stdout", AUTH_USAGE + "\n");
    return action === undefined && !args.flags.has("help") ? 2 : 0;
  }
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
  const config = await loadCliConfig(configSource(args));
  useRedactor(redactorFor(config));
  switch (action) {
    case "login":
      if (name === undefined) throw new UsageError("auth login needs a server name");
      return await login(httpServer(config, name), args.values, args.flags, options);
    case "logout": {
      if (name === undefined) throw new UsageError("auth logout needs a server name");
      const server = httpServer(config, name);
      await (options.store ?? defaultTokenStore()).deleteTokens(server.url!);
      await write("stdout", `logged out of "${server.name}": its tokens are forgotten\n`);
      return 0;
    }
    case "status": {
      const store = options.store ?? defaultTokenStore();
      const servers = name !== undefined ? [httpServer(config, name)] : config.servers.filter((s) => s.url !== undefined && s.transport !== "stdio");
      const rows = [];
      for (const server of servers) {
        const saved = server.auth?.enabled === false ? undefined : await store.getTokens(server.url!);
        const tokens = saved?.tokens;
        rows.push({
          server: server.name,
          url: server.url!,
          auth: server.auth?.enabled === false ? "off" : tokens !== undefined ? "logged in" : "not logged in",
          issuer: saved?.issuer ?? null,
          scope: tokens?.scope ?? null,
          expiresAt: tokens?.expiresAt !== undefined ? new Date(tokens.expiresAt).toISOString() : null,
          expired: tokens?.expiresAt !== undefined ? tokens.expiresAt <= Date.now() : null,
          refreshable: tokens !== undefined ? tokens.refreshToken !== undefined : null,
        });
      }
      if (args.flags.has("json")) {
        await writeJson(rows);
      } else {
        await write(
          "stdout",
          renderTable(
            ["SERVER", "AUTH", "ISSUER", "SCOPE", "EXPIRES", "REFRESH"],
            rows.map((row) => [
              row.server,
              row.auth,
              row.issuer === null ? "-" : lineOf(row.issuer),
              row.scope === null ? "-" : lineOf(row.scope),
              row.expiresAt === null ? "-" : `${row.expiresAt}${row.expired ? " (expired)" : ""}`,
              row.refreshable === null ? "-" : row.refreshable ? "yes" : "no",
            ]),
          ),
        );
      }
      return 0;
    }
    default:
      throw new UsageError(`unknown auth action "${action}"; use login, logout or status`);
  }
}
