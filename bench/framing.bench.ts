// Framing benchmark: 50 MB of newline-delimited tools/call results, fed in 64 KB chunks, decoded
// into messages by our LineDecoder, by the SDKs' ReadBuffer (+ their message schema), and by a
// floor that splits on "\n" with indexOf and JSON.parses each line with no checks. Each
// comparator runs in its own fresh process per round (bench/run.ts).

import { Buffer } from "node:buffer";
import { ReadBuffer as ReadBufferV2 } from "@modelcontextprotocol/client";
// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/shared/stdio.d.ts"
import { ReadBuffer as ReadBufferV1 } from "@modelcontextprotocol/sdk/shared/stdio.js";
import { mcpwire } from "./subject.ts";

const { LineDecoder } = mcpwire;
import process from "node:process";
import { type Comparator, COMPARATORS, cpuSince, type Figures, type MeasureOptions, type RoundBench, roundsRow, type Row, type Samples } from "./common.ts";

const CHUNK = 64 * 1024;
const TOTAL = 50 * 1024 * 1024;

interface Stream {
  /** One message's line, without its newline. */
  line: string;
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
  return { line: line.slice(0, -1), chunks, buffers, messages, bytes: bytes.length };
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

const PAYLOADS = [["100 B", 100], ["100 KB", 100 * 1024]] as const;

/** µs per JSON.parse of `line`, over `ms` after a warm-up. */
function parseAlone(line: string, ms: number): number {
  for (let i = 0; i < 50; i++) JSON.parse(line);
  let parsed = 0;
  const start = performance.now();
  while (parsed < 50 || performance.now() - start < ms) {
    JSON.parse(line);
    parsed++;
  }
  return ((performance.now() - start) * 1000) / parsed;
}

/** One pass over the whole stream by `comparator`; the messages it decoded. */
function pass(comparator: Comparator, s: Stream): number {
  switch (comparator) {
    case "mcpwire": {
      let seen = 0;
      const decoder = new LineDecoder({ onMessage: () => seen++ });
      for (const chunk of s.chunks) decoder.push(chunk);
      return seen;
    }
    case "sdk_v1":
      return sdk(() => new ReadBufferV1(), s.buffers);
    case "sdk_v2":
      return sdk(() => new ReadBufferV2(), s.buffers);
    case "floor":
      return floor(s.chunks);
  }
}

/**
 * In a fresh process: for each payload, one uncounted pass (JIT warm-up), then passes until
 * the time is spent (at least 3): msg/s, MB/s and CPU µs per message of this process.
 */
async function measure(name: string, options: MeasureOptions): Promise<Figures> {
  const comparator = name as Comparator;
  const figures: Figures = {};
  const budget = options.quick ? 300 : 1500;
  for (const [label, payload] of PAYLOADS) {
    const s = stream(payload);
    const check = (count: number) => {
      if (count !== s.messages) throw new Error(`framing: ${comparator} decoded ${count} messages, expected ${s.messages}`);
    };
    check(pass(comparator, s));
    let passes = 0;
    const cpu = process.cpuUsage();
    const start = performance.now();
    while (passes < 3 || performance.now() - start < budget) {
      check(pass(comparator, s));
      passes++;
    }
    const seconds = (performance.now() - start) / 1000;
    figures[`msg ${label}`] = (passes * s.messages) / seconds;
    figures[`mb ${label}`] = (passes * s.bytes) / (1024 * 1024) / seconds;
    figures[`cpu ${label}`] = cpuSince(cpu) / (passes * s.messages);
    figures[`messages ${label}`] = s.messages;
    // The cost in the way of the 100 KB target: JSON.parse alone of one line (a flat string,
    // no framing, no decoding, no check), measured beside ours in our process.
    if (comparator === "mcpwire") figures[`parse ${label}`] = parseAlone(s.line, options.quick ? 100 : 500);
  }
  return figures;
}

function report(samples: Samples, rounds: number): Row[] {
  const rows: Row[] = [];
  for (const [label] of PAYLOADS) {
    const messages = samples.mcpwire?.[`messages ${label}`]?.[0] ?? 0;
    rows.push(roundsRow("framing", `${label} payloads (${messages} msgs, 50 MB)`, "msg/s", samples, `msg ${label}`, { cpu: `cpu ${label}`, rounds }));
    rows.push(roundsRow("framing", `${label} payloads (${messages} msgs, 50 MB)`, "MB/s", samples, `mb ${label}`, { rounds }));
    rows.push(
      roundsRow("framing", `${label}: JSON.parse alone of one line (in mcpwire's process; what no decoder goes below)`, "µs", samples, `parse ${label}`, {
        rounds,
      }),
    );
  }
  return rows;
}

export const bench: RoundBench = { comparators: COMPARATORS, measure, report };
