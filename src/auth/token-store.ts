// Where client registrations and tokens outlive the process: the TokenStore interface, one in
// memory, and one in files under the user's config directory with owner-only permissions —
// spec 2025-11-25 basic/authorization ("Token Storage": clients MUST store tokens securely) and
// SEP-2352 (client credentials are kept per authorization server, by issuer).

import { messageOf } from "../common/error-text.ts";
import { McpwireError } from "../common/mcpwire-error.ts";
import { mcpwireDirectory, trimSlash } from "../common/user-dirs.ts";
import { FileError } from "../runtime/errors.ts";
import { runtime as defaultRuntime } from "../runtime/mod.ts";
import type { Runtime } from "../runtime/types.ts";
import { DpopSigner } from "./dpop.ts";
import type { TokenStoreErrorCode } from "./errors.ts";
import type { JwsAlgorithm } from "./jwt.ts";
import type { TokenSet } from "./token-endpoint.ts";

/** Client credentials registered with one authorization server (dynamic registration, or given). */
export interface StoredClientCredentials {
  /** SEP-2352: the authorization server they belong to; never sent to another. */
  issuer: string;
  clientId: string;
  clientSecret?: string;
  tokenEndpointAuthMethod?: string;
  /** epoch ms (RFC 7591 3.2.1 client_secret_expires_at); absent: never. */
  clientSecretExpiresAt?: number;
}

/** The tokens for one MCP server, and the authorization server that issued them. */
export interface StoredTokens {
  /** The MCP server (protected resource) URL the tokens are for. */
  serverUrl: string;
  issuer: string;
  tokens: TokenSet;
  /** epoch ms */
  savedAt: number;
}

/** A DPoP private key kept for one MCP server, so its bound tokens stay usable across runs (RFC 9449). */
export interface StoredDpopKey {
  algorithm: JwsAlgorithm;
  privateJwk: JsonWebKey;
}

/**
 * Persistence for OAuth state. Registrations are keyed by issuer; tokens by MCP server URL, with
 * the issuer recorded, so tokens from one authorization server are never offered when another
 * now guards the server. Implementations must keep secrets from other users (FileTokenStore: 0600).
 */
export interface TokenStore {
  getClient(issuer: string): Promise<StoredClientCredentials | undefined>;
  setClient(credentials: StoredClientCredentials): Promise<void>;
  deleteClient(issuer: string): Promise<void>;
  /** With `issuer`: only tokens that issuer gave. */
  getTokens(serverUrl: string, issuer?: string): Promise<StoredTokens | undefined>;
  setTokens(serverUrl: string, issuer: string, tokens: TokenSet): Promise<void>;
  deleteTokens(serverUrl: string): Promise<void>;
  /** Optional: a store without these gives each run a new DPoP key (and so a new authorization). */
  getDpopKey?(serverUrl: string): Promise<StoredDpopKey | undefined>;
  setDpopKey?(serverUrl: string, key: StoredDpopKey): Promise<void>;
  deleteDpopKey?(serverUrl: string): Promise<void>;
}

// Defined with the layer's other codes (errors.ts); exported here too, beside its class.
export type { TokenStoreErrorCode } from "./errors.ts";

/** The token store could not read or write; `code` says why, `path` names the file ("" when there is none). */
export class TokenStoreError extends McpwireError<TokenStoreErrorCode> {
  override readonly name = "TokenStoreError";
  /** The file or directory concerned ("" when there is none). */
  readonly path: string;
  constructor(message: string, code: TokenStoreErrorCode, options: { path: string; cause?: unknown }) {
    super(message, code, options);
    this.path = options.path;
  }
}

/** The key of an MCP server: its URL without fragment (RFC 8707 2: a resource has none). */
export function serverKey(serverUrl: string): string {
  const url = new URL(serverUrl);
  url.hash = "";
  return url.href;
}

/**
 * The DPoP signer for one MCP server: the key kept in `store` when it can keep one, else a new
 * key made and stored there (or only in memory, for a store without DPoP keys).
 */
export async function dpopSignerFor(store: TokenStore | undefined, serverUrl: string, algorithm: JwsAlgorithm = "ES256"): Promise<DpopSigner> {
  if (store?.getDpopKey === undefined || store.setDpopKey === undefined) return await DpopSigner.generate(algorithm);
  const kept = await store.getDpopKey(serverUrl);
  if (kept !== undefined && kept.algorithm === algorithm) return await DpopSigner.fromPrivateJwk(kept.privateJwk, kept.algorithm);
  const { signer, privateJwk } = await DpopSigner.generateStorable(algorithm);
  await store.setDpopKey(serverUrl, { algorithm, privateJwk });
  return signer;
}

