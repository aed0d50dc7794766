// Which hosts share a BackendSet (backend-set.ts: one McpManager whose clients declare one host's
// capabilities) — docs/serve.md ("The backend sees the host").
//
// - A handshake-era session gets a set of its own, from `initialize` to its end: its backends'
//   sessions carry its log level, its resource subscriptions, and ask it (and only it) for
//   sampling, elicitation and roots — spec 2025-11-25 basic/lifecycle. The set is made when the
//   front asks capabilities() during `initialize` (before the session exists), held as pending
//   under the host's signature, and claimed by the session that opens next with that signature.
// - 2026-07-28 requests are stateless (spec 2026-07-28 basic/index): every request with the same
//   protocol version, capabilities and clientInfo (their canonical JSON, RFC 8785) shares one set,
//   so a backend sees what a host would have sent it directly. At most `maxShared` such sets live;
//   one idle for `idleMs` is closed; past the bound the least recently used idle one goes, and
//   when none is idle the request is refused (-32603, saying so).
// A set serves one era only, so one cached tool list never serves both (docs/serve.md).

import { canonicalJson } from "../common/canonical-json.ts";
import { RpcError } from "../jsonrpc/errors.ts";
import type { HostIdentity, HostSession } from "../server/server-handlers.ts";
import type { BackendSet } from "./backend-set.ts";

/** How many 2026-07-28 capability signatures keep a set at once, by default. */
export const DEFAULT_MAX_SHARED_SETS = 8;
/** How long an unused 2026-07-28 set (or an unclaimed handshake one) lives, by default. */
export const DEFAULT_IDLE_MS = 300_000;

/** The pool's bounds (BridgeOptions.pool). */
export interface PoolLimits {
  /** 2026-07-28 sets alive at once. Default 8. */
  maxShared?: number;
  /** An idle 2026-07-28 set, or a handshake one no session claimed, is closed after this long. Default 300 s. */
  idleMs?: number;
}

interface Entry {
  set: BackendSet;
  lastUsed: number;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** The sets of a bridge, by host. */
export class BackendPool {
  readonly #make: (host: HostIdentity) => BackendSet;
  readonly #maxShared: number;
  readonly #idleMs: number;
  /** 2026-07-28 sets by signature. */
  readonly #shared = new Map<string, Entry>();
  /** Handshake sets made for an `initialize` and not yet claimed, by signature. */
  readonly #pending = new Map<string, Entry[]>();
  /** Handshake sets by session id. */
  readonly #bySession = new Map<string, BackendSet>();
  #closed = false;

  constructor(make: (host: HostIdentity) => BackendSet, limits: PoolLimits = {}) {
    this.#make = make;
    this.#maxShared = limits.maxShared ?? DEFAULT_MAX_SHARED_SETS;
    this.#idleMs = limits.idleMs ?? DEFAULT_IDLE_MS;
  }

