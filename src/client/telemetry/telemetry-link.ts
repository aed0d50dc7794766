// A Client's spans and the trace context it sends, when telemetry is on — OpenTelemetry semantic
// conventions for MCP (gen-ai/mcp.md: a CLIENT span per request named `{mcp.method.name}
// {target}`, attributes mcp.method.name, mcp.protocol.version, mcp.session.id, jsonrpc.request.id,
// gen_ai.tool.name, gen_ai.prompt.name, mcp.resource.uri, network.transport, server.address,
// error.type; "Context propagation": trace context in params._meta) and spec 2026-07-28
// basic/index ("OpenTelemetry trace context"). A link of the connection's chain when telemetry is
// on: off, the chain has no telemetry link and a request runs none of this.

import type { Hear, Middleware, Receive, Send } from "../../jsonrpc/middleware.ts";
import type { Params, RequestHandler, RequestOptions } from "../../jsonrpc/peer.ts";
import { SPAN_KIND, type Telemetry, type TelemetryAttributes, type TelemetryContext, type TelemetrySpan, type TracedConnection } from "../telemetry.ts";
import { remoteParent, traceFields } from "./trace-context.ts";

/** The server-to-client requests handled as children of the traceparent they carry. */
const TRACED_HANDLERS: ReadonlySet<string> = new Set(["sampling/createMessage", "elicitation/create", "roots/list"]);

/**
 * The telemetry link of a client's chain (docs/architecture.md, "The chain"), innermost, so it
 * sees every request the client puts on the wire (tool calls, each MRTR retry, task polls,
 * subscriptions/listen, lists, reads): each in a client span whose trace context goes into the
 * request's `_meta`. The server's sampling, elicitation and roots requests run as children of the
 * traceparent they carry, and what a 2026-07-28 listen stream delivers is an event of the listen
 * request's span. A server's answer never changes our context.
 */
export function telemetryLink(telemetry: Telemetry, connection: TracedConnection): Middleware {
  const network = connection.transport === undefined ? {} : networkOf(connection.transport);
  /** The open subscriptions/listen request's span (2026-07-28): the notifications of its stream are its events. */
  let listening: TelemetrySpan | undefined;
  const send = (next: Send): Send => (method, params, options) => {
    // The parent is read once, at the call's start: the caller's, the connection's, or the active context.
    const parent = (options.traceContext as TelemetryContext | undefined) ?? connection.connectContext ?? telemetry.active();
    const span = telemetry.start(spanName(method, params), SPAN_KIND.client, requestAttributes(method, params, telemetry, connection, network), parent);
    const context = telemetry.within(parent, span);
    const meta = params?._meta;
    const traced: Params = {
      ...params,
      _meta: { ...(typeof meta === "object" && meta !== null ? meta : {}), ...traceFields(telemetry.api, span, context) },
    };
    const given = options.onProgress;
    const onId = options.onId;
    const tracedOptions: RequestOptions = {
      ...options,
      onId: (id) => {
        span.setAttribute("jsonrpc.request.id", String(id));
        onId?.(id);
      },
    };
    if (given !== undefined || options.progress === true) {
      // A request that carries a progress token anyway: its progress notifications are events of its span.
      tracedOptions.onProgress = (progress) => {
        telemetry.event(span, "notifications/progress", { "mcp.progress": progress.progress, "mcp.progress.total": progress.total });
        given?.(progress);
      };
    }
    if (method === "subscriptions/listen") listening = span;
    return next(method, traced, tracedOptions).then(
      (result) => {
        if (listening === span) listening = undefined;
        ended(span, telemetry, connection);
        if (method === "tools/call" && result.isError === true) {
          // gen-ai/mcp.md: a tool's error result is recorded with error.type "tool_error".
          telemetry.set(span, "error.type", "tool_error");
          span.setStatus({ code: 2, message: "the tool answered with isError: true" });
        }
        if (telemetry.captureResults && method === "tools/call") telemetry.set(span, "gen_ai.tool.call.result", telemetry.json(result.content ?? result));
        span.end();
        return result;
      },
      (error: unknown) => {
        if (listening === span) listening = undefined;
        ended(span, telemetry, connection);
        const failure = (error as { code?: unknown } | null)?.code;
        if (method === "subscriptions/listen" && (failure === "cancelled" || failure === "connection-closed")) {
          // spec 2026-07-28 subscriptions ("Cancellation"): a listen stream ends when we stop it; that is no error.
          span.end();
          throw error;
        }
        const code = (error as { rpcCode?: unknown } | null)?.rpcCode;
        if (typeof code === "number") span.setAttribute("rpc.response.status_code", String(code));
        telemetry.fail(span, error);
        throw error;
      },
    );
  };
  return {
    name: "telemetry",
    send,
    receive: (next: Receive): Receive => {
      const traced = new Map(
        [...TRACED_HANDLERS].map((
          method,
        ) => [method, tracedHandler(method, (params, context) => next(method, params, context), telemetry, connection, network)]),
      );
      return (method, params, context) => {
        const handler = traced.get(method);
        return handler !== undefined ? handler(params, context) : next(method, params, context);
      };
    },
    hear: (next: Hear): Hear => (method, params) => {
      // spec 2026-07-28 basic/patterns/subscriptions: what the listen stream delivers, by method only (no contents).
      if (listening !== undefined) telemetry.event(listening, method);
      next(method, params);
    },
  };
}

