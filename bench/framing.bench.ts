// Framing benchmark: 50 MB of newline-delimited tools/call results, fed in 64 KB chunks, decoded
// into messages by our LineDecoder, by the SDKs' ReadBuffer (+ their message schema), and by a
// floor that splits on "\n" with indexOf and JSON.parses each line with no checks.

import { Buffer } from "node:buffer";
// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/shared/stdio.d.ts"
import { ReadBuffer as ReadBufferV1 } from "@modelcontextprotocol/sdk/shared/stdio.js";
import { ReadBuffer as ReadBufferV2 } from "@modelcontextprotocol/client";
import { LineDecoder } from "../src/mod.ts";
import { meanMs, type Row, row } from "./common.ts";

const CHUNK = 64 * 1024;
const TOTAL = 50 * 1024 * 1024;

interface Stream {
  chunks: Uint8Array[];
  buffers: Buffer[];
  messages: number;
  bytes: number;
}

function stream(payloadBytes: number): Stream {
  const line = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    result: { content: [{ type: "text", text: "x".repeat(payloadBytes) }] },
  }) + "\n";
  const messages = Math.max(1, Math.floor(TOTAL / line.length));
  const bytes = new TextEncoder().encode(line.repeat(messages));
  const chunks: Uint8Array[] = [];
  const buffers: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += CHUNK) {
    const chunk = bytes.subarray(offset, offset + CHUNK);
    chunks.push(chunk);
    buffers.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  }
  return { chunks, buffers, messages, bytes: bytes.length };
}

function floor(chunks: Uint8Array[]): number {
  const text = new TextDecoder();
  let buffer = "";
  let seen = 0;
  for (const chunk of chunks) {
    buffer += text.decode(chunk, { stream: true });
    let start = 0;
    let newline: number;
    while ((newline = buffer.indexOf("\n", start)) !== -1) {
      JSON.parse(buffer.slice(start, newline));
      start = newline + 1;
      seen++;
    }
    buffer = buffer.slice(start);
  }
  return seen;
}

interface SdkReadBuffer {
  append(chunk: Buffer): void;
  readMessage(): unknown;
}

function sdk(make: () => SdkReadBuffer, buffers: Buffer[]): number {
  const reader = make();
  let seen = 0;
  for (const buffer of buffers) {
    reader.append(buffer);
    while (reader.readMessage() !== null) seen++;
  }
  return seen;
}

export async function run(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const payload of [100, 100 * 1024]) {
    const s = stream(payload);
    let seen = 0;
    const expect = (count: number) => {
      if (count !== s.messages) throw new Error(`framing: decoded ${count} messages, expected ${s.messages}`);
    };
    const means = await meanMs({
      mcpwire: () => {
        seen = 0;
        const decoder = new LineDecoder({ onMessage: () => seen++ });
        for (const chunk of s.chunks) decoder.push(chunk);
        expect(seen);
      },
      sdk_v1: () => expect(sdk(() => new ReadBufferV1(), s.buffers)),
      sdk_v2: () => expect(sdk(() => new ReadBufferV2(), s.buffers)),
      floor: () => expect(floor(s.chunks)),
    }, { time: 400, iterations: 2, rounds: 2 });
    const label = payload === 100 ? "100 B" : "100 KB";
    const perSecond = (ms: number, amount: number) => amount / (ms / 1000);
    const figures = (amount: number) => ({
      mcpwire: perSecond(means.mcpwire, amount),
      sdk_v1: perSecond(means.sdk_v1, amount),
      sdk_v2: perSecond(means.sdk_v2, amount),
      floor: perSecond(means.floor, amount),
    });
    rows.push(row("framing", `${label} payloads (${s.messages} msgs, 50 MB)`, "msg/s", figures(s.messages)));
    rows.push(row("framing", `${label} payloads (${s.messages} msgs, 50 MB)`, "MB/s", figures(s.bytes / (1024 * 1024))));
  }
  return rows;
}
