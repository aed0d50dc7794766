// Test helper: the whole body of a request to a loopback test server, as UTF-8 text.

import { Buffer } from "node:buffer";
import type { IncomingMessage } from "node:http";

export function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}
