// Test helper: a real HTTP server on 127.0.0.1 (ephemeral port) in this process that records each
// request and answers with what the test's handler returns — a hand-written token endpoint or
// protected resource for the auth tests.

import { createServer } from "node:http";
import { readBody } from "../support/http-body.ts";

export interface SeenRequest {
  method: string;
  /** Path and query. */
  url: string;
  /** Header names lowercased. */
  headers: Record<string, string>;
  body: string;
  /** The body parsed as a form (empty when it is not one). */
  form: URLSearchParams;
}

export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON. */
  body?: unknown;
}

export interface LoopbackServer {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

export type Handler = (request: SeenRequest, index: number) => Answer | Promise<Answer>;

export async function startLoopbackServer(handler: Handler): Promise<LoopbackServer> {
  const seen: SeenRequest[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
      }
      const request: SeenRequest = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers,
        body,
        form: new URLSearchParams(headers["content-type"]?.startsWith("application/x-www-form-urlencoded") ? body : ""),
      };
      seen.push(request);
      let answer: Answer;
      try {
        answer = await handler(request, seen.length - 1);
      } catch (error) {
        answer = { status: 500, body: { error: "server_error", error_description: String(error) } };
      }
      const text = typeof answer.body === "string" ? answer.body : answer.body === undefined ? "" : JSON.stringify(answer.body);
      const outHeaders: Record<string, string> = { "Content-Type": "application/json", Connection: "close", ...answer.headers };
      res.writeHead(answer.status ?? 200, outHeaders);
      res.end(text);
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Runs body with a server, closing it afterwards whatever happens. */
export async function withLoopbackServer(handler: Handler, body: (server: LoopbackServer) => Promise<void>): Promise<void> {
  const server = await startLoopbackServer(handler);
  try {
    await body(server);
  } finally {
    await server.close();
  }
}
