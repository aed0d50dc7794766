// How a wrapping transport (tracing, auto-http) passes the HTTP-only hooks of the Client on to
// the transport it wraps, in one place — spec 2025-11-25 basic/transports (the
// MCP-Protocol-Version header, "Session Management").

import { TransportBase } from "./lifecycle.ts";
import type { ClientTransport, HttpTransportHooks } from "./transport.ts";

/**
 * Remembers what the Client handed a wrapper (the wire's version, the session-expired hook) and hands it to the wrapped transport: at once when one is attached,
 * and again to each transport attached later (auto-http tries one, then another).
 */
export class HttpHooksRelay implements Omit<HttpTransportHooks, "sendsHeaders"> {
  #target: ClientTransport | undefined;
  #version: string | undefined;
  #sessionExpired: (() => Promise<void>) | undefined;
  #joined: { id: string; version: string } | undefined;
  #kept = false;

  /** Makes `target` the transport that receives the hooks, and hands it those already given. */
  attach(target: ClientTransport): void {
    this.#target = target;
    if (this.#sessionExpired !== undefined) target.onsessionexpired = this.#sessionExpired;
    if (this.#joined !== undefined) target.joinSession?.(this.#joined.id, this.#joined.version);
    if (this.#kept) target.keepSession?.();
    if (this.#version !== undefined) target.setProtocolVersion?.(this.#version);
  }

  /** Stops handing hooks to `target` and takes its session-expired hook back. */
  detach(target: ClientTransport): void {
    if (this.#target === target) this.#target = undefined;
    target.onsessionexpired = undefined;
  }

  setProtocolVersion(version: string | undefined): void {
    this.#version = version;
    this.#target?.setProtocolVersion?.(version);
  }

  joinSession(id: string, version: string): void {
    this.#joined = { id, version };
    this.#version = version;
    this.#target?.joinSession?.(id, version);
  }

  keepSession(): string | undefined {
    this.#kept = true;
    return this.#target?.keepSession?.();
  }

  get onsessionexpired(): (() => Promise<void>) | undefined {
    return this.#sessionExpired;
  }

  set onsessionexpired(hook: (() => Promise<void>) | undefined) {
    this.#sessionExpired = hook;
    if (this.#target !== undefined) this.#target.onsessionexpired = hook;
  }
}

/**
 * The base of a transport that wraps others (tracing, auto-http): the shared lifecycle
 * (lifecycle.ts), and the HTTP hooks of the Client passed through `hooks` to whichever
 * transport is wrapped, so tracing or choosing a transport never changes what the Client can
 * ask of an HTTP transport.
 */
export abstract class TransportWrapper extends TransportBase implements HttpTransportHooks {
  /** Hands the hooks to the wrapped transport: attach() it once known. */
  protected readonly hooks = new HttpHooksRelay();
  /** Whether the wrapped transport sends SendOptions.headers (HTTP); the wrapper passes them on as given. */
  abstract readonly sendsHeaders: boolean;

  setProtocolVersion(version: string | undefined): void {
    this.hooks.setProtocolVersion(version);
  }

  joinSession(id: string, version: string): void {
    this.hooks.joinSession(id, version);
  }

  keepSession(): string | undefined {
    return this.hooks.keepSession();
  }

  get onsessionexpired(): (() => Promise<void>) | undefined {
    return this.hooks.onsessionexpired;
  }

  set onsessionexpired(hook: (() => Promise<void>) | undefined) {
    this.hooks.onsessionexpired = hook;
  }
}
