// The functions an embedder gives the Client to answer what a server asks — spec 2025-11-25
// client/elicitation, client/sampling, client/roots. Giving a handler is what declares the
// capability (see Client's `handlers` option).

import type { RequestId } from "../jsonrpc/messages.ts";
import type { CreateMessageRequest, CreateMessageResult, ElicitFormRequest, ElicitResult, Root } from "./types.ts";

/** What every handler gets besides the request. */
export interface HandlerContext {
  /** The server that asks, as error messages name it (`server "github"`). Show it to the user. */
  server: string;
  /** Aborted when the server cancels the request, the timeout passes, or the connection closes. */
  signal: AbortSignal;
  requestId: RequestId;
}

/** A URL-mode elicitation as the handler sees it: the full URL and its host, nothing fetched. */
export interface UrlElicitationRequest {
  url: string;
  /** `new URL(url).host`, for "example.com wants you to open …". */
  host: string;
  message: string;
  /** The server's id for it (2025-11-25); absent on the 2026-07-28 wire, which dropped it. */
  elicitationId?: string;
}

/** The handlers of `elicitation/create`, one per mode: `form` and `url`. */
export interface ElicitationHandlers {
  /**
   * Form mode. The schema was checked against the restricted form before this is called.
   * Fields the answer omits get the schema's defaults (SEP-1034); the answer is then
   * validated and, if it fails, not sent (the server gets -32603 instead).
   */
  form?: (request: ElicitFormRequest, context: HandlerContext) => Promise<ElicitResult>;
  /**
   * URL mode. MUST NOT prefetch the URL; open it only with the user's consent (spec
   * 2025-11-25 client/elicitation "Safe URL Handling"). `accept` means the user agreed to
   * open it, not that the interaction is done.
   */
  url?: (request: UrlElicitationRequest, context: HandlerContext) => Promise<ElicitResult>;
}

export interface SamplingContext extends HandlerContext {
  /** The allowlist of models from the sampling policy, if one is set; the result's model must be in it. */
  allowedModels?: readonly string[];
}

/**
 * Answers sampling/createMessage. `maxTokens` is already capped by the policy and
 * `includeContext` removed. Throw `new SamplingRejectedError()` when the user says no (-1).
 */
export type SamplingHandler = (request: CreateMessageRequest, context: SamplingContext) => Promise<CreateMessageResult>;

/** Answers roots/list; instead of a static `roots` list. */
export type RootsHandler = (context: HandlerContext) => Promise<Root[]> | Root[];

export interface ClientHandlers {
  elicitation?: ElicitationHandlers;
  sampling?: SamplingHandler;
  roots?: RootsHandler;
}
