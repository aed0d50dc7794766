// In-process dispatch benchmark: one tool call at a time, µs per call — our
// registry.dispatch → Client → MemoryTransport → in-process handler; SDK v1 and v2 Client +
// InMemoryTransport + Server; and a floor of JSON.stringify + JSON.parse each way + a Map lookup.
// Each comparator measures in its own fresh process per round (bench/run.ts, child.ts).

import { Client as ClientV2, InMemoryTransport as InMemoryTransportV2 } from "@modelcontextprotocol/client";
// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.d.ts"
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/inMemory.d.ts"
import { InMemoryTransport as InMemoryTransportV1 } from "@modelcontextprotocol/sdk/inMemory.js";
// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/server/index.d.ts"
import { Server as ServerV1 } from "@modelcontextprotocol/sdk/server/index.js";
// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/types.d.ts"
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Server as ServerV2 } from "@modelcontextprotocol/server";
import { mcpwire, mcpwireRegistry } from "./subject.ts";

const { Client, MemoryTransport, Peer } = mcpwire;
const { registerMcpServer, ToolRegistry } = mcpwireRegistry;
import {
  CLIENT_INFO,
  type Comparator,
  COMPARATORS,
  type Figures,
  type MeasureOptions,
  type RoundBench,
  roundsRow,
  type Row,
  type Samples,
  timedBatches,
} from "./common.ts";

const CALLS = 2000;
const SERVER_INFO = { name: "in-process-bench", version: "0.0.1" };
const ECHO_TOOL = {
  name: "echo",
  description: "Echoes back its message",
  inputSchema: { type: "object" as const, properties: { message: { type: "string" } }, required: ["message"] },
};
const ARGS = { message: "hello" };

interface EchoArgs {
  message?: unknown;
}
function echo(args: EchoArgs | undefined): { content: { type: "text"; text: string }[] } {
  return { content: [{ type: "text", text: String(args?.message ?? "") }] };
}

async function ours(): Promise<{ call: () => Promise<unknown>; close: () => Promise<void> }> {
  const [clientEnd, serverEnd] = MemoryTransport.pair();
  const server = new Peer({ name: "bench server", send: (message) => serverEnd.send(message) });
  serverEnd.onmessage = (message) => server.receive(message);
  serverEnd.onclose = (details) => server.close(details);
  server.setRequestHandler("initialize", () => ({ protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: SERVER_INFO }));
  server.setRequestHandler("tools/list", () => ({ tools: [ECHO_TOOL] }));
  server.setRequestHandler("tools/call", (params) => echo(params?.arguments as EchoArgs | undefined));
  await serverEnd.start();
  const client = new Client(CLIENT_INFO);
  await client.connect(clientEnd);
  const registry = new ToolRegistry();
  await registerMcpServer(registry, "bench", client);
  const expected = JSON.stringify({ result: "hello" });
  return {
    call: async () => {
      const text = await registry.dispatch("mcp_bench_echo", ARGS);
      if (text !== expected) throw new Error(`dispatch: unexpected answer ${text}`);
    },
    close: () => client.close(),
  };
}

async function sdkV1(): Promise<{ call: () => Promise<unknown>; close: () => Promise<void> }> {
  const [clientEnd, serverEnd] = InMemoryTransportV1.createLinkedPair();
  const server = new ServerV1(SERVER_INFO, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [ECHO_TOOL] }));
  server.setRequestHandler(CallToolRequestSchema, (request) => echo(request.params.arguments));
  await server.connect(serverEnd);
  const client = new ClientV1(CLIENT_INFO);
  await client.connect(clientEnd);
  await client.listTools();
  return {
    call: () => client.callTool({ name: "echo", arguments: ARGS }),
    close: () => client.close(),
  };
}

async function sdkV2(): Promise<{ call: () => Promise<unknown>; close: () => Promise<void> }> {
  const [clientEnd, serverEnd] = InMemoryTransportV2.createLinkedPair();
  const server = new ServerV2(SERVER_INFO, { capabilities: { tools: {} } });
  server.setRequestHandler("tools/list", () => ({ tools: [ECHO_TOOL] }));
  server.setRequestHandler("tools/call", (request) => echo(request.params.arguments));
  await server.connect(serverEnd);
  const client = new ClientV2(CLIENT_INFO);
  await client.connect(clientEnd);
  await client.listTools();
  return {
    call: () => client.callTool({ name: "echo", arguments: ARGS }),
    close: () => client.close(),
  };
}

/** The floor: serialise the request and the response once each way, and look the handler up in a Map. */
function floorSetup(): () => unknown {
  const handlers = new Map<string, (args: EchoArgs | undefined) => unknown>([["echo", echo]]);
  let id = 0;
  return () => {
    const wire = JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "tools/call", params: { name: "echo", arguments: ARGS } });
    const request = JSON.parse(wire) as { id: number; params: { name: string; arguments: EchoArgs } };
    const handler = handlers.get(request.params.name);
    if (handler === undefined) throw new Error("floor: no handler");
    const answer = JSON.stringify({ jsonrpc: "2.0", id: request.id, result: handler(request.params.arguments) });
    return JSON.parse(answer);
  };
}

const CONNECT: Record<Comparator, () => Promise<{ call: () => unknown; close: () => Promise<void> }>> = {
  mcpwire: ours,
  sdk_v1: sdkV1,
  sdk_v2: sdkV2,
  floor: () => Promise.resolve({ call: floorSetup(), close: () => Promise.resolve() }),
};

/**
 * In a fresh process: one comparator, CALLS calls at a time (awaited one after another),
 * one uncounted batch, then batches until the time is spent: µs per call, wall and CPU.
 */
async function measure(name: string, options: MeasureOptions): Promise<Figures> {
  const comparator = name as Comparator;
  const connection = await CONNECT[comparator]();
  // The floor is synchronous: no await (and no microtask hop) per call.
  const batch = comparator === "floor"
    ? () => {
      for (let i = 0; i < CALLS; i++) connection.call();
      return Promise.resolve();
    }
    : async () => {
      for (let i = 0; i < CALLS; i++) await connection.call();
    };
  try {
    return await timedBatches(batch, CALLS, 2, options);
  } finally {
    await connection.close();
  }
}

function report(samples: Samples, rounds: number): Row[] {
  return [roundsRow("dispatch", "in-process tools/call, sequential", "µs/call", samples, "us", { cpu: "cpu", rounds })];
}

export const bench: RoundBench = { comparators: COMPARATORS, measure, report };
