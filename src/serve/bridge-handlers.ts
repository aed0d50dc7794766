// The bridge as the server half sees it: a ServerHandlers (src/server/server-handlers.ts) that
// answers each host request from the backends of that host's BackendSet — tools, resources,
// prompts, completion, logging, tasks — spec 2025-11-25 server/tools, server/resources,
// server/prompts, server/utilities/completion, server/utilities/logging; the tasks extension.
// docs/serve.md. A reader following a call: request() → #tools()/#call() → forward() (forwarding.ts)
// → the backend's Client → its transport; the answer back the same way.

import type { Client } from "../client/client.ts";
import { INPUT_CAPABLE_METHODS } from "../client/input-requests.ts";
import type { LoggingLevel, ServerCapabilities } from "../client/types.ts";
import { isObject } from "../common/json.ts";
import type { ServerConfig } from "../host/config/types.ts";
import { RpcError } from "../jsonrpc/errors.ts";
import type { Params } from "../jsonrpc/peer.ts";
import type { HostIdentity, HostSession, ListenFilter, ServerHandlers, ServerRequestContext } from "../server/server-handlers.ts";
import type { BackendPool } from "./backend-pool.ts";
import type { BackendSet } from "./backend-set.ts";
import { backendParams, forward, hostError, INTERNAL_ERROR } from "./forwarding.ts";
import { type Collision, frontPromptName, frontToolName, type Route, RouteTable } from "./front-names.ts";
import { HeldCall, HeldCalls } from "./held-calls.ts";
import { requestCaller, statelessCaller } from "./host-forwarders.ts";
import { ResourceSubscriptions } from "./resource-subscriptions.ts";

