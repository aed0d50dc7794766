// What a server asks of the client — spec 2025-11-25 client/elicitation, client/sampling,
// client/roots: the handlers for the capabilities the client declared, at the end of the chain's
// receiving links (the tasks link runs them as tasks when the server asks: tasks/task-receiver.ts),
// and answering the input requests of a 2026-07-28 server (basic/patterns/mrtr).

import { messageOf } from "../common/error-text.ts";
import { ErrorCode, RpcError } from "../jsonrpc/errors.ts";
import type { IncomingRequestContext, Params } from "../jsonrpc/peer.ts";
import { applyDefaults, checkElicitResult, checkRequestedSchema, validateAnswer } from "./elicitation.ts";
import { ProtocolError } from "./errors.ts";
import type { ClientHandlers, HandlerContext } from "./handlers.ts";
import type { InputRequest } from "./input-requests.ts";
import { toRoots } from "./roots.ts";
import type { SamplingGate } from "./sampling.ts";
import { loadJsonSchema } from "./schema/json-schema.ts";
import type { JsonSchemaValidator } from "./schema/schema-validator.ts";
import type { ClientCapabilities, ElicitationSchema, ElicitResult, JsonObject, Root } from "./types.ts";

/** What answering the server needs from the Client. */
export interface ServerRequestsOptions {
  handlers: ClientHandlers;
  /** What the client declared (in initialize, or in each modern request's `_meta`). */
  capabilities: ClientCapabilities;
  sampling: SamplingGate | undefined;
  /** The static roots list, as it is now (setRoots replaces it). */
  roots(): Root[] | undefined;
  /** Names the server in messages, once connected. */
  name(): string;
  /** URL-mode elicitation ids seen and not completed (notifications/elicitation/complete ends them). */
  openElicitations: Set<string>;
  onProblem(message: string): void;
  /** Which validator checks an elicitation answer (ClientOptions.jsonSchema); undefined: the runtime's default. */
  jsonSchema: JsonSchemaValidator | undefined;
}

/** A request handler as the Peer calls it. */
type Handler = (params: Params | undefined, context: IncomingRequestContext) => Promise<Params>;

/** Answers sampling/createMessage, elicitation/create and roots/list, as requests or as input requests. */
export class ServerRequests {
  readonly #options: ServerRequestsOptions;
  readonly #handlers: Map<string, Handler>;

  constructor(options: ServerRequestsOptions) {
    this.#options = options;
    this.#handlers = this.#handle();
  }

  /**
   * The end of the chain's receiving links (docs/architecture.md, "The chain"): the request
   * answered by this client's handler for it, or -32601 for a method it does not serve (spec
   * 2025-11-25 basic/index, JSON-RPC 2.0 "Method not found").
   */
  receive(method: string, params: Params | undefined, context: IncomingRequestContext): Promise<Params> {
    const handler = this.#handlers.get(method);
    if (handler === undefined) return Promise.reject(new RpcError(`Method not found: ${method}`, ErrorCode.MethodNotFound));
    return handler(params, context);
  }

