// The requests a server sends the host while answering one of its requests — sampling,
// elicitation, roots — and the rules they keep: only on the handshake era, and only when the
// host declared the capability — spec 2025-11-25 basic/lifecycle ("Capability Negotiation"),
// client/sampling, client/elicitation, client/roots; spec 2026-07-28 basic/patterns/mrtr (the
// stateless wire has no server-to-client requests: a handler answers `input_required`).

import type { ClientCapabilities } from "../client/types.ts";
import { ServerError } from "./errors.ts";
import type { HostIdentity } from "./server-handlers.ts";

/** The capability a host must have declared for each request a server may send it. */
const REQUIRED_CAPABILITY: Readonly<Record<string, keyof ClientCapabilities>> = {
  "sampling/createMessage": "sampling",
  "elicitation/create": "elicitation",
  "roots/list": "roots",
};

/**
 * Throws the ServerError a request to the host is refused with, before anything is sent:
 * "wrong-era" on a 2026-07-28 request; "missing-capability" when the host did not declare what
 * `method` needs. `who` names the server and the request being answered.
 */
export function checkHostRequest(who: string, method: string, host: HostIdentity): void {
  if (host.era === "modern") {
    throw new ServerError(
      `${who}: cannot send ${method} to the host: a 2026-07-28 request cannot be answered with requests to the host; ` +
        "answer an input_required result with inputRequests instead (spec 2026-07-28 basic/patterns/mrtr)",
      "wrong-era",
      { method },
    );
  }
  const capability = REQUIRED_CAPABILITY[method];
  if (capability !== undefined && host.capabilities[capability] === undefined) {
    throw new ServerError(
      `${who}: cannot send ${method} to the host: it did not declare the "${capability}" capability in initialize ` +
        `(it declared ${Object.keys(host.capabilities).join(", ") || "none"}); do without it, or ask the host's user another way`,
      "missing-capability",
      { method },
    );
  }
}
