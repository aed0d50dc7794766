// Framing benchmark: newline-delimited tools/call results, fed in 64 KB chunks, through
// our LineDecoder and through a floor that splits on "\n" and JSON.parses with no checks.
// Run: npm run bench. Figures are ratios from one run; absolute times drift on shared machines.

import { Bench } from "tinybench";
import { LineDecoder } from "../src/jsonrpc/line-decoder.ts";

const CHUNK = 64 * 1024;
const TOTAL = 8 * 1024 * 1024;

function stream(payloadBytes: number): { chunks: Uint8Array[]; messages: number } {
  const line = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    result: { content: [{ type: "text", text: "x".repeat(payloadBytes) }] },
  }) + "\n";
  const count = Math.max(1, Math.floor(TOTAL / line.length));
  const bytes = new TextEncoder().encode(line.repeat(count));
  const chunks: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; offset += CHUNK) chunks.push(bytes.subarray(offset, offset + CHUNK));
  return { chunks, messages: count };
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

const rows: { case: string; mcpwire: number; floor: number }[] = [];
for (const payload of [100, 100 * 1024]) {
  const { chunks, messages } = stream(payload);
  let decoded = 0;
  const bench = new Bench({ time: 1000 });
  bench
    .add("mcpwire LineDecoder", () => {
      const decoder = new LineDecoder({ onMessage: () => decoded++ });
      for (const chunk of chunks) decoder.push(chunk);
    })
    .add("floor (indexOf + JSON.parse)", () => {
      decoded += floor(chunks);
    });
  await bench.run();
  const mbPerSecond = (name: string) => {
    const result = bench.getTask(name)?.result;
    if (result === undefined || !("latency" in result)) throw new Error(`benchmark "${name}" did not complete`);
    const meanMs = result.latency.mean;
    return (TOTAL / (1024 * 1024)) / (meanMs / 1000);
  };
  rows.push({ case: `${payload} B payloads, ${messages} messages`, mcpwire: mbPerSecond("mcpwire LineDecoder"), floor: mbPerSecond("floor (indexOf + JSON.parse)") });
}

console.log("| framing (8 MB in 64 KB chunks) | mcpwire MB/s | floor MB/s | mcpwire / floor |");
console.log("|---|---|---|---|");
for (const row of rows) {
  console.log(`| ${row.case} | ${row.mcpwire.toFixed(0)} | ${row.floor.toFixed(0)} | ${(row.mcpwire / row.floor).toFixed(2)} |`);
}