/** Keeps everything in this process; gone at exit. What an AuthProvider without a store gets. */
export class MemoryTokenStore implements TokenStore {
  readonly #clients = new Map<string, StoredClientCredentials>();
  readonly #tokens = new Map<string, StoredTokens>();

  getClient(issuer: string): Promise<StoredClientCredentials | undefined> {
    const found = this.#clients.get(issuer);
    return Promise.resolve(found ? structuredClone(found) : undefined);
  }
  setClient(credentials: StoredClientCredentials): Promise<void> {
    this.#clients.set(credentials.issuer, structuredClone(credentials));
    return Promise.resolve();
  }
  deleteClient(issuer: string): Promise<void> {
    this.#clients.delete(issuer);
    return Promise.resolve();
  }
  getTokens(serverUrl: string, issuer?: string): Promise<StoredTokens | undefined> {
    const found = this.#tokens.get(serverKey(serverUrl));
    if (!found || (issuer !== undefined && found.issuer !== issuer)) return Promise.resolve(undefined);
    return Promise.resolve(structuredClone(found));
  }
  setTokens(serverUrl: string, issuer: string, tokens: TokenSet): Promise<void> {
    const key = serverKey(serverUrl);
    this.#tokens.set(key, structuredClone({ serverUrl: key, issuer, tokens, savedAt: Date.now() }));
    return Promise.resolve();
  }
  deleteTokens(serverUrl: string): Promise<void> {
    this.#tokens.delete(serverKey(serverUrl));
    return Promise.resolve();
  }
}

/**
 * The user's auth directory: `$XDG_CONFIG_HOME/mcpwire/auth`, else `~/.config/mcpwire/auth`
 * (`%APPDATA%\mcpwire\auth` on Windows).
 */
export function defaultAuthDirectory(env: Record<string, string>, os: string): string {
  const directory = mcpwireDirectory("config", env, os);
  if (directory === undefined) {
    throw new TokenStoreError(
      "token store: no config directory (neither XDG_CONFIG_HOME nor HOME is set); set one, or give FileTokenStore a directory",
      "no-directory",
      { path: "" },
    );
  }
  return `${directory}/auth`;
}

/** Options of FileTokenStore: the directory it keeps its files in. */
export interface FileTokenStoreOptions {
  /** Default: defaultAuthDirectory() of this process's environment. */
  directory?: string;
  /** For tests; default the runtime this process runs on. */
  runtime?: Runtime;
}

/**
 * One JSON file per registration (`clients/`), per MCP server (`tokens/`) and per DPoP key
 * (`dpop-keys/`), each written with
 * mode 0600 in directories of mode 0700, by an atomic rename (a reader never sees half a file).
 * A file name is a readable part of the key plus a hash of it; the file holds the key itself.
 */
export class FileTokenStore implements TokenStore {
  readonly directory: string;
  readonly #runtime: Runtime;

