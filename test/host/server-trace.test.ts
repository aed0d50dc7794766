// McpManager's `trace` option (src/host/servers/server-trace.ts, transport/trace-event.ts): lifecycle
// events from the clients' state changes — connecting, the era and why, ready, a reconnect after
// a crash, close — with the process and message events of each connection, on one clock.

import "../support/test-env.ts"; // the era cache off
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { McpManager } from "../../src/host/servers/manager.ts";
import type { TraceEvent } from "../../src/transport/trace-event.ts";
import { behaviour } from "../support/behaviour.ts";
import { hangGuard } from "../support/hang-guard.ts";
import { waitUntil } from "../support/polling.ts";
import { configOf, stdioServerConfig } from "../support/server-config.ts";

const crashServer = fileURLToPath(new URL("../fixtures/crash-server.mjs", import.meta.url));

type Lifecycle = Extract<TraceEvent, { kind: "lifecycle" }>;
const lifecycle = (events: TraceEvent[]) => events.filter((event): event is Lifecycle => event.kind === "lifecycle");

behaviour("a server that crashes mid-call: its exit, the reconnect and the new connection are traced", async () => {
  const events: TraceEvent[] = [];
  const manager = new McpManager(configOf(stdioServerConfig("crashy", [crashServer])), {
    trace: (event) => events.push(event),
    reconnectDelay: { initialMs: 20, maxMs: 20, jitter: 0 },
    eraCache: false,
  });
  try {
    await hangGuard(manager.start(), 15_000, "start");
    await assert.rejects(manager.registry.call("mcp_crashy_echo", {}));
    await waitUntil(
      () => manager.status()[0]?.state === "ready" && lifecycle(events).filter((event) => event.phase === "ready").length === 2,
      "the reconnect",
      15_000,
    );
  } finally {
    await hangGuard(manager.close(), 15_000, "close");
  }
  for (const event of events) assert.equal(event.server, "crashy");
  const phases = lifecycle(events).map((event) => `${event.phase}${event.attempt === undefined ? "" : ` ${event.attempt}`}`);
  const start = ["connecting 1", "era", "ready"];
  assert.deepEqual(phases.slice(0, 3), start);
  assert.ok(phases.includes("reconnect"), phases.join(", "));
  const again = phases.indexOf("connecting 2");
  assert.ok(again > phases.indexOf("reconnect"), phases.join(", "));
  assert.deepEqual(phases.slice(again, again + 3), ["connecting 2", "era", "ready"]);
  assert.equal(phases.at(-1), "close");
  const era = lifecycle(events).find((event) => event.phase === "era");
  assert.equal(era?.era, "legacy");
  assert.match(era?.reason ?? "", /server\/discover/);
  assert.ok(events.some((event) => event.kind === "process" && event.phase === "exit" && event.code === 3), "no exit with code 3");
  assert.ok(events.some((event) => event.kind === "process" && event.phase === "stderr" && event.line.includes("out of cheese")), "no stderr line");
  // One clock: times never go back.
  const times = events.map((event) => event.t);
  assert.deepEqual([...times].sort((a, b) => a - b), times);
});
