// Resource subscriptions through the bridge — spec 2025-11-25 server/resources ("Subscriptions"),
// spec 2026-07-28 basic/patterns/subscriptions. A host subscribes to a URI (a handshake-era
// host with resources/subscribe, a 2026-07-28 host by naming it in a `subscriptions/listen`
// stream); the backend that serves the URI is subscribed through its Client, in the backend's
// own era (resources/subscribe, or its own listen filter), once per backend set however many
// host streams want it, and unsubscribed when the last one lets go. Its
// notifications/resources/updated reach the host through backend-set.ts, the URI as it is.

import type { Client } from "../client/client.ts";
import type { Redactor } from "../common/redact.ts";
import type { BackendSet } from "./backend-set.ts";
import { hostError } from "./forwarding.ts";

/** How many host subscriptions each URI of each set has. */
export class ResourceSubscriptions {
  readonly #counts = new WeakMap<BackendSet, Map<string, number>>();

  /** Subscribes `client` (server `server` of `set`) to `uri` unless a host of this set already holds it. */
  async subscribe(set: BackendSet, server: string, client: Client, uri: string): Promise<void> {
    const counts = this.#countsOf(set);
    const key = `${server}\u0000${uri}`;
    const held = counts.get(key) ?? 0;
    counts.set(key, held + 1);
    if (held > 0) return;
    try {
      await client.subscribeResource(uri);
    } catch (error) {
      counts.delete(key);
      throw hostError(server, "resources/subscribe", error, set.manager.redactor);
    }
  }

  /** Lets go of one host's subscription; the backend is unsubscribed when it was the last. */
  async unsubscribe(set: BackendSet, server: string, client: Client | undefined, uri: string, redactor: Redactor): Promise<void> {
    const counts = this.#countsOf(set);
    const key = `${server}\u0000${uri}`;
    const held = counts.get(key) ?? 0;
    if (held > 1) {
      counts.set(key, held - 1);
      return;
    }
    counts.delete(key);
    if (held === 0 || client === undefined) return;
    try {
      await client.unsubscribeResource(uri);
    } catch (error) {
      throw hostError(server, "resources/unsubscribe", error, redactor);
    }
  }

  #countsOf(set: BackendSet): Map<string, number> {
    let counts = this.#counts.get(set);
    if (counts === undefined) this.#counts.set(set, counts = new Map());
    return counts;
  }
}
