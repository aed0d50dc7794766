// The session of a Streamable HTTP connection: its id from the initialize answer, a new one
// when the server ended it, and its end with a DELETE — spec 2025-11-25 basic/transports
// ("Session Management" 1-5).

import { messageOf } from "../../common/error-text.ts";
import { bodyStart, discardBody, type RedactFn, showUrl } from "../http-errors.ts";
import { fetchSameOrigin } from "../same-origin-fetch.ts";
import { TransportError, type TransportErrorCode } from "../transport.ts";
import { LinkedAbort } from "./abort.ts";
import { MAX_SESSION_RENEWALS, quoteBody } from "./wire.ts";

/** What the session needs of its transport. */
export interface SessionContext {
  readonly description: string;
  /** The Client's hook that runs the initialize handshake again (onsessionexpired), if set. */
  renewHook(): (() => Promise<void>) | undefined;
  /** close() was called, or the connection ended. */
  isOver(): boolean;
  /** Forgets what belonged to the ended session: the negotiated version, the GET stream. */
  forget(): void;
  /** Ends the connection (onclose) with `reason`. */
  end(reason: string): void;
  report(what: string, code: TransportErrorCode): void;
  /** Server text quoted for a message, redacted. */
  preview(text: string): string;
  /** The DELETE that ends `session`. */
  deleteRequest(session: string, signal: AbortSignal): RequestInit;
  readonly fetch: typeof fetch;
  readonly url: URL;
  /** Bound of the DELETE. */
  readonly closeTimeoutMs: number;
  readonly redact: RedactFn;
}

export class Session {
  readonly #context: SessionContext;
  /** The session the server assigned in its initialize answer (MCP-Session-Id), if any. */
  id: string | undefined;
  /** Counts sessions, so a 404 from an older one asks for a resend, not another new session. */
  epoch = 0;
  /** The handshake of a new session, while it runs. */
  renewal: Promise<void> | undefined;
  /** keep() was called: delete() sends nothing. */
  #kept = false;

  constructor(context: SessionContext) {
    this.#context = context;
  }

  /** 2025-11-25 transports (Session Management) 1: the session id comes with the InitializeResult. */
  take(response: Response): void {
    const id = response.headers.get("mcp-session-id");
    if (id === null) return;
    // Session Management 1: a session id MUST contain only visible ASCII (0x21 to 0x7E).
    if (!/^[\x21-\x7e]+$/.test(id)) {
      this.#context.report(`the server's MCP-Session-Id ${this.#context.preview(id)} has characters outside visible ASCII; using it anyway`, "bad-session-id");
    }
    this.id = id;
  }

  /**
   * Joins session `id`, which another client started with its initialize: its id goes on every
   * request from the first (Session Management 2) and no handshake is run. A server that ended
   * it answers 404, and a new session is started as for any ended one (Session Management 4).
   */
  join(id: string): void {
    this.id = id;
  }

  /**
   * Session Management 5 says a client SHOULD end a session it no longer needs; one whose work
   * goes on after the client closes (a detached task, which the server may keep per session)
   * is still needed. delete() then sends nothing. Returns the session's id, if any.
   */
  keep(): string | undefined {
    this.#kept = true;
    return this.id;
  }

  #forget(): void {
    this.epoch++;
    this.id = undefined;
    this.#context.forget();
  }

  /**
   * The server ended session `epoch` (2025-11-25 transports, Session Management 3-4). The
   * first to notice starts a new one through the Client's hook; the others wait for it.
   * Rejects (and the transport closes) when the new session cannot be started.
   */
  async renew(epoch: number, status: number): Promise<void> {
    const context = this.#context;
    if (epoch !== this.epoch) {
      await this.renewal?.catch(() => {});
      if (context.isOver()) {
        throw new TransportError(`${context.description}: the connection closed while a new session was being started`, "closed");
      }
      return;
    }
    const hook = context.renewHook();
    if (hook === undefined) return;
    const old = this.id;
    this.#forget();
    const renewal = (async () => {
      for (let tries = 1;; tries++) {
        try {
          return await hook();
        } catch (error) {
          // The server restarted again during the handshake (its notifications/initialized met
          // a 404 for the session it had just started): start one with the server as it is now.
          const endedAgain = error instanceof TransportError && error.code === "session-expired";
          if (!endedAgain || tries >= MAX_SESSION_RENEWALS || context.isOver()) throw error;
          this.#forget();
        }
      }
    })();
    this.renewal = renewal;
    try {
      await renewal;
    } catch (error) {
      if (context.isOver()) {
        throw new TransportError(`${context.description}: the connection closed while a new session was being started`, "closed", { cause: error });
      }
      const reason = `the server ended session ${old ?? "(none)"} (HTTP ${status}) and a new session could not be started: ${messageOf(error)}`;
      context.end(reason);
      throw new TransportError(`${context.description}: ${reason}`, "session-expired", { cause: error });
    } finally {
      if (this.renewal === renewal) this.renewal = undefined;
    }
  }

  /**
   * 2025-11-25 transports (Session Management) 5: DELETE the session when we are done with it;
   * a 405 means the server keeps it, which is fine. Bounded by closeTimeoutMs; never throws.
   */
  async delete(): Promise<void> {
    const session = this.id;
    if (session === undefined || this.#kept) return;
    const context = this.#context;
    const limit = new LinkedAbort(undefined, context.closeTimeoutMs);
    try {
      const { response, url } = await fetchSameOrigin(context.fetch, context.url, context.deleteRequest(session, limit.signal), context.description);
      const status = response.status;
      if (response.ok || status === 404 || status === 405) {
        await discardBody(response);
        return;
      }
      const start = await bodyStart(response, context.redact, undefined, limit.signal);
      context.report(`DELETE ${showUrl(url)} (ending session ${session}) answered HTTP ${status}${quoteBody(start)}`, "delete-failed");
    } catch {
      // The server is gone or slow: there is nothing left for us to end.
    } finally {
      limit.dispose();
    }
  }
}