/** A server-to-client request handled in a SERVER span, the child of the traceparent in its `_meta` (if any). */
function tracedHandler(
  method: string,
  handler: RequestHandler,
  telemetry: Telemetry,
  connection: TracedConnection,
  network: TelemetryAttributes,
): RequestHandler {
  return (params, context) => {
    const base = telemetry.api.ROOT_CONTEXT;
    const parent = remoteParent(telemetry.api, params?._meta, base) ?? connection.connectContext ?? telemetry.active();
    const span = telemetry.start(method, SPAN_KIND.server, {
      "mcp.method.name": method,
      "jsonrpc.request.id": String(context.requestId),
      "mcp.protocol.version": connection.version,
      ...network,
    }, parent);
    let outcome: Params | Promise<Params>;
    try {
      // What the handler starts (a model request for sampling) runs in the span's context.
      outcome = telemetry.api.context.with(telemetry.within(parent, span), () => handler(params, context));
    } catch (error) {
      telemetry.fail(span, error);
      throw error;
    }
    return Promise.resolve(outcome).then(
      (result) => {
        span.end();
        return result;
      },
      (error: unknown) => {
        telemetry.fail(span, error);
        throw error;
      },
    );
  };
}

/**
 * An input request of a 2026-07-28 multi round-trip result (or of a task) handled in a SERVER
 * span, as a server's request is: a child of the traceparent in its params' `_meta` when it
 * carries one, else of the active context.
 */
export function tracedInput<T>(
  telemetry: Telemetry,
  request: { method: string; params?: Params },
  version: string | undefined,
  answer: () => Promise<T>,
): Promise<T> {
  const parent = remoteParent(telemetry.api, request.params?._meta, telemetry.api.ROOT_CONTEXT) ?? telemetry.active();
  const span = telemetry.start(request.method, SPAN_KIND.server, { "mcp.method.name": request.method, "mcp.protocol.version": version }, parent);
  let answered: Promise<T>;
  try {
    answered = telemetry.api.context.with(telemetry.within(parent, span), answer);
  } catch (error) {
    telemetry.fail(span, error);
    throw error;
  }
  return answered.then(
    (result) => {
      span.end();
      return result;
    },
    (error: unknown) => {
      telemetry.fail(span, error);
      throw error;
    },
  );
}

/** gen-ai/mcp.md "Spans": `{mcp.method.name} {target}`, the target a tool or prompt name (low cardinality). */
function spanName(method: string, params: Params | undefined): string {
  if ((method === "tools/call" || method === "prompts/get") && typeof params?.name === "string") return `${method} ${params.name}`;
  return method;
}

function requestAttributes(
  method: string,
  params: Params | undefined,
  telemetry: Telemetry,
  connection: TracedConnection,
  network: TelemetryAttributes,
): TelemetryAttributes {
  const attributes: TelemetryAttributes = {
    "mcp.method.name": method,
    "mcp.protocol.version": connection.version,
    "mcp.session.id": connection.transport?.sessionId,
    ...network,
  };
  if (method === "tools/call" && typeof params?.name === "string") {
    attributes["gen_ai.tool.name"] = params.name;
    attributes["gen_ai.operation.name"] = "execute_tool";
    if (telemetry.captureArguments) attributes["gen_ai.tool.call.arguments"] = telemetry.json(params.arguments ?? {});
  } else if (method === "prompts/get" && typeof params?.name === "string") {
    attributes["gen_ai.prompt.name"] = params.name;
  } else if (typeof params?.uri === "string") {
    attributes["mcp.resource.uri"] = params.uri;
  } else if (typeof params?.taskId === "string") {
    attributes["mcp.task.id"] = params.taskId;
  }
  return attributes;
}

/** What is known only at the answer: the session (assigned by initialize) and the version. */
function ended(span: TelemetrySpan, telemetry: Telemetry, connection: TracedConnection): void {
  telemetry.set(span, "mcp.session.id", connection.transport?.sessionId);
  telemetry.set(span, "mcp.protocol.version", connection.version);
}

/** network.transport and server.address/port of a transport, as far as its shape tells. */
export function networkOf(transport: { description: string }): TelemetryAttributes {
  const url = (transport as { url?: unknown }).url;
  if (url instanceof URL) {
    return { "network.transport": "tcp", "server.address": url.hostname, "server.port": url.port === "" ? undefined : Number(url.port) };
  }
  return transport.description.startsWith("stdio ") ? { "network.transport": "pipe" } : {};
}