  constructor(options: FileTokenStoreOptions = {}) {
    this.#runtime = options.runtime ?? defaultRuntime;
    this.directory = trimSlash(options.directory ?? defaultAuthDirectory(this.#runtime.env(), this.#runtime.os));
  }

  async getClient(issuer: string): Promise<StoredClientCredentials | undefined> {
    const path = await this.#path("clients", issuer);
    const value = await this.#read(path);
    if (value === undefined) return undefined;
    const stored = value as Partial<StoredClientCredentials>;
    if (typeof stored.clientId !== "string" || typeof stored.issuer !== "string") throw this.#corrupt(path, "no clientId or issuer");
    return stored.issuer === issuer ? stored as StoredClientCredentials : undefined;
  }

  async setClient(credentials: StoredClientCredentials): Promise<void> {
    await this.#write(await this.#path("clients", credentials.issuer), credentials);
  }

  async deleteClient(issuer: string): Promise<void> {
    await this.#remove(await this.#path("clients", issuer));
  }

  async getTokens(serverUrl: string, issuer?: string): Promise<StoredTokens | undefined> {
    const key = serverKey(serverUrl);
    const path = await this.#path("tokens", key);
    const value = await this.#read(path);
    if (value === undefined) return undefined;
    const stored = value as Partial<StoredTokens>;
    if (
      typeof stored.serverUrl !== "string" || typeof stored.issuer !== "string" ||
      typeof stored.tokens?.accessToken !== "string" || typeof stored.tokens.tokenType !== "string"
    ) {
      throw this.#corrupt(path, "no serverUrl, issuer or tokens");
    }
    if (stored.serverUrl !== key || (issuer !== undefined && stored.issuer !== issuer)) return undefined;
    return stored as StoredTokens;
  }

  async setTokens(serverUrl: string, issuer: string, tokens: TokenSet): Promise<void> {
    const key = serverKey(serverUrl);
    const entry: StoredTokens = { serverUrl: key, issuer, tokens, savedAt: Date.now() };
    await this.#write(await this.#path("tokens", key), entry);
  }

  async deleteTokens(serverUrl: string): Promise<void> {
    await this.#remove(await this.#path("tokens", serverKey(serverUrl)));
  }

  async getDpopKey(serverUrl: string): Promise<StoredDpopKey | undefined> {
    const path = await this.#path("dpop-keys", serverKey(serverUrl));
    const value = await this.#read(path);
    if (value === undefined) return undefined;
    const stored = value as Partial<StoredDpopKey> & { serverUrl?: unknown };
    if ((stored.algorithm !== "ES256" && stored.algorithm !== "RS256") || typeof stored.privateJwk?.d !== "string") {
      throw this.#corrupt(path, "no algorithm or private key");
    }
    return stored.serverUrl === serverKey(serverUrl) ? { algorithm: stored.algorithm, privateJwk: stored.privateJwk } : undefined;
  }

  async setDpopKey(serverUrl: string, key: StoredDpopKey): Promise<void> {
    const server = serverKey(serverUrl);
    await this.#write(await this.#path("dpop-keys", server), { serverUrl: server, ...key });
  }

  async deleteDpopKey(serverUrl: string): Promise<void> {
    await this.#remove(await this.#path("dpop-keys", serverKey(serverUrl)));
  }

  /** `<dir>/<kind>/<readable key>-<16 hex of sha-256(key)>.json` */
  async #path(kind: "clients" | "tokens" | "dpop-keys", key: string): Promise<string> {
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key)));
    const hash = Array.from(digest.subarray(0, 8), (byte) => byte.toString(16).padStart(2, "0")).join("");
    const readable = key.replace(/^[a-z]+:\/\//i, "").replace(/[^A-Za-z0-9.-]+/g, "_").slice(0, 60);
    return `${this.directory}/${kind}/${readable}-${hash}.json`;
  }

  async #read(path: string): Promise<unknown> {
    let text: string;
    try {
      text = await this.#runtime.readTextFile(path);
    } catch (error) {
      if (error instanceof FileError && error.code === "ENOENT") return undefined;
      throw new TokenStoreError(
        `token store: cannot read ${path} (${messageOf(error)}); check its owner and permissions`,
        "unreadable",
        { path, cause: error },
      );
    }
    try {
      return JSON.parse(text);
    } catch (error) {
      throw this.#corrupt(path, messageOf(error), error);
    }
  }

  async #write(path: string, value: unknown): Promise<void> {
    // spec 2025-11-25 basic/authorization ("Token Storage"): tokens stored securely. Our
    // directories are owner-only, also when they already existed with a looser mode.
    const folder = path.slice(0, path.lastIndexOf("/"));
    for (const directory of [this.directory, folder]) {
      try {
        await this.#runtime.makePrivateDirectory(directory);
      } catch (error) {
        throw new TokenStoreError(
          `token store: cannot make ${directory} a directory only you can enter (${messageOf(error)}); ` +
            `check that it is yours, or run chmod 700 ${directory}`,
          "not-private",
          { path: directory, cause: error },
        );
      }
    }
    try {
      await this.#runtime.writePrivateFile(path, `${JSON.stringify(value, null, 2)}\n`, undefined, "replace");
    } catch (error) {
      throw new TokenStoreError(
        `token store: cannot write ${path} (${messageOf(error)}); check that ${this.directory} is writable by you`,
        "unwritable",
        { path, cause: error },
      );
    }
  }

  async #remove(path: string): Promise<void> {
    try {
      await this.#runtime.removeFile(path);
    } catch (error) {
      throw new TokenStoreError(`token store: cannot delete ${path} (${messageOf(error)})`, "unwritable", { path, cause: error });
    }
  }

  #corrupt(path: string, detail: string, cause?: unknown): TokenStoreError {
    return new TokenStoreError(
      `token store: ${path} is not a stored registration or token set (${detail}); delete it ` +
        "(or run `mcpwire auth logout <server>`) and authorize again",
      "corrupt",
      { path, cause },
    );
  }
}
