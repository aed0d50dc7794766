// The names a host sees through the bridge — docs/serve.md ("Names"). One backend keeps its
// tool and prompt names as they are; several are told apart as the registry names them
// (src/registry/naming.ts: `mcp_{server}_{tool}` by default, a server's config key `naming`
// chooses another), prompts the same way; resource URIs are always kept (a URI names the
// resource, whoever serves it). BridgeOptions.naming: `auto` (that rule), `prefixed` (always the
// registry's names), `plain` (never: the first server in config order wins a name two servers
// share, and the collision is reported).

import { DEFAULT_NAMING, toolName } from "../registry/naming.ts";
import type { RegisteredTool } from "../registry/types.ts";

/** How the bridge names what several backends offer (BridgeOptions.naming). */
export type BridgeNaming = "auto" | "prefixed" | "plain";

/** A name two backends both offer, under `plain` names (or a URI two serve): the first server keeps it. */
export interface Collision {
  kind: "tool" | "prompt" | "resource";
  name: string;
  /** The server that keeps the name, then the one whose item is not served. */
  servers: [string, string];
}

/** What a front name stands for: the backend and its own name. */
export interface Route {
  server: string;
  name: string;
}

/** Whether names carry their server under `naming` with these servers. */
export function prefixes(naming: BridgeNaming, serverCount: number): boolean {
  return naming === "prefixed" || (naming === "auto" && serverCount > 1);
}

/**
 * The name a host sees for a tool. Prefixed: the name the registry registered it under (so the
 * server's `naming` key and the registry's fitting apply); else its own name.
 */
export function frontToolName(prefixed: boolean, registered: RegisteredTool): string {
  if (registered.origin.kind !== "mcp") return registered.name;
  return prefixed ? registered.name : registered.origin.tool;
}

/** The name a host sees for a prompt: the registry's format applied to it (`naming` of the server), or its own. */
export function frontPromptName(prefixed: boolean, server: string, prompt: string, format: string | undefined): string {
  return prefixed ? toolName(server, prompt, format ?? DEFAULT_NAMING) : prompt;
}

/**
 * A table from front names to routes, built as a listing is walked: the first server to offer a
 * name keeps it; a later one is a collision, reported once per pair by `onCollision`.
 */
export class RouteTable {
  readonly #routes = new Map<string, Route>();
  readonly #reported: Set<string>;
  readonly #kind: Collision["kind"];
  readonly #onCollision: (collision: Collision) => void;

  constructor(kind: Collision["kind"], reported: Set<string>, onCollision: (collision: Collision) => void) {
    this.#kind = kind;
    this.#reported = reported;
    this.#onCollision = onCollision;
  }

  /** Adds `front` → route; false (and a collision, once) when another server has it. */
  add(front: string, route: Route): boolean {
    const held = this.#routes.get(front);
    if (held === undefined) {
      this.#routes.set(front, route);
      return true;
    }
    if (held.server === route.server) return false;
    const key = `${this.#kind}\u0000${front}\u0000${held.server}\u0000${route.server}`;
    if (!this.#reported.has(key)) {
      this.#reported.add(key);
      this.#onCollision({ kind: this.#kind, name: front, servers: [held.server, route.server] });
    }
    return false;
  }

  get(front: string): Route | undefined {
    return this.#routes.get(front);
  }
}
