// A TokenStore in the browser's IndexedDB: registrations and tokens outlive the tab and the
// browser's restart, per origin — spec 2025-11-25 basic/authorization ("Token Storage"); keyed
// as FileTokenStore is: registrations by issuer (SEP-2352), tokens by MCP server URL.

import { messageOf } from "../common/error-text.ts";
import { AuthError } from "./errors.ts";
import { checkStoredTokens } from "./session-storage-token-store.ts";
import type { TokenSet } from "./token-endpoint.ts";
import { serverKey, type StoredClientCredentials, type StoredTokens, type TokenStore, TokenStoreError } from "./token-store.ts";

/** The object store all entries live in, keyed `client:<issuer>` and `tokens:<server URL>`. */
const OBJECT_STORE = "entries";

// The part of the IndexedDB API the store uses, declared here: Deno's and JSR's type libraries
// have no IndexedDB types. The browser's `indexedDB` fits IdbFactory.
type IdbHandler = ((event: never) => void) | null;
interface IdbRequest<T> {
  readonly result: T;
  readonly error: unknown;
  onsuccess: IdbHandler;
  onerror: IdbHandler;
}
interface IdbOpenRequest extends IdbRequest<IdbDatabase> {
  onupgradeneeded: IdbHandler;
  onblocked: IdbHandler;
}
interface IdbObjectStore {
  get(key: string): IdbRequest<unknown>;
  put(value: unknown, key: string): unknown;
  delete(key: string): unknown;
}
interface IdbTransaction {
  readonly error: unknown;
  objectStore(name: string): IdbObjectStore;
  oncomplete: IdbHandler;
  onerror: IdbHandler;
  onabort: IdbHandler;
}
interface IdbDatabase {
  readonly objectStoreNames: { contains(name: string): boolean };
  createObjectStore(name: string): unknown;
  transaction(storeNames: string, mode: "readonly" | "readwrite"): IdbTransaction;
  close(): void;
}
/** The part of IDBFactory (`indexedDB`) IndexedDbTokenStore uses. */
export interface IdbFactory {
  open(name: string, version: number): IdbOpenRequest;
}

/** Options of IndexedDbTokenStore: the database's name (default "mcpwire-oauth") and the IDBFactory (default indexedDB). */
export interface IndexedDbTokenStoreOptions {
  databaseName?: string;
  indexedDB?: IdbFactory;
}

/**
 * Keeps registrations and tokens in an IndexedDB database of the page's origin (structured
 * clones, one entry per issuer and per MCP server). Any script of the origin can read them:
 * keep the page free of third-party scripts. Throws AuthError "unsupported-runtime" where there
 * is no indexedDB (Node, Deno, Workers).
 */
export class IndexedDbTokenStore implements TokenStore {
  readonly #factory: IdbFactory;
  readonly #name: string;
  #database: Promise<IdbDatabase> | undefined;

  constructor(options: IndexedDbTokenStoreOptions = {}) {
    const factory = options.indexedDB ?? (globalThis as { indexedDB?: IdbFactory }).indexedDB;
    if (factory === undefined) {
      throw new AuthError(
        "IndexedDbTokenStore: this runtime has no indexedDB (a browser page or web worker has it; Node, Deno and Workers do not); " +
          "use MemoryTokenStore, SessionStorageTokenStore or FileTokenStore there",
        "unsupported-runtime",
      );
    }
    this.#factory = factory;
    this.#name = options.databaseName ?? "mcpwire-oauth";
  }

  async getClient(issuer: string): Promise<StoredClientCredentials | undefined> {
    const key = `client:${issuer}`;
    const value = await this.#get(key) as Partial<StoredClientCredentials> | undefined;
    if (value === undefined) return undefined;
    if (typeof value.issuer !== "string" || typeof value.clientId !== "string") {
      throw new TokenStoreError(`token store: ${this.#where(key)} is not a stored registration; delete it and authorize again`, "corrupt", {
        path: this.#where(key),
      });
    }
    return value.issuer === issuer ? value as StoredClientCredentials : undefined;
  }