  /** A handler for each request this client answers, by method. */
  #handle(): Map<string, Handler> {
    const handlers = new Map<string, Handler>();
    // Always answered: an undeclared mode gets -32602 (spec 2025-11-25 client/elicitation "Error Handling").
    handlers.set("elicitation/create", (params, context) => this.#elicit(params, context));
    const sampling = this.#options.sampling;
    if (sampling !== undefined) {
      handlers.set("sampling/createMessage", async (params, context) => (await sampling.run(params, this.#context(context))) as Params);
    }
    if (this.#options.capabilities.roots !== undefined) {
      // spec 2025-11-25 client/roots ("Listing Roots").
      handlers.set("roots/list", async (_params, context) => ({ roots: await this.#currentRoots(context) }));
    }
    return handlers;
  }

  /** One input request of an InputRequiredResult, answered by the same handlers a legacy server's request reaches. */
  async fulfil(who: string, request: InputRequest, key: string, signal: AbortSignal | undefined): Promise<JsonObject> {
    const context: IncomingRequestContext = { requestId: key, method: request.method, signal: signal ?? new AbortController().signal };
    try {
      switch (request.method) {
        case "elicitation/create":
          return await this.#elicit(request.params, context, true);
        case "sampling/createMessage":
          if (this.#options.sampling === undefined) break;
          return await this.#options.sampling.run(request.params, this.#context(context)) as JsonObject;
        case "roots/list":
          if (this.#options.capabilities.roots === undefined) break;
          return { roots: await this.#currentRoots(context) } as JsonObject;
      }
    } catch (error) {
      throw new ProtocolError(
        `${who}: the server's ${request.method} input request ${JSON.stringify(key)} could not be fulfilled: ${messageOf(error)}`,
        "input-failed",
        { cause: error },
      );
    }
    // spec 2026-07-28 mrtr ("Server Requirements" 7): servers MUST NOT ask for what was not declared.
    throw new ProtocolError(
      `${who}: the server asked for ${request.method} (input request ${JSON.stringify(key)}), a capability this client did not declare`,
      "undeclared-capability",
    );
  }

  #context(context: IncomingRequestContext): HandlerContext {
    return { server: this.#options.name(), signal: context.signal, requestId: context.requestId };
  }

  async #currentRoots(context: IncomingRequestContext): Promise<Root[]> {
    const handler = this.#options.handlers.roots;
    return handler !== undefined ? toRoots(await handler(this.#context(context))) : this.#options.roots() ?? [];
  }

  /** `modern`: an input request of the 2026-07-28 wire, where URL mode has no elicitationId. */
  async #elicit(params: Params | undefined, context: IncomingRequestContext, modern = false): Promise<Params> {
    const who = `${this.#options.name()}: elicitation/create`;
    const handlers = this.#options.handlers.elicitation ?? {};
    const opened = this.#options.openElicitations;
    // spec 2025-11-25 client/elicitation: a request without `mode` is form mode.
    const mode = params?.mode ?? "form";
    const declared = this.#options.capabilities.elicitation;
    if (mode !== "form" && mode !== "url") {
      throw new RpcError(`${who}: unknown mode ${JSON.stringify(mode)}; this client supports "form" and "url"`, ErrorCode.InvalidParams);
    }
    if (declared?.[mode] === undefined) {
      const modes = Object.keys(declared ?? {});
      throw new RpcError(
        `${who}: this client did not declare ${mode}-mode elicitation` +
          (modes.length === 0 ? " (it declares no elicitation)" : ` (it declares: ${modes.join(", ")})`),
        ErrorCode.InvalidParams,
      );
    }
    const message = typeof params?.message === "string" ? params.message : "";
    if (mode === "url") {
      const url = params?.url;
      const elicitationId = params?.elicitationId;
      if (typeof url !== "string" || !URL.canParse(url)) {
        throw new RpcError(`${who}: url mode needs a valid "url" (got ${JSON.stringify(url)})`, ErrorCode.InvalidParams);
      }
      if (typeof elicitationId !== "string" && !modern) {
        throw new RpcError(`${who}: url mode needs an "elicitationId"`, ErrorCode.InvalidParams);
      }
      if (typeof elicitationId === "string") opened.add(elicitationId);
      // spec 2025-11-25 client/elicitation ("Safe URL Handling"): nothing is prefetched; the handler gets the full URL.
      const request = { url, host: new URL(url).host, message, ...(typeof elicitationId === "string" ? { elicitationId } : {}) };
      const result = checkedElicitResult(who, await handlers.url!(request, this.#context(context)));
      if (result.action !== "accept" && typeof elicitationId === "string") opened.delete(elicitationId);
      return withoutContent(result); // content belongs to form mode only
    }
    const problem = checkRequestedSchema(params?.requestedSchema);
    if (problem !== undefined) {
      throw new RpcError(`${who}: the requestedSchema is outside the restricted form: ${problem}`, ErrorCode.InvalidParams);
    }
    const requestedSchema = params!.requestedSchema as ElicitationSchema;
    const request = { mode: "form" as const, message, requestedSchema, ...(params?._meta !== undefined ? { _meta: params._meta as JsonObject } : {}) };
    const result = checkedElicitResult(who, await handlers.form!(request, this.#context(context)));
    if (result.action !== "accept") return withoutContent(result);
    // SEP-1034 (spec 2025-11-25 client/elicitation "Requested Schema"): defaults fill omitted fields.
    const content = applyDefaults(requestedSchema, result.content);
    await loadJsonSchema(this.#options.jsonSchema);
    const failures = validateAnswer(requestedSchema, content, this.#options.jsonSchema);
    if (failures !== undefined) {
      this.#options.onProblem(`${who}: the elicitation handler's answer was not sent: ${failures.join("; ")}`);
      throw new RpcError(
        `${who}: the client's answer does not match the requestedSchema (${failures.join("; ")}); it was not sent`,
        ErrorCode.InternalError,
      );
    }
    return { ...result, content };
  }
}

function checkedElicitResult(who: string, result: unknown): ElicitResult {
  const checked = checkElicitResult(result);
  if (typeof checked === "string") throw new RpcError(`${who}: ${checked}; nothing was sent`, ErrorCode.InternalError);
  return checked;
}

/** An ElicitResult without `content` (a declined or cancelled form, any URL-mode answer). */
function withoutContent(result: ElicitResult): Params {
  const { content: _content, ...rest } = result;
  return rest;
}
