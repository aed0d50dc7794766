// What a Node user can pass as an HTTP transport's `fetch` option: a fetch on `node:http`'s
// request with a keep-alive Agent, in place of the global fetch (undici). The bench measures
// mcpwire with it (`npm run bench -- http`, the "agent-backed fetch" rows) beside the global
// fetch; docs/performance.md says what it gains. Bench code, not the library's: mcpwire keeps
// to the web's fetch, which runs the same on Node, Deno, Bun, browsers and Workers.
//
// A JSON answer is read whole and handed over as one in-memory body; any other (an SSE stream)
// is handed over as a stream. The request's signal aborts it; no listener outlives the request.

import { Buffer } from "node:buffer";
import { Agent, type IncomingMessage, request } from "node:http";
import { Readable } from "node:stream";

/** A fetch for http:// URLs over `agent` (default: a keep-alive Agent of its own). */
export function agentFetch(agent: Agent = new Agent({ keepAlive: true })): typeof fetch {
  return (input, init) =>
    new Promise<Response>((resolve, reject) => {
      const url = input instanceof Request ? new URL(input.url) : new URL(input);
      const signal = init?.signal ?? undefined;
      if (signal?.aborted) return reject(signal.reason);
      const headers: Record<string, string> = {};
      new Headers(init?.headers).forEach((value, name) => (headers[name] = value));
      const body = typeof init?.body === "string" ? init.body : undefined;
      if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
      const onAbort = () => outgoing.destroy(signal?.reason instanceof Error ? signal.reason : new Error("aborted"));
      const outgoing = request(url, { method: init?.method ?? "GET", headers, agent }, (incoming: IncomingMessage) => {
        const status = incoming.statusCode ?? 0;
        const answerHeaders = new Headers();
        for (let i = 0; i < incoming.rawHeaders.length; i += 2) answerHeaders.append(incoming.rawHeaders[i]!, incoming.rawHeaders[i + 1]!);
        const nullBody = status === 204 || status === 304 || init?.method === "HEAD";
        if (/^\s*text\/event-stream/i.test(answerHeaders.get("content-type") ?? "")) {
          incoming.once("close", () => signal?.removeEventListener("abort", onAbort));
          resolve(new Response(Readable.toWeb(incoming) as ReadableStream<Uint8Array>, { status, headers: answerHeaders }));
          return;
        }
        const chunks: Buffer[] = [];
        incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
        incoming.once("error", reject);
        incoming.once("end", () => {
          signal?.removeEventListener("abort", onAbort);
          const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
          resolve(
            new Response(nullBody ? null : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) as Uint8Array<ArrayBuffer>, {
              status,
              headers: answerHeaders,
            }),
          );
        });
      });
      signal?.addEventListener("abort", onAbort, { once: true });
      outgoing.once("error", (error) => {
        signal?.removeEventListener("abort", onAbort);
        reject(new TypeError("fetch failed", { cause: error }));
      });
      outgoing.end(body);
    });
}