  async setClient(credentials: StoredClientCredentials): Promise<void> {
    await this.#change(`client:${credentials.issuer}`, credentials);
  }

  async deleteClient(issuer: string): Promise<void> {
    await this.#change(`client:${issuer}`, undefined);
  }

  async getTokens(serverUrl: string, issuer?: string): Promise<StoredTokens | undefined> {
    const server = serverKey(serverUrl);
    const key = `tokens:${server}`;
    const value = await this.#get(key);
    if (value === undefined) return undefined;
    const stored = checkStoredTokens(value, this.#where(key));
    if (stored.serverUrl !== server || (issuer !== undefined && stored.issuer !== issuer)) return undefined;
    return stored;
  }

  async setTokens(serverUrl: string, issuer: string, tokens: TokenSet): Promise<void> {
    const server = serverKey(serverUrl);
    const entry: StoredTokens = { serverUrl: server, issuer, tokens, savedAt: Date.now() };
    await this.#change(`tokens:${server}`, entry);
  }

  async deleteTokens(serverUrl: string): Promise<void> {
    await this.#change(`tokens:${serverKey(serverUrl)}`, undefined);
  }

  /** Closes the database connection (a later call opens it again). */
  async close(): Promise<void> {
    const database = this.#database;
    this.#database = undefined;
    if (database !== undefined) (await database.catch(() => undefined))?.close();
  }

  #where(key: string): string {
    return `indexeddb:${this.#name}/${key}`;
  }

  #open(): Promise<IdbDatabase> {
    return this.#database ??= new Promise<IdbDatabase>((resolve, reject) => {
      const request = this.#factory.open(this.#name, 1);
      request.onupgradeneeded = () => {
        if (!request.result.objectStoreNames.contains(OBJECT_STORE)) request.result.createObjectStore(OBJECT_STORE);
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(this.#failure("open", this.#name, request.error, "unreadable"));
      request.onblocked = () => reject(this.#failure("open", this.#name, new Error("blocked by another tab's open connection"), "unreadable"));
    }).catch((error: unknown) => {
      this.#database = undefined; // the next call tries again
      throw error;
    });
  }

  async #get(key: string): Promise<unknown> {
    const database = await this.#open();
    return await new Promise<unknown>((resolve, reject) => {
      let request: IdbRequest<unknown>;
      try {
        request = database.transaction(OBJECT_STORE, "readonly").objectStore(OBJECT_STORE).get(key);
      } catch (error) {
        return reject(this.#failure("read", key, error, "unreadable"));
      }
      request.onsuccess = () => resolve(request.result ?? undefined);
      request.onerror = () => reject(this.#failure("read", key, request.error, "unreadable"));
    });
  }

  /** Puts `value` under `key` (undefined: deletes it); resolves when the transaction is committed. */
  async #change(key: string, value: unknown): Promise<void> {
    const database = await this.#open();
    await new Promise<void>((resolve, reject) => {
      let transaction: IdbTransaction;
      try {
        transaction = database.transaction(OBJECT_STORE, "readwrite");
        const store = transaction.objectStore(OBJECT_STORE);
        if (value === undefined) store.delete(key);
        else store.put(value, key);
      } catch (error) {
        return reject(this.#failure("write", key, error, "unwritable"));
      }
      transaction.oncomplete = () => resolve();
      transaction.onerror = () => reject(this.#failure("write", key, transaction.error, "unwritable"));
      transaction.onabort = () => reject(this.#failure("write", key, transaction.error ?? new Error("transaction aborted"), "unwritable"));
    });
  }

  #failure(what: string, key: string, cause: unknown, code: "unreadable" | "unwritable"): TokenStoreError {
    const where = key === this.#name ? `indexeddb:${this.#name}` : this.#where(key);
    return new TokenStoreError(
      `token store: cannot ${what} ${where} (${messageOf(cause)}); check that the page may use IndexedDB (not a private window that forbids it, storage quota)`,
      code,
      { path: where, cause },
    );
  }
}
