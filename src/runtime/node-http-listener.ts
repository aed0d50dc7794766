// Runtime.listenHttp on Node (Bun runs it too): node:http's server, each request turned into a
// fetch Request (bounded body, a signal that aborts when the client goes away) and each Response
// written back: an SSE body chunk by chunk, so an event leaves when it is written; any other
// body (a JSON answer) whole, head and body in one write with its Content-Length (types.ts; the
// Deno half is in deno.ts, where Deno.serve does both itself).

import type { IncomingMessage, ServerResponse } from "node:http";
import process from "node:process";
import { FileError, fileErrorCode } from "./errors.ts";
import { LISTENER_MAX_BODY_BYTES, listenerOrigin, readBoundedBody, tooLarge } from "./http-listener.ts";
import type { HttpListener, HttpListenOptions } from "./types.ts";

type Handler = (request: Request) => Response | Promise<Response>;

/** RFC 9110 15's reason phrases by status code (node:http's table), loaded with the listener. */
let STATUS_CODES: Record<number, string | undefined> = {};

/** Listens on options.hostname:options.port (default 127.0.0.1) and answers with handler. */
export async function listenNodeHttp(options: HttpListenOptions, handler: Handler): Promise<HttpListener> {
  const hostname = options.hostname ?? "127.0.0.1";
  const maxBodyBytes = options.maxBodyBytes ?? LISTENER_MAX_BODY_BYTES;
  let origin = listenerOrigin(hostname, options.port);
  const http = process.getBuiltinModule("node:http");
  STATUS_CODES = http.STATUS_CODES;
  const server = http.createServer((req, res) => {
    answer(req, res, origin, maxBodyBytes, handler).catch(() => res.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      reject(new FileError(`cannot listen on ${origin}: ${error.message}`, fileErrorCode(error.code), { path: `${hostname}:${options.port}`, cause: error }));
    });
    server.listen(options.port, hostname, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : options.port;
  origin = listenerOrigin(hostname, port);
  return {
    hostname,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Ends the open streams too: each response's 'close' aborts its request and cancels its body.
        server.closeAllConnections();
      }),
  };
}

async function answer(req: IncomingMessage, res: ServerResponse, origin: string, maxBodyBytes: number, handler: Handler): Promise<void> {
  const method = req.method ?? "GET";
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    try {
      headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    } catch {
      // a header fetch refuses (a byte outside Latin-1): left out
    }
  }
  let body: Uint8Array<ArrayBuffer> | undefined;
  if (method !== "GET" && method !== "HEAD") {
    body = await readBoundedBody(req as AsyncIterable<Uint8Array>, req.headers["content-length"], maxBodyBytes);
    if (body === undefined) return write(res, tooLarge(maxBodyBytes), undefined);
  }
  const aborter = new AbortController();
  // 'close' comes when the connection ends or the answer was written whole; only the first is the client going away.
  res.once("close", () => {
    if (!res.writableFinished) aborter.abort(new DOMException("the client went away", "AbortError"));
  });
  const path = req.url?.startsWith("/") ? req.url : "/";
  const request = new Request(origin + path, { method, headers, signal: aborter.signal, ...(body === undefined ? {} : { body }) });
  let response: Response;
  try {
    response = await handler(request);
  } catch {
    response = new Response(null, { status: 500 });
  }
  await write(res, response, aborter.signal);
}

/**
 * Writes the response. A body that is not an event stream is whole once read: it goes with the
 * head in one write, with its Content-Length (one packet for the client, no chunked framing).
 * An event stream: the head at once, then each chunk as it comes, waiting on drain.
 */
async function write(res: ServerResponse, response: Response, gone: AbortSignal | undefined): Promise<void> {
  if (res.destroyed) {
    await response.body?.cancel().catch(() => {});
    return;
  }
  const head: Record<string, string> = {};
  response.headers.forEach((value, name) => (head[name] = value));
  // RFC 9112 4: a reason phrase; a Response made without a statusText has none.
  const reason = response.statusText || (STATUS_CODES[response.status] ?? "");
  if (response.body === null) {
    res.writeHead(response.status, reason, head);
    return void res.end();
  }
  if (!(head["content-type"] ?? "").startsWith("text/event-stream")) {
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (res.destroyed) return;
    head["content-length"] = String(bytes.byteLength);
    res.writeHead(response.status, reason, head);
    return void res.end(bytes);
  }
  res.writeHead(response.status, reason, head);
  res.flushHeaders();
  const reader = response.body.getReader();
  const cancel = () => void reader.cancel(new DOMException("the client went away", "AbortError")).catch(() => {});
  if (gone?.aborted) return cancel();
  gone?.addEventListener("abort", cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          const go = () => {
            res.off("drain", go);
            res.off("close", go);
            resolve();
          };
          res.on("drain", go);
          res.on("close", go);
        });
      }
    }
    res.end();
  } catch {
    res.destroy();
  } finally {
    gone?.removeEventListener("abort", cancel);
  }
}
