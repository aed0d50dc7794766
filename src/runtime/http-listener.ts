// The parts of Runtime.listenHttp that Node (also Bun) and Deno share: the bounded request body,
// the URL a request is given, and a response body that a closing listener can stop. Each
// runtime's own half is in node-http-listener.ts and deno.ts.

/** The largest request body a listener reads unless told otherwise. */
export const LISTENER_MAX_BODY_BYTES = 16 * 1024 * 1024;

/** The listener's origin for the URL of each request (an IPv6 address in brackets). */
export function listenerOrigin(hostname: string, port: number): string {
  return `http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}`;
}

/** The 413 a body over the bound is answered with (the connection is not reused). */
export function tooLarge(maxBodyBytes: number): Response {
  return new Response(`request body over ${maxBodyBytes} bytes\n`, { status: 413, headers: { "content-type": "text/plain", connection: "close" } });
}

/**
 * Reads a request body of at most `maxBodyBytes`: its bytes, or undefined when it is larger (the
 * rest is not read). A Content-Length over the bound is refused before any byte is read.
 */
export async function readBoundedBody(
  chunks: AsyncIterable<Uint8Array>,
  declaredLength: string | null | undefined,
  maxBodyBytes: number,
): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (declaredLength !== null && declaredLength !== undefined && Number(declaredLength) > maxBodyBytes) return undefined;
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.byteLength;
    if (size > maxBodyBytes) return undefined;
    parts.push(chunk);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    body.set(part, at);
    at += part.byteLength;
  }
  return body;
}

/** The open response bodies of one listener, so that close() ends them (an SSE stream would never end by itself). */
export class OpenBodies {
  readonly #stops = new Set<() => void>();

  /**
   * `body` as a stream that passes each chunk on as it comes; stops (closing the client's side,
   * cancelling `body`) when the listener closes; `onGone` runs when the client cancelled it first.
   */
  pass(body: ReadableStream<Uint8Array>, onGone: () => void): ReadableStream<Uint8Array> {
    const reader = body.getReader();
    const stops = this.#stops;
    let ended = false;
    let stop: () => void = () => {};
    const end = (controller: ReadableStreamDefaultController<Uint8Array>, error?: unknown) => {
      if (ended) return;
      ended = true;
      stops.delete(stop);
      if (error === undefined) controller.close();
      else controller.error(error);
    };
    return new ReadableStream<Uint8Array>({
      start(controller) {
        stop = () => {
          reader.cancel(new DOMException("the listener closed", "AbortError")).catch(() => {});
          end(controller);
        };
        stops.add(stop);
      },
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) end(controller);
          else if (!ended) controller.enqueue(value);
        } catch (error) {
          end(controller, error);
        }
      },
      cancel(reason) {
        ended = true;
        stops.delete(stop);
        onGone();
        return reader.cancel(reason).catch(() => {});
      },
    });
  }

  /** Ends every open body now. */
  stopAll(): void {
    for (const stop of [...this.#stops]) stop();
  }
}
