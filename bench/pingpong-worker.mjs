// The ping-pong floor of bench/bridge.bench.ts, the worker side: built the way
// src/registry/blocking-worker.ts is (a SharedArrayBuffer of counters and a reply slot, a
// MessagePort for the call), with nothing behind it — it answers each call with the same string.
// Modes (workerData.mode): "port" — the call comes as a port message, taken synchronously after
// an Atomics.waitAsync on the request counter wakes the worker (the bridge's way);
// "slot" — the call's bytes come in shared memory too, no port message either way;
// "slot-spin" — as "slot", and after each reply the worker spins on the request counter for up
// to SPIN_US (the next call of a caller in a loop comes within microseconds), answering a call
// that comes meanwhile without going back to its event loop: one wake-up less per call, paid
// in CPU while it spins.

import { receiveMessageOnPort, workerData } from "node:worker_threads";

const SIGNAL = 0;
const REQUEST = 3;
const REPLY_SEQ = 5;
const REPLY_BYTES = 6;
const CALL_BYTES = 7;
const { control: buffer, port, mode, controlBytes, slotBytes } = workerData;
const control = new Int32Array(buffer, 0, controlBytes / 4);
const replySlot = new Uint8Array(buffer, controlBytes, slotBytes);
const callSlot = new Uint8Array(buffer, controlBytes + slotBytes, slotBytes);
const utf8 = new TextEncoder();
const text = new TextDecoder();
const ANSWER = JSON.stringify({ result: "hello" });
const SPIN_US = 50;

function reply(seq) {
  const { written } = utf8.encodeInto(ANSWER, replySlot);
  Atomics.store(control, REPLY_BYTES, written);
  Atomics.store(control, REPLY_SEQ, seq);
  Atomics.add(control, SIGNAL, 1);
  Atomics.notify(control, SIGNAL);
}

// The bridge's heartbeat, which is also what keeps this thread's event loop alive: a pending
// Atomics.waitAsync does not.
setInterval(() => Atomics.add(control, 1, 1), 100);

let seen = 0;
function listen() {
  const now = Atomics.load(control, REQUEST);
  if (mode === "port") {
    for (let received = receiveMessageOnPort(port); received !== undefined; received = receiveMessageOnPort(port)) {
      if (received.message.type === "close") return;
      reply(received.message.seq);
    }
  } else if (now !== seen) {
    let current = now;
    for (;;) {
      JSON.parse(text.decode(callSlot.slice(0, Atomics.load(control, CALL_BYTES))));
      reply(current);
      if (mode !== "slot-spin") break;
      const until = performance.now() + SPIN_US / 1000;
      let next = current;
      while ((next = Atomics.load(control, REQUEST)) === current && performance.now() < until);
      if (next === current) break;
      current = next;
    }
    seen = current;
    const waiting = Atomics.waitAsync(control, REQUEST, current);
    if (waiting.async) waiting.value.then(listen);
    else queueMicrotask(listen);
    return;
  }
  seen = now;
  const waiting = Atomics.waitAsync(control, REQUEST, now);
  if (waiting.async) waiting.value.then(listen);
  else queueMicrotask(listen);
}
listen();
