// Multi round-trip requests: a result of type "input_required" carries the requests the
// server needs the client to fulfil (elicitation, sampling, roots) and an opaque state; the
// client retries the original request with the answers — spec 2026-07-28 basic/patterns/mrtr.

import { isObject, setOwn } from "../common/json.ts";
import { ProtocolError } from "./errors.ts";
import type { JsonObject } from "./types.ts";

/** spec 2026-07-28 mrtr ("Supported Requests"): the only requests that may need input. */
export const INPUT_CAPABLE_METHODS: ReadonlySet<string> = new Set(["tools/call", "prompts/get", "resources/read"]);

/** spec 2026-07-28 mrtr ("Server Requirements" 2): what an input request may be. */
export const INPUT_REQUEST_METHODS: ReadonlySet<string> = new Set(["elicitation/create", "sampling/createMessage", "roots/list"]);

export const DEFAULT_MAX_INPUT_ROUNDS = 10;

/** One server-to-client request inside an InputRequiredResult. */
export interface InputRequest {
  method: string;
  params?: JsonObject;
}

/** What an input_required result asks for. */
export interface InputRequired {
  /** Keyed by the server's identifiers; absent when the server only wants a retry. */
  inputRequests?: Record<string, InputRequest>;
  /** Echoed back exactly; never inspected (spec: clients MUST NOT parse it). */
  requestState?: string;
}

/** spec 2026-07-28 (Result.resultType): absent means "complete" — earlier servers send none. */
export function isInputRequired(result: JsonObject): boolean {
  return result.resultType === "input_required";
}

/** Checks an input_required result's shape; `who` names the request in errors. */
export function readInputRequired(who: string, result: JsonObject): InputRequired {
  const { inputRequests, requestState } = result;
  if (inputRequests === undefined && requestState === undefined) {
    // spec 2026-07-28 mrtr ("Server Requirements" 5): at least one of the two.
    throw new ProtocolError(`${who}: an input_required result with neither inputRequests nor requestState`, "bad-result");
  }
  if (requestState !== undefined && typeof requestState !== "string") {
    throw new ProtocolError(`${who}: requestState is not a string`, "bad-result");
  }
  if (inputRequests === undefined) return { requestState };
  if (!isObject(inputRequests)) throw new ProtocolError(`${who}: inputRequests is not an object`, "bad-result");
  const requests: Record<string, InputRequest> = {};
  for (const [key, request] of Object.entries(inputRequests)) {
    if (!isObject(request) || typeof request.method !== "string") {
      throw new ProtocolError(`${who}: input request ${JSON.stringify(key)} has no method`, "bad-result");
    }
    if (!INPUT_REQUEST_METHODS.has(request.method)) {
      throw new ProtocolError(
        `${who}: input request ${JSON.stringify(key)} is ${
          JSON.stringify(request.method)
        }; only elicitation/create, sampling/createMessage and roots/list may be asked for`,
        "bad-result",
      );
    }
    if (request.params !== undefined && !isObject(request.params)) {
      throw new ProtocolError(`${who}: input request ${JSON.stringify(key)} has params that are not an object`, "bad-result");
    }
    // A key is the server's: `__proto__` is a key like any other.
    setOwn(requests, key, { method: request.method, ...(request.params !== undefined ? { params: request.params } : {}) });
  }
  return requestState === undefined ? { inputRequests: requests } : { inputRequests: requests, requestState };
}

/**
 * Fulfils every input request, concurrently, with `fulfil` (the client's own handlers) and
 * returns the InputResponses map, keyed as the requests were.
 */
export async function fulfilInputRequests(
  requests: Record<string, InputRequest>,
  fulfil: (request: InputRequest, key: string) => Promise<JsonObject>,
): Promise<Record<string, JsonObject>> {
  const keys = Object.keys(requests);
  const answers = await Promise.all(keys.map((key) => fulfil(requests[key]!, key)));
  const responses: Record<string, JsonObject> = {};
  keys.forEach((key, index) => setOwn(responses, key, answers[index]!));
  return responses;
}

/**
 * The fields of the retry — spec 2026-07-28 mrtr ("Client Requirements" 1-2): the answers,
 * and the exact requestState when (and only when) the server sent one.
 */
export function retryFields(required: InputRequired, responses: Record<string, JsonObject> | undefined): JsonObject {
  const fields: JsonObject = {};
  if (responses !== undefined) fields.inputResponses = responses;
  if (required.requestState !== undefined) fields.requestState = required.requestState;
  return fields;
}
