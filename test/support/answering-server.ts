// Test helper: a loopback HTTP server whose handler decides how (or whether) to answer, closed
// (its open responses destroyed) after the body runs.

import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A loopback server whose handler decides how (or whether) to answer; closed after `body`. */
export async function withServer(handler: (response: ServerResponse) => void, body: (origin: string) => Promise<void>): Promise<void> {
  const open = new Set<ServerResponse>();
  const server = createServer((request, response) => {
    request.resume();
    open.add(response);
    handler(response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    await body(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    for (const response of open) response.destroy();
    server.closeAllConnections?.();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
