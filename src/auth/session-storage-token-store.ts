// A TokenStore in a page's Web Storage (sessionStorage by default: one tab, gone when it
// closes) — spec 2025-11-25 basic/authorization ("Token Storage"); keyed as FileTokenStore is:
// registrations by issuer (SEP-2352), tokens by MCP server URL with their issuer.

import { messageOf } from "../common/error-text.ts";
import { AuthError } from "./errors.ts";
import type { TokenSet } from "./token-endpoint.ts";
import { serverKey, type StoredClientCredentials, type StoredTokens, type TokenStore, TokenStoreError } from "./token-store.ts";

/** The part of the Web Storage interface a store uses (sessionStorage, localStorage, or your own). */
export type WebStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

/** The page's sessionStorage, or an AuthError "unsupported-runtime" naming `who` when there is none. */
export function sessionStorageOf(who: string): WebStorage {
  let storage: WebStorage | undefined;
  try {
    storage = (globalThis as { sessionStorage?: WebStorage }).sessionStorage;
  } catch (error) {
    // a sandboxed iframe or storage blocked by the user: reading the property throws
    throw new AuthError(`${who}: sessionStorage is not available here (${messageOf(error)}); pass a storage of your own`, "unsupported-runtime", {
      cause: error,
    });
  }
  if (storage === undefined) {
    throw new AuthError(
      `${who}: this runtime has no sessionStorage (a browser page and Deno have it; Node and Workers do not); pass a storage of your own`,
      "unsupported-runtime",
    );
  }
  return storage;
}

/** Options of SessionStorageTokenStore: the storage (default sessionStorage) and the key prefix. */
export interface SessionStorageTokenStoreOptions {
  /** Default: globalThis.sessionStorage. `localStorage` keeps tokens across tabs and restarts (and so longer within reach of any script of the origin). */
  storage?: WebStorage;
  /** Before every key (default "mcpwire.oauth."): `<prefix>client:<issuer>`, `<prefix>tokens:<server URL>`. */
  prefix?: string;
}

/**
 * Keeps registrations and tokens in sessionStorage (or the Web Storage given), as JSON, one key
 * per issuer and per MCP server. Any script of the page's origin can read them: keep the page
 * free of third-party scripts. Throws AuthError "unsupported-runtime" when there is no storage.
 */
export class SessionStorageTokenStore implements TokenStore {
  readonly #storage: WebStorage;
  readonly #prefix: string;

  constructor(options: SessionStorageTokenStoreOptions = {}) {
    this.#storage = options.storage ?? sessionStorageOf("SessionStorageTokenStore");
    this.#prefix = options.prefix ?? "mcpwire.oauth.";
  }

  getClient(issuer: string): Promise<StoredClientCredentials | undefined> {
    return this.#run(() => {
      const key = `${this.#prefix}client:${issuer}`;
      const value = this.#read(key) as Partial<StoredClientCredentials> | undefined;
      if (value === undefined) return undefined;
      if (typeof value.issuer !== "string" || typeof value.clientId !== "string") throw corrupt(key, "no issuer or clientId");
      return value.issuer === issuer ? value as StoredClientCredentials : undefined;
    });
  }

  setClient(credentials: StoredClientCredentials): Promise<void> {
    return this.#run(() => this.#write(`${this.#prefix}client:${credentials.issuer}`, credentials));
  }

  deleteClient(issuer: string): Promise<void> {
    return this.#run(() => this.#storage.removeItem(`${this.#prefix}client:${issuer}`));
  }

  getTokens(serverUrl: string, issuer?: string): Promise<StoredTokens | undefined> {
    return this.#run(() => {
      const server = serverKey(serverUrl);
      const key = `${this.#prefix}tokens:${server}`;
      const value = this.#read(key);
      if (value === undefined) return undefined;
      const stored = checkStoredTokens(value, key);
      if (stored.serverUrl !== server || (issuer !== undefined && stored.issuer !== issuer)) return undefined;
      return stored;
    });
  }

  setTokens(serverUrl: string, issuer: string, tokens: TokenSet): Promise<void> {
    return this.#run(() => {
      const server = serverKey(serverUrl);
      const entry: StoredTokens = { serverUrl: server, issuer, tokens, savedAt: Date.now() };
      this.#write(`${this.#prefix}tokens:${server}`, entry);
    });
  }

  deleteTokens(serverUrl: string): Promise<void> {
    return this.#run(() => this.#storage.removeItem(`${this.#prefix}tokens:${serverKey(serverUrl)}`));
  }

  /** Web Storage is synchronous: its throws (a full quota) become rejections. */
  #run<T>(work: () => T): Promise<T> {
    try {
      return Promise.resolve(work());
    } catch (error) {
      return Promise.reject(error);
    }
  }

  #read(key: string): unknown {
    const text = this.#storage.getItem(key);
    if (text === null) return undefined;
    try {
      return JSON.parse(text);
    } catch (error) {
      throw corrupt(key, messageOf(error), error);
    }
  }

  #write(key: string, value: unknown): void {
    try {
      this.#storage.setItem(key, JSON.stringify(value));
    } catch (error) {
      throw new TokenStoreError(
        `token store: cannot write ${key} to Web Storage (${messageOf(error)}); free some of the origin's storage quota`,
        "unwritable",
        {
          path: key,
          cause: error,
        },
      );
    }
  }
}

/** A stored token entry checked for its shape; TokenStoreError "corrupt" naming `where` when it is not one. */
export function checkStoredTokens(value: unknown, where: string): StoredTokens {
  const stored = value as Partial<StoredTokens> | null;
  if (
    typeof stored !== "object" || stored === null || typeof stored.serverUrl !== "string" || typeof stored.issuer !== "string" ||
    typeof stored.tokens?.accessToken !== "string" || typeof stored.tokens.tokenType !== "string"
  ) {
    throw corrupt(where, "no serverUrl, issuer or tokens");
  }
  return stored as StoredTokens;
}

function corrupt(where: string, detail: string, cause?: unknown): TokenStoreError {
  return new TokenStoreError(`token store: ${where} is not a stored registration or token set (${detail}); delete it and authorize again`, "corrupt", {
    path: where,
    cause,
  });
}