/** -32601: a method the bridge does not serve. -32602: an unknown tool, prompt or resource. */
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
/** How many task ids the bridge remembers the server of. */
const MAX_TASK_ROUTES = 10_000;
/** spec 2025-11-25 server/utilities/logging ("Log Levels"): RFC 5424's, most verbose first. */
const LOGGING_LEVELS: ReadonlySet<string> = new Set(["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]);
/** Not-found answers of resources/read: -32002 (handshake era), -32602 (2026-07-28). */
const NOT_FOUND_CODES: ReadonlySet<number> = new Set([-32002, -32602]);

/** What BridgeHandlers needs of the bridge that made it. */
export interface BridgeParts {
  serverInfo: ServerHandlers["serverInfo"];
  instructions?: string;
  /**
   * One backend is served and no serverInfo was given: the host is told the backend's own
   * serverInfo and instructions once a backend client has them, as if it talked to it directly.
   */
  passIdentity: boolean;
  pool: BackendPool;
  /** The served servers, in config order. */
  servers: readonly ServerConfig[];
  prefixed: boolean;
  /** The calls of 2026-07-28 hosts held for their retries (held-calls.ts). */
  held: HeldCalls;
  /** Collisions already reported (once per pair, across sets). */
  reported: Set<string>;
  collision(collision: Collision): void;
}

/** The routes one listing of a set found, kept until the next listing of the same kind. */
interface SetRoutes {
  tools?: RouteTable;
  prompts?: RouteTable;
  resources?: RouteTable;
}

export class BridgeHandlers implements ServerHandlers {
  readonly #parts: BridgeParts;
  readonly #routes = new WeakMap<BackendSet, SetRoutes>();
  readonly #subscriptions = new ResourceSubscriptions();
  /** The level last set at each backend of each set (logging/setLevel is sent only when it changes). */
  readonly #levels = new WeakMap<BackendSet, Map<string, LoggingLevel>>();
  /** Task ids (tasks extension; spec 2025-11-25 basic/utilities/tasks) by the server that made them. */
  readonly #tasks = new Map<string, string>();

  constructor(parts: BridgeParts) {
    this.#parts = parts;
  }

  /** The front's identity: the one backend's own when it is passed through (BridgeParts.passIdentity), else the bridge's. */
  get serverInfo(): ServerHandlers["serverInfo"] {
    return this.#soleBackend()?.serverInfo ?? this.#parts.serverInfo;
  }

  /** The instructions given to the bridge, else the one backend's own when its identity is passed through. */
  get instructions(): string | undefined {
    return this.#parts.instructions ?? this.#soleBackend()?.instructions;
  }

  /** The one backend's client that knows its serverInfo (every host's set connects to the same server), when its identity is passed through. */
  #soleBackend(): Client | undefined {
    if (!this.#parts.passIdentity) return undefined;
    const name = this.#parts.servers[0]?.name;
    if (name === undefined) return undefined;
    for (const set of this.#parts.pool.sets()) {
      const client = set.client(name);
      if (client?.serverInfo !== undefined) return client;
    }
    return undefined;
  }

  /** What the backends of `host`'s set declare, together: a family is served when one backend serves it. */
  async capabilities(host: HostIdentity): Promise<ServerCapabilities> {
    const set = this.#parts.pool.setFor(host, undefined);
    await set.start();
    // spec 2025-11-25 server/tools: tools are always offered, and listChanged always said, since a backend lost takes its tools away.
    const declared: ServerCapabilities = { tools: { listChanged: true } };
    for (const [, client] of this.#ready(set)) {
      const theirs = client.serverCapabilities ?? {};
      if (theirs.resources !== undefined) {
        declared.resources = { listChanged: true, ...(theirs.resources.subscribe === true || declared.resources?.subscribe ? { subscribe: true } : {}) };
      }
      if (theirs.prompts !== undefined) declared.prompts = { listChanged: true };
      if (theirs.completions !== undefined) declared.completions = {};
      if (theirs.logging !== undefined) declared.logging = {};
      // spec 2025-11-25 basic/utilities/tasks ("Server Capabilities"): a backend's tasks, so a handshake-era host may ask for
      // one (routed by its id); the 2026-07-28 wire has no `tasks` capability (its tasks extension is followed by the bridge).
      if (theirs.tasks !== undefined && host.era === "legacy") declared.tasks ??= theirs.tasks;
    }
    return declared;
  }

  /** Starts `host`'s set and lists its tools, prompts and resources: what start() does to report collisions early. */
  async survey(host: HostIdentity): Promise<void> {
    const set = this.#parts.pool.setFor(host, undefined);
    await set.start();
    await Promise.all([this.#tools(set), this.#prompts(set), this.#resources(set, "resources")]);
  }

  sessionOpened(session: HostSession): void {
    if (session.host?.era === "legacy") this.#parts.pool.claim(session, session.host);
  }

  sessionClosed(session: HostSession): void {
    void this.#parts.pool.sessionClosed(session);
  }

  notification(method: string, _params: Params | undefined, session: HostSession): void {
    // spec 2025-11-25 client/roots ("Root List Changes"): each backend that asked roots hears it.
    if (method !== "notifications/roots/list_changed" || session.host === undefined) return;
    const set = this.#parts.pool.claim(session, session.host);
    for (const [, client] of this.#ready(set)) void client.notify(method).catch(() => {});
  }

  async request(method: string, params: Params | undefined, context: ServerRequestContext): Promise<Params> {
    const { pool } = this.#parts;
    const set = pool.setFor(context.host, context.session);
    const done = pool.use(set);
    try {
      await set.start();
      switch (method) {
        case "tools/list":
          return { tools: await this.#tools(set) };
        case "tools/call":
          return await this.#call(set, params, context);
        case "prompts/list":
          return { prompts: await this.#prompts(set) };
        case "prompts/get":
          return await this.#prompt(set, params, context);
        case "resources/list":
          return { resources: await this.#resources(set, "resources") };
        case "resources/templates/list":
          return { resourceTemplates: await this.#resources(set, "resourceTemplates") };
        case "resources/read":
          return await this.#byUri(set, method, params, context);
        case "resources/subscribe":
        case "resources/unsubscribe":
          return await this.#subscription(set, method, params);
        case "completion/complete":
          return await this.#complete(set, params, context);
        case "logging/setLevel":
          return await this.#setLevel(set, params);
        default:
          if (method.startsWith("tasks/")) return await this.#task(set, method, params, context);
          throw new RpcError(`mcpwire serve does not serve ${method}`, METHOD_NOT_FOUND);
      }
    } finally {
      done();
    }
  }

  /** The ready backends of a set, in config order, with their Clients. */
  #ready(set: BackendSet): [ServerConfig, Client][] {
    const ready: [ServerConfig, Client][] = [];
    for (const server of this.#parts.servers) {
      const client = set.client(server.name);
      if (client !== undefined) ready.push([server, client]);
    }
    return ready;
  }

  /** A new route table for a listing; installed (#install) only once filled, so a lookup meanwhile sees the last whole one. */
  #table(kind: keyof SetRoutes): RouteTable {
    return new RouteTable(kind === "tools" ? "tool" : kind === "prompts" ? "prompt" : "resource", this.#parts.reported, this.#parts.collision);
  }

  #install(set: BackendSet, kind: keyof SetRoutes, table: RouteTable): void {
    const routes = this.#routes.get(set) ?? {};
    routes[kind] = table;
    this.#routes.set(set, routes);
  }

  // --- tools: spec 2025-11-25 server/tools --------------------------------------------------

  /**
   * Every ready backend's tools as its Client lists them to this host (its own cache, of this
   * era), less what the registry does not serve: filtered out by include/exclude, or held by
   * its pin (docs/pinning.md) — the registry is the policy, the backend the definition.
   */
  async #tools(set: BackendSet): Promise<Params[]> {
    const table = this.#table("tools");
    const registered = new Map<string, ReturnType<BackendSet["manager"]["registry"]["tools"]>[number]>();
    for (const tool of set.manager.registry.tools()) {
      if (tool.origin.kind === "mcp") registered.set(`${tool.origin.server}\u0000${tool.origin.tool}`, tool);
    }
    const listings = await Promise.all(
      this.#ready(set).map(async ([server, client]) => {
        try {
          return { server, tools: await client.listTools() };
        } catch {
          return { server, tools: [] }; // A backend that cannot list now offers nothing now; its state tells why.
        }
      }),
    );
    const out: Params[] = [];
    for (const { server, tools } of listings) {
      for (const tool of tools) {
        const entry = registered.get(`${server.name}\u0000${tool.name}`);
        if (entry === undefined) continue;
        const front = frontToolName(this.#parts.prefixed, entry);
        if (table.add(front, { server: server.name, name: tool.name })) out.push({ ...tool, name: front } as unknown as Params);
      }
    }
    this.#install(set, "tools", table);
    return out;
  }

  async #call(set: BackendSet, params: Params | undefined, context: ServerRequestContext): Promise<Params> {
    const name = params?.name;
    if (typeof name !== "string") throw new RpcError("tools/call: params.name must be a string", INVALID_PARAMS);
    const route = await this.#route(set, "tools", name, () => this.#tools(set));
    const { server, client, config } = this.#backend(set, route, "tools/call");
    const result = await this.#send(set, server, client, "tools/call", backendParams(params, context, route.name), params, context, config.timeoutMs);
    this.#rememberTask(server, result);
    return result;
  }

  // --- prompts: spec 2025-11-25 server/prompts -----------------------------------------------

  async #prompts(set: BackendSet): Promise<Params[]> {
    const table = this.#table("prompts");
    const out: Params[] = [];
    for (const [server, client] of this.#ready(set)) {
      if (client.serverCapabilities?.prompts === undefined) continue;
      const prompts = await client.listPrompts().catch(() => []);
      for (const prompt of prompts) {
        const front = frontPromptName(this.#parts.prefixed, server.name, prompt.name, server.naming);
        if (table.add(front, { server: server.name, name: prompt.name })) out.push({ ...prompt, name: front } as unknown as Params);
      }
    }
    this.#install(set, "prompts", table);
    return out;
  }

  async #prompt(set: BackendSet, params: Params | undefined, context: ServerRequestContext): Promise<Params> {
    const name = params?.name;
    if (typeof name !== "string") throw new RpcError("prompts/get: params.name must be a string", INVALID_PARAMS);
    const route = await this.#route(set, "prompts", name, () => this.#prompts(set));
    const { server, client } = this.#backend(set, route, "prompts/get");
    return await this.#send(set, server, client, "prompts/get", backendParams(params, context, route.name), params, context, undefined);
  }

  // --- resources: spec 2025-11-25 server/resources ---------------------------------------------

  /** Every ready backend's resources (or templates); a URI two backends list is the first one's. */
  async #resources(set: BackendSet, key: "resources" | "resourceTemplates"): Promise<Params[]> {
    const table = key === "resources" ? this.#table("resources") : undefined;
    const out: Params[] = [];
    for (const [server, client] of this.#ready(set)) {
      if (client.serverCapabilities?.resources === undefined) continue;
      const listed: Params[] = key === "resources"
        ? await client.listResources().then((items) => items as unknown as Params[], () => [])
        : await client.listResourceTemplates().then((items) => items as unknown as Params[], () => []);
      for (const item of listed) {
        const uri = typeof item.uri === "string" ? item.uri : undefined;
        if (table !== undefined && uri !== undefined && !table.add(uri, { server: server.name, name: uri })) continue;
        out.push(item);
      }
    }
    if (table !== undefined) this.#install(set, "resources", table);
    return out;
  }

  /**
   * resources/read: to the backend that listed the URI; a URI none listed
   * (a template's, a link's) is asked of each backend with resources in turn, until one does not
   * answer "not found".
   */
  async #byUri(set: BackendSet, method: string, params: Params | undefined, context: ServerRequestContext): Promise<Params> {
    const uri = params?.uri;
    if (typeof uri !== "string") throw new RpcError(`${method}: params.uri must be a string`, INVALID_PARAMS);
    let known = this.#routes.get(set)?.resources?.get(uri);
    if (known === undefined) {
      await this.#resources(set, "resources");
      known = this.#routes.get(set)?.resources?.get(uri);
    }
    if (known !== undefined) {
      const { server, client } = this.#backend(set, known, method);
      return await this.#send(set, server, client, method, backendParams(params, context), params, context, undefined);
    }
    let notFound: RpcError | undefined;
    for (const [server, client] of this.#ready(set)) {
      if (client.serverCapabilities?.resources === undefined) continue;
      try {
        return await this.#send(set, server.name, client, method, backendParams(params, context), params, context, undefined);
      } catch (error) {
        if (!(error instanceof RpcError) || !NOT_FOUND_CODES.has(error.rpcCode)) throw error;
        notFound ??= error;
      }
    }
    throw notFound ?? new RpcError(`${method}: no server serves ${JSON.stringify(uri)}`, INVALID_PARAMS, { data: { uri } });
  }

  /** The ready backend that serves `uri`: the one that listed it, else the first that takes subscriptions. */
  async #uriOwner(set: BackendSet, uri: string): Promise<{ server: string; client: Client } | undefined> {
    let known = this.#routes.get(set)?.resources?.get(uri);
    if (known === undefined) {
      await this.#resources(set, "resources");
      known = this.#routes.get(set)?.resources?.get(uri);
    }
    if (known !== undefined) return this.#backend(set, known, "resources/subscribe");
    const taker = this.#ready(set).find(([, client]) => client.serverCapabilities?.resources?.subscribe === true);
    return taker === undefined ? undefined : { server: taker[0].name, client: taker[1] };
  }

  /** A handshake-era host's resources/subscribe or unsubscribe, to the backend that serves the URI, in its era. */
  async #subscription(set: BackendSet, method: string, params: Params | undefined): Promise<Params> {
    const uri = params?.uri;
    if (typeof uri !== "string") throw new RpcError(`${method}: params.uri must be a string`, INVALID_PARAMS);
    const owner = await this.#uriOwner(set, uri);
    if (owner === undefined) throw new RpcError(`${method}: no server takes subscriptions to ${JSON.stringify(uri)}`, INVALID_PARAMS, { data: { uri } });
    if (method === "resources/subscribe") await this.#subscriptions.subscribe(set, owner.server, owner.client, uri);
    else await this.#subscriptions.unsubscribe(set, owner.server, owner.client, uri, set.manager.redactor);
    return {};
  }

  /**
   * A 2026-07-28 host opens a `subscriptions/listen` stream (ServerHandlers.listen): each
   * resource URI it names is subscribed at the backend that serves it for as long as the stream
   * lasts; those no backend takes are left out of what is honoured (spec 2026-07-28
   * basic/patterns/subscriptions: the acknowledgment names what is honoured).
   */
  async listen(notifications: ListenFilter, context: ServerRequestContext): Promise<ListenFilter | undefined> {
    const uris = notifications.resourceSubscriptions ?? [];
    if (uris.length === 0) return undefined;
    const { pool } = this.#parts;
    const set = pool.setFor(context.host, context.session);
    await set.start();
    const honoured: string[] = [];
    for (const uri of uris) {
      const owner = await this.#uriOwner(set, uri).catch(() => undefined);
      if (owner === undefined) continue;
      try {
        await this.#subscriptions.subscribe(set, owner.server, owner.client, uri);
      } catch {
        continue; // Not honoured: the acknowledgment leaves it out.
      }
      honoured.push(uri);
      context.signal.addEventListener("abort", () => {
        void this.#subscriptions.unsubscribe(set, owner.server, set.client(owner.server), uri, set.manager.redactor).catch(() => {});
      }, { once: true });
    }
    return { ...notifications, resourceSubscriptions: honoured };
  }

  // --- completion: spec 2025-11-25 server/utilities/completion --------------------------------

  async #complete(set: BackendSet, params: Params | undefined, context: ServerRequestContext): Promise<Params> {
    const ref = isObject(params?.ref) ? params!.ref as Params : undefined;
    if (ref?.type === "ref/prompt" && typeof ref.name === "string") {
      const route = await this.#route(set, "prompts", ref.name, () => this.#prompts(set));
      const { server, client } = this.#backend(set, route, "completion/complete");
      return await this.#send(
        set,
        server,
        client,
        "completion/complete",
        { ...backendParams(params, context), ref: { ...ref, name: route.name } },
        params,
        context,
        undefined,
      );
    }
    // ref/resource: the backend whose template it is, else the first that completes.
    const completing = this.#ready(set).filter(([, client]) => client.serverCapabilities?.completions !== undefined);
    let owner = completing[0];
    if (ref?.type === "ref/resource" && typeof ref.uri === "string" && completing.length > 1) {
      for (const candidate of completing) {
        const templates = await candidate[1].listResourceTemplates().catch(() => []);
        if (templates.some((template) => template.uriTemplate === ref.uri)) {
          owner = candidate;
          break;
        }
      }
    }
    if (owner === undefined) throw new RpcError("completion/complete: no server offers completions", METHOD_NOT_FOUND);
    return await this.#send(set, owner[0].name, owner[1], "completion/complete", backendParams(params, context), params, context, undefined);
  }

  // --- logging: spec 2025-11-25 server/utilities/logging --------------------------------------

  /**
   * A handshake-era host's level, to each ready backend in its era: logging/setLevel to a
   * handshake-era backend that logs; to a 2026-07-28 backend the level its requests carry from
   * now on (spec 2026-07-28 server/utilities/logging: `io.modelcontextprotocol/logLevel`).
   */
  async #setLevel(set: BackendSet, params: Params | undefined): Promise<Params> {
    const level = params?.level;
    if (typeof level !== "string" || !LOGGING_LEVELS.has(level)) {
      throw new RpcError(`logging/setLevel: params.level must be one of ${[...LOGGING_LEVELS].join(", ")}`, INVALID_PARAMS);
    }
    await Promise.all(this.#ready(set).map(([server, client]) => this.#levelTo(set, server.name, client, level as LoggingLevel)));
    return {};
  }

  /** Sets `level` at one backend when it is not what it was last set to in this set. */
  async #levelTo(set: BackendSet, server: string, client: Client, level: LoggingLevel): Promise<void> {
    if (client.era === "legacy" && client.serverCapabilities?.logging === undefined) return;
    const levels = this.#levels.get(set) ?? new Map<string, LoggingLevel>();
    this.#levels.set(set, levels);
    if (levels.get(server) === level) return;
    levels.set(server, level);
    try {
      await client.setLoggingLevel(level);
    } catch (error) {
      levels.delete(server);
      throw hostError(server, "logging/setLevel", error, set.manager.redactor);
    }
  }

  // --- tasks: spec 2025-11-25 basic/utilities/tasks; the 2026-07-28 tasks extension ----------

  /** A tools/call answered with a task: its id is the backend's, remembered to route tasks/* to it. */
  #rememberTask(server: string, result: Params): void {
    const task = result.task;
    const taskId = isObject(task) && typeof task.taskId === "string"
      ? task.taskId
      : result.resultType === "task" && typeof result.taskId === "string"
      ? result.taskId
      : undefined;
    if (taskId === undefined) return;
    this.#tasks.set(taskId, server);
    // Bounded: the oldest task ids are forgotten first (a task that old has long ended, or its ttl has).
    if (this.#tasks.size > MAX_TASK_ROUTES) this.#tasks.delete(this.#tasks.keys().next().value!);
  }

  async #task(set: BackendSet, method: string, params: Params | undefined, context: ServerRequestContext): Promise<Params> {
    const taskId = params?.taskId;
    const server = typeof taskId === "string" ? this.#tasks.get(taskId) : undefined;
    if (server === undefined) throw new RpcError(`${method}: no task ${JSON.stringify(taskId)} was started through this bridge`, INVALID_PARAMS);
    const { client } = this.#backend(set, { server, name: server }, method);
    return await this.#send(set, server, client, method, backendParams(params, context), params, context, undefined);
  }

  // --- sending ------------------------------------------------------------------------------

  /**
   * One host request to one backend, as the eras on each side need: a handshake-era host is asked
   * what the backend asks (requestCaller); a 2026-07-28 host's request that may need input goes
   * to a handshake-era backend as a held call (held-calls.ts), its retry (`requestState` the
   * bridge gave) continuing that call; anything else goes as it is, and a 2026-07-28 backend's
   * `input_required` comes back untouched (forwarding.ts).
   */
  async #send(
    set: BackendSet,
    server: string,
    client: Client,
    method: string,
    sent: Params,
    given: Params | undefined,
    context: ServerRequestContext,
    timeoutMs: number | undefined,
  ): Promise<Params> {
    const era = context.host.era;
    // A 2026-07-28 host's level travels in its request; a handshake-era backend needs it set (logging/setLevel).
    const level = context.host.logLevel;
    if (era === "modern" && level !== undefined && client.era === "legacy") await this.#levelTo(set, server, client, level).catch(() => {});
    if (era === "legacy") return forward(set, server, client, method, sent, requestCaller(context), { signal: context.signal, era, timeoutMs });
    // Held only where the backend may ask: a handshake-era backend, a request that may take input, a host that declared something to ask.
    const { sampling, elicitation, roots } = context.host.capabilities;
    const askable = sampling !== undefined || elicitation !== undefined || roots !== undefined;
    if (!askable || !INPUT_CAPABLE_METHODS.has(method) || client.era !== "legacy") {
      return forward(set, server, client, method, sent, statelessCaller(context, method), { signal: context.signal, era, timeoutMs });
    }
    const { held } = this.#parts;
    const hold = (call: HeldCall) => held.hold(call);
    if (HeldCalls.isOurs(given?.requestState)) {
      const call = held.take(given.requestState);
      if (call === undefined) {
        throw new RpcError(
          `${method}: the call this requestState continued is no longer held (answered, timed out, or the bridge restarted); send the request again without requestState`,
          INVALID_PARAMS,
        );
      }
      call.answer(given.inputResponses);
      return call.serve(context, hold);
    }
    // spec 2026-07-28 mrtr ("Client Requirements" 3): the retry's own fields are not the backend's.
    const { inputResponses: _responses, requestState: _state, ...fresh } = sent;
    const call = new HeldCall();
    call.run((signal) => forward(set, server, client, method, fresh, call, { signal, era, timeoutMs }));
    return call.serve(context, hold);
  }

  // --- routing ------------------------------------------------------------------------------

  /** The route of a front name: from the last listing, else from a fresh one. Unknown: -32602. */
  async #route(set: BackendSet, kind: "tools" | "prompts", front: string, list: () => Promise<unknown>): Promise<Route> {
    const known = this.#routes.get(set)?.[kind]?.get(front);
    if (known !== undefined) return known;
    await list();
    const found = this.#routes.get(set)?.[kind]?.get(front);
    if (found !== undefined) return found;
    // spec 2025-11-25 server/tools ("Error Handling"): an unknown tool is -32602.
    throw new RpcError(`mcpwire serve: no ${kind === "tools" ? "tool" : "prompt"} ${JSON.stringify(front)} is served now`, INVALID_PARAMS);
  }

  /** The ready backend of a route, or -32603 naming it and its state (a lost backend's calls fail at once). */
  #backend(set: BackendSet, route: Route, method: string): { server: string; client: Client; config: ServerConfig } {
    const config = this.#parts.servers.find((each) => each.name === route.server)!;
    const client = set.client(route.server);
    if (client !== undefined) return { server: route.server, client, config };
    const status = set.manager.status().find((each) => each.name === route.server);
    const why = status?.lastError === undefined ? "" : ` (${status.lastError})`;
    throw new RpcError(
      set.manager.redactor.redact(`server "${route.server}" is ${status?.state ?? "not running"}${why}; ${method} was not sent; try again once it is back`),
      INTERNAL_ERROR,
    );
  }
}