  /** Every live set (for close, and for a caller that reports on them). */
  sets(): BackendSet[] {
    return [...this.#shared.values()].map((entry) => entry.set)
      .concat([...this.#pending.values()].flat().map((entry) => entry.set), [...this.#bySession.values()]);
  }

  /** The set answering `host` on `session`, made on first use. */
  setFor(host: HostIdentity, session: HostSession | undefined): BackendSet {
    if (this.#closed) throw new RpcError("mcpwire serve is closing; no request is taken", -32603);
    if (host.era === "legacy") {
      if (session !== undefined) return this.claim(session, host);
      return this.#pendingFor(host);
    }
    const key = signature(host);
    let entry = this.#shared.get(key);
    if (entry === undefined) {
      this.#makeRoom();
      entry = { set: this.#make(host), lastUsed: Date.now(), timer: undefined };
      this.#shared.set(key, entry);
    }
    if (session !== undefined) entry.set.sessions.add(session);
    this.#touch(key, entry);
    return entry.set;
  }

  /** A handshake session's set: the one its `initialize` made (pending), else a new one. */
  claim(session: HostSession, host: HostIdentity): BackendSet {
    const own = this.#bySession.get(session.id);
    if (own !== undefined) return own;
    const key = signature(host);
    const waiting = this.#pending.get(key);
    const entry = waiting?.shift();
    if (waiting !== undefined && waiting.length === 0) this.#pending.delete(key);
    if (entry !== undefined) clearTimeout(entry.timer);
    const set = entry?.set ?? this.#make(host);
    set.sessions.add(session);
    this.#bySession.set(session.id, set);
    return set;
  }

  /** A 2026-07-28 session ended: its set stays for others; a handshake session's set is closed. */
  async sessionClosed(session: HostSession): Promise<void> {
    for (const entry of this.#shared.values()) entry.set.sessions.delete(session);
    const set = this.#bySession.get(session.id);
    if (set === undefined) return;
    this.#bySession.delete(session.id);
    await set.close();
  }

  /** A request began on `set`: it is not idle. Returns what to call when it ends. */
  use(set: BackendSet): () => void {
    set.active++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      set.active--;
      for (const [key, entry] of this.#shared) if (entry.set === set) this.#touch(key, entry);
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    const sets = this.sets();
    for (const entry of this.#shared.values()) clearTimeout(entry.timer);
    for (const list of this.#pending.values()) for (const entry of list) clearTimeout(entry.timer);
    this.#shared.clear();
    this.#pending.clear();
    this.#bySession.clear();
    await Promise.all(sets.map((set) => set.close()));
  }

  #pendingFor(host: HostIdentity): BackendSet {
    const key = signature(host);
    const entry: Entry = { set: this.#make(host), lastUsed: Date.now(), timer: undefined };
    const list = this.#pending.get(key) ?? [];
    list.push(entry);
    this.#pending.set(key, list);
    // An initialize whose session never opened (the host went away): its set does not outlive the bound.
    entry.timer = setTimeout(() => {
      const now = this.#pending.get(key);
      const at = now?.indexOf(entry) ?? -1;
      if (at < 0) return;
      now!.splice(at, 1);
      if (now!.length === 0) this.#pending.delete(key);
      void entry.set.close();
    }, this.#idleMs);
    return entry.set;
  }

  /** Restarts `entry`'s idle timer (closing it after idleMs unused). */
  #touch(key: string, entry: Entry): void {
    entry.lastUsed = Date.now();
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => {
      if (entry.set.active > 0) return this.#touch(key, entry);
      if (this.#shared.get(key) !== entry) return;
      this.#shared.delete(key);
      void entry.set.close();
    }, this.#idleMs);
  }

  /** Past maxShared: the least recently used idle set is closed, or the request refused. */
  #makeRoom(): void {
    if (this.#shared.size < this.#maxShared) return;
    let oldest: [string, Entry] | undefined;
    for (const pair of this.#shared) {
      if (pair[1].set.active === 0 && (oldest === undefined || pair[1].lastUsed < oldest[1].lastUsed)) oldest = pair;
    }
    if (oldest === undefined) {
      throw new RpcError(
        `mcpwire serve: ${this.#maxShared} hosts with different capabilities are being served at once, the bound; ` +
          "try again when one is done (or raise the bridge's pool.maxShared)",
        -32603,
      );
    }
    clearTimeout(oldest[1].timer);
    this.#shared.delete(oldest[0]);
    void oldest[1].set.close();
  }
}

/** Signatures already made, by the identity's plain JSON text (a host sends the same fields in the same order each time). */
const SIGNATURES = new Map<string, string>();
const MAX_SIGNATURES = 256;

/** What makes two hosts the same to a backend: era, version, capabilities and clientInfo, as canonical JSON. */
export function signature(host: HostIdentity): string {
  const identity = { era: host.era, version: host.protocolVersion, capabilities: host.capabilities, clientInfo: host.clientInfo ?? null };
  const plain = JSON.stringify(identity);
  let made = SIGNATURES.get(plain);
  if (made === undefined) {
    made = canonicalJson(identity);
    if (SIGNATURES.size >= MAX_SIGNATURES) SIGNATURES.clear();
    SIGNATURES.set(plain, made);
  }
  return made;
}
