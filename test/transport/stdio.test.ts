// The stdio transport against real child processes: hand-written servers in test/fixtures/,
// well-behaved and not — spec 2025-11-25 basic/transports ("stdio") and basic/lifecycle
// ("Shutdown"). The fixtures are plain JavaScript run with `node`, under Node and Deno alike.

import assert from "node:assert/strict";
import process from "node:process";
import {
  Client,
  type CloseDetails,
  ConnectionClosedError,
  type JsonRpcMessage,
  type Progress,
  StdioTransport,
  type StdioTransportOptions,
  TransportError,
} from "../../src/mod.ts";
import { isBaselineVariable } from "../../src/transport/child-env.ts";
import { defaultChildEnv } from "../../src/transport/stdio.ts";
import { UndeliverableMessageError } from "../../src/transport/transport.ts";
import { behaviour } from "../support/behaviour.ts";
import { fixturePath as fixture } from "../support/fixture-process.ts";
import { hangGuard } from "../support/hang-guard.ts";
import { waitUntil } from "../support/polling.ts";
import { hasProc, isRunning, procStat } from "../support/processes.ts";

const clientInfo = { name: "stdio-test", version: "0.0.0" };

function transportFor(file: string, options: Partial<StdioTransportOptions> = {}): StdioTransport {
  return new StdioTransport({ command: "node", ...options, args: [fixture(file), ...(options.args ?? [])] });
}

/** A client connected to a fixture, as a user would set it up. */
async function connected(
  file: string,
  options: { client?: ConstructorParameters<typeof Client>[1]; transport?: Partial<StdioTransportOptions> } = {},
): Promise<{ client: Client; transport: StdioTransport; problems: string[] }> {
  const client = new Client(clientInfo, { protocol: "legacy", ...options.client });
  const problems: string[] = [];
  client.on("problem", ({ message }) => problems.push(message));
  const transport = transportFor(file, options.transport);
  await client.connect(transport);
  return { client, transport, problems };
}

function textOf(result: { content: unknown[] }): string {
  const first = result.content[0] as { type: string; text: string };
  assert.equal(first.type, "text");
  return first.text;
}

/** Resolves with the first stderr line matching, through the onStderr option. */
function stderrLine(pattern: RegExp): { onStderr: (line: string) => void; line: Promise<RegExpMatchArray> } {
  let found: (match: RegExpMatchArray) => void;
  const line = new Promise<RegExpMatchArray>((resolve) => (found = resolve));
  return {
    onStderr: (text) => {
      const match = text.match(pattern);
      if (match) found(match);
    },
    line,
  };
}

// --- spawning ----------------------------------------------------------------

behaviour("the server runs as the leader of its own process group", async () => {
  const { client, transport } = await connected("echo-server.mjs");
  try {
    const pid = transport.pid!;
    const stat = procStat(pid)!;
    assert.equal(Number(stat[2]), pid, "the server's process group id is its own pid");
    assert.notEqual(Number(procStat(process.pid)![2]), pid, "not our process group");
  } finally {
    await client.close();
  }
}, { skip: !hasProc && "needs /proc" });

behaviour("with envMode exact the child's environment is exactly the env given: it sees a variable passed, not one only in ours", async () => {
  process.env.MCPWIRE_TEST_PARENT_ONLY = "parent";
  try {
    const { client } = await connected("echo-server.mjs", {
      transport: { env: { PATH: process.env.PATH ?? "/usr/bin:/bin", MCPWIRE_TEST_GIVEN: "given" }, envMode: "exact" },
    });
    try {
      const childEnv = JSON.parse(textOf(await client.callTool("env"))) as Record<string, string>;
      assert.equal(childEnv.MCPWIRE_TEST_GIVEN, "given");
      assert.equal(childEnv.MCPWIRE_TEST_PARENT_ONLY, undefined);
      assert.deepEqual(Object.keys(childEnv).sort(), ["MCPWIRE_TEST_GIVEN", "PATH"]);
    } finally {
      await client.close();
    }
  } finally {
    delete process.env.MCPWIRE_TEST_PARENT_ONLY;
  }
});

behaviour("without env the child gets only the baseline variables of ours", async () => {
  process.env.MCPWIRE_TEST_PARENT_ONLY = "parent";
  try {
    const { client } = await connected("echo-server.mjs");
    try {
      const childEnv = JSON.parse(textOf(await client.callTool("env"))) as Record<string, string>;
      assert.equal(childEnv.MCPWIRE_TEST_PARENT_ONLY, undefined);
      for (const name of Object.keys(childEnv)) {
        assert.ok(isBaselineVariable(name), `${name} is not in the baseline`);
      }
      assert.deepEqual(childEnv, defaultChildEnv());
      assert.equal(childEnv.PATH, process.env.PATH);
    } finally {
      await client.close();
    }
  } finally {
    delete process.env.MCPWIRE_TEST_PARENT_ONLY;
  }
});

behaviour("a missing command fails connect with a TransportError naming the command", async () => {
  const client = new Client(clientInfo);
  const command = "mcpwire-test-no-such-command";
  await assert.rejects(client.connect(new StdioTransport({ command, args: ["stdio"] })), (error: unknown) => {
    assert.ok(error instanceof TransportError, String(error));
    assert.equal(error.code, "ENOENT");
    assert.match(error.message, /mcpwire-test-no-such-command/);
    assert.match(error.message, /not found/);
    return true;
  });
  assert.equal(client.state, "failed");
});

behaviour("a write that meets a closed stdin waits for the server's exit and says how it ended and what it wrote to stderr", async () => {
  // The server closes its stdin at once (our first write gets EPIPE) and exits a little later:
  // the send's error must not be a bare "broken pipe" but name the exit code and the stderr.
  const transport = new StdioTransport({ command: "sh", args: ["-c", "exec 0<&-; echo 'cannot start: no database' >&2; sleep 0.3; exit 4"] });
  await transport.start();
  try {
    await waitUntil(() => transport.stderrTail.length > 0, "the server closed its stdin and said so"); // its stdin is closed by now
    const message: JsonRpcMessage = { jsonrpc: "2.0", id: 1, method: "ping" };
    await assert.rejects(transport.send(message), (error: unknown) => {
      assert.ok(error instanceof TransportError, String(error));
      assert.equal(error.code, "send-failed");
      assert.match(error.message, /could not write to the server's stdin/);
      assert.match(error.message, /exited with code 4/);
      assert.match(error.message, /last stderr: cannot start: no database/);
      return true;
    });
  } finally {
    await transport.close();
  }
}, {
  // Bun 1.4.5 completes a write to a child's stdin whose reader has closed without EPIPE (Node
  // and Deno report it): the message is lost and the call fails at the server's exit instead.
  skip: process.versions.bun !== undefined && "Bun reports no EPIPE for a write to a closed pipe",
});

behaviour("a cwd that does not exist fails connect with a TransportError naming the directory", async () => {
  const client = new Client(clientInfo);
  const cwd = "/nonexistent/mcpwire-test-dir";
  await assert.rejects(client.connect(transportFor("echo-server.mjs", { cwd })), (error: unknown) => {
    assert.ok(error instanceof TransportError, String(error));
    assert.equal(error.code, "ENOCWD");
    assert.ok(error.message.includes(cwd), error.message);
    return true;
  });
  assert.equal(client.state, "failed");
});

// --- traffic -----------------------------------------------------------------

behaviour("a tool call, its progress notifications and a 5 MB answer cross the pipes intact", async () => {
  const { client, problems } = await connected("echo-server.mjs");
  try {
    assert.equal(client.serverInfo?.name, "echo");
    assert.equal(textOf(await client.callTool("echo", { text: "héllo, wörld ✓" })), "héllo, wörld ✓");

    const progress: Progress[] = [];
    const result = await client.callTool("progress", { steps: 3 }, { onProgress: (update) => progress.push(update) });
    assert.equal(textOf(result), "done after 3 steps");
    assert.deepEqual(progress.map((update) => [update.progress, update.total]), [[1, 3], [2, 3], [3, 3]]);

    const big = textOf(await client.callTool("big", { bytes: 5_000_000 }));
    assert.equal(big.length, 5_000_000);
    assert.ok(/^x+$/.test(big));
    assert.deepEqual(problems, []);
  } finally {
    await client.close();
  }
});

behaviour("100 concurrent calls over one connection are all answered, each with its own result", async () => {
  const { client } = await connected("echo-server.mjs");
  try {
    const texts = Array.from({ length: 100 }, (_, i) => `call ${i} ${"·".repeat(i * 37)}`);
    const results = await Promise.all(texts.map((text) => client.callTool("echo", { text })));
    assert.deepEqual(results.map(textOf), texts);
  } finally {
    await client.close();
  }
});

behaviour("a burst of sends in one tick goes to stdin in writes of at most 16 lines or 64 KiB, in order, each sender sharing its write's outcome", async () => {
  const transport = transportFor("echo-server.mjs");
  const answers = new Map<number, JsonRpcMessage>();
  transport.onmessage = (message) => {
    if ("id" in message && typeof message.id === "number") answers.set(message.id, message);
  };
  await transport.start();
  try {
    const ping = (id: number, extra = "") => transport.send({ jsonrpc: "2.0", id, method: "ping", ...(extra ? { params: { extra } } : {}) });
    // 40 small lines in one tick: three writes (16, 16, 8); then a 70 000-character line, alone.
    const small = Array.from({ length: 40 }, (_, i) => ping(i + 1));
    const big = ping(41, "z".repeat(70_000));
    const after = ping(42);
    assert.equal(new Set(small.slice(0, 16)).size, 1);
    assert.equal(new Set(small.slice(16, 32)).size, 1);
    assert.equal(new Set(small.slice(32)).size, 1);
    assert.notEqual(small[0], small[16]);
    assert.notEqual(small[16], small[32]);
    // The big line fills the third batch past 64 KiB, so it leaves with it; the next starts anew.
    assert.equal(big, small[32]);
    assert.notEqual(after, big);
    await Promise.all([...small, big, after]);
    await waitUntil(() => answers.size === 42, "the 42 pings answered");
    for (let id = 1; id <= 42; id++) assert.ok(answers.has(id), `ping ${id} answered`);
  } finally {
    await transport.close();
  }
});

behaviour("lines on stdout that are not JSON, or JSON but not JSON-RPC, are reported as problems and skipped", async () => {
  const { client, transport, problems } = await connected("noisy-stdout-server.mjs");
  try {
    assert.equal(textOf(await client.callTool("echo", { text: "still works" })), "still works");
    assert.equal(textOf(await client.callTool("echo", { text: "and again" })), "and again");
    const joined = problems.join("\n");
    assert.match(joined, /not JSON; skipped: "noisy server starting up/);
    assert.match(joined, /not JSON; skipped: "DEBUG: about to answer message 3/);
    assert.match(joined, /JSON but not JSON-RPC 2\.0 .*\{\\"hello\\":\\"world\\",\\"count\\":3\}/);
    assert.ok(problems.every((problem) => problem.startsWith(transport.description)), joined);
    assert.equal(problems.length, 1 + 2 * 3); // the start-up line, then two before each answer
  } finally {
    await client.close();
  }
});

behaviour("a 20 MB stderr flood does not block the server: stderr is drained, calls succeed, the last line is kept", async () => {
  let stderrBytes = 0;
  const { client, transport } = await connected("stderr-flood-server.mjs", {
    transport: { onStderr: (line) => (stderrBytes += line.length + 1) },
  });
  try {
    const result = await hangGuard(client.callTool("flood"), 20_000, "tools/call during a 20 MB stderr flood");
    assert.equal(textOf(result), "flooded");
    assert.equal(textOf(await client.callTool("echo", { text: "after" })), "after");
    assert.ok(stderrBytes >= 20 * 1024 * 1024, `only ${stderrBytes} bytes of stderr seen`);
    const tail = transport.stderrTail;
    assert.equal(tail.at(-1), `flood done: ${20 * 1024 * 1024} bytes`);
    assert.ok(tail.length <= 20, `stderrTail keeps the last lines only, not ${tail.length}`);
  } finally {
    await client.close();
  }
});

behaviour("an onmessage handler that throws is reported through onerror and reading goes on", async () => {
  const transport = transportFor("echo-server.mjs");
  const received: JsonRpcMessage[] = [];
  const errors: TransportError[] = [];
  let answered: () => void;
  const bothAnswered = new Promise<void>((resolve) => (answered = resolve));
  transport.onmessage = (message) => {
    received.push(message);
    if (received.length === 2) answered();
    if (received.length === 1) throw new Error("handler bug");
  };
  transport.onerror = (error) => errors.push(error as TransportError);
  await transport.start();
  try {
    await transport.send({ jsonrpc: "2.0", id: 1, method: "ping" });
    await transport.send({ jsonrpc: "2.0", id: 2, method: "ping" });
    await hangGuard(bothAnswered, 10_000, "the second answer");
    assert.deepEqual(received.map((message) => "id" in message && message.id), [1, 2]);
    assert.equal(errors.length, 1);
    assert.equal(errors[0]!.code, "handler-threw");
    assert.match(errors[0]!.message, /onmessage handler threw: handler bug/);
  } finally {
    await transport.close();
  }
});

// --- a server that dies ------------------------------------------------------

behaviour("a server that exits mid-call fails the call at once with ConnectionClosedError naming the exit code and last stderr line", async () => {
  const { client } = await connected("crash-server.mjs", { client: { requestTimeoutMs: 60_000 } });
  const started = Date.now();
  await assert.rejects(hangGuard(client.callTool("echo", { text: "boom" }), 10_000, "the call to a dying server"), (error: unknown) => {
    assert.ok(error instanceof ConnectionClosedError, String(error));
    assert.match(error.message, /exited with code 3/);
    assert.match(error.message, /fatal: out of cheese while handling tools\/call/);
    assert.equal(error.details.exitCode, 3);
    assert.equal(error.details.stderrTail?.at(-1), "fatal: out of cheese while handling tools/call");
    return true;
  });
  assert.ok(Date.now() - started < 10_000);
  assert.equal(client.state, "failed");
  assert.ok(client.failure instanceof ConnectionClosedError);
  await client.close();
});

behaviour("a send after the server died rejects with TransportError instead of hanging", async () => {
  const { client, transport } = await connected("crash-server.mjs");
  await assert.rejects(client.callTool("echo"), ConnectionClosedError);
  await assert.rejects(
    hangGuard(transport.send({ jsonrpc: "2.0", id: 99, method: "ping" }), 5_000, "a send to a dead server"),
    (error: unknown) => error instanceof TransportError && /closed/.test(error.message),
  );
  await transport.close();
});

behaviour("a write waiting on a full pipe rejects with TransportError once the server dies", async () => {
  // The deaf server never reads stdin and exits after 300 ms: an 8 MB message cannot fit
  // in the pipe, so the write waits for the pipe to drain, then meets a dead pipe.
  const transport = transportFor("deaf-server.mjs", { args: ["300"] });
  let closed: CloseDetails | undefined;
  transport.onclose = (details) => (closed = details);
  await transport.start();
  try {
    const huge = { jsonrpc: "2.0" as const, id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "y".repeat(8_000_000) } } };
    await assert.rejects(hangGuard(transport.send(huge), 10_000, "a write on a full pipe to a dying server"), (error: unknown) => {
      assert.ok(error instanceof TransportError, String(error));
      assert.equal(error.code, "send-failed");
      assert.match(error.message, /could not write to the server's stdin/);
      return true;
    });
    await hangGuard(transport.close(), 10_000, "close()");
    assert.equal(closed?.exitCode, 5);
  } finally {
    await transport.close();
  }
});

// --- shutdown ----------------------------------------------------------------

behaviour("close() ends a well-behaved server by closing its stdin, and the client ends closed", async () => {
  const { client, transport } = await connected("echo-server.mjs");
  const pid = transport.pid!;
  let closed: CloseDetails | undefined;
  const clientOnClose = transport.onclose;
  transport.onclose = (details) => {
    closed = details;
    clientOnClose?.(details);
  };
  await hangGuard(client.close(), 10_000, "close()");
  assert.equal(client.state, "closed");
  assert.equal(closed?.exitCode, 0, "it exited by itself, not by a signal");
  assert.equal(closed?.signal, null);
  assert.equal(transport.stderrTail.at(-1), "echo: stdin closed, exiting");
  assert.equal(isRunning(pid), false);
  await assert.rejects(transport.send({ jsonrpc: "2.0", method: "notifications/initialized" }), TransportError);
});

behaviour("close() kills a server that ignores stdin close and SIGTERM, and its grandchild, within shutdownTimeoutMs plus margin", async () => {
  const pids = stderrLine(/^pids (\d+) (\d+)$/);
  const transport = transportFor("stubborn-server.mjs", { onStderr: pids.onStderr });
  let closed: CloseDetails | undefined;
  transport.onclose = (details) => (closed = details);
  await transport.start();
  const [, server, grandchild] = (await hangGuard(pids.line, 10_000, "the stubborn server's pids")).map(Number);
  assert.ok(server !== undefined && grandchild !== undefined, "the pids line names two processes");
  assert.equal(server, transport.pid);
  assert.ok(isRunning(server) && isRunning(grandchild));
  // A request the server will never answer is in flight while we close.
  await transport.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });

  const started = Date.now();
  await hangGuard(transport.close(), 10_000, "close()");
  const took = Date.now() - started;
  assert.ok(took < 2000 + 2000, `close() took ${took} ms; the default budget is 2 s plus 2 s`);
  assert.equal(closed?.signal, "SIGKILL", "stdin close and SIGTERM were ignored, so SIGKILL ended it");
  assert.equal(isRunning(server), false, `server ${server} outlived close()`);
  assert.equal(isRunning(grandchild), false, `grandchild ${grandchild} outlived close()`);
});

behaviour("a connect that fails during initialize closes the server and leaves no process behind", async () => {
  // The server never answers initialize; we abort the connect once it has told us its pids
  // (a timeout would race the grandchild's start-up on a loaded machine).
  const pids = stderrLine(/^pids (\d+) (\d+)$/);
  const client = new Client(clientInfo, { initializeTimeoutMs: 60_000 });
  const transport = transportFor("stubborn-server.mjs", { onStderr: pids.onStderr, shutdownTimeoutMs: 200 });
  const abort = new AbortController();
  const connecting = client.connect(transport, { signal: abort.signal });
  const [, server, grandchild] = (await hangGuard(pids.line, 10_000, "the stubborn server's pids")).map(Number);
  assert.ok(server !== undefined && grandchild !== undefined, "the pids line names two processes");
  abort.abort(new Error("gave up waiting for initialize"));
  await assert.rejects(hangGuard(connecting, 10_000, "connect()"), /gave up waiting for initialize/);
  assert.equal(client.state, "failed");
  assert.equal(isRunning(server), false, `server ${server} outlived the failed connect`);
  assert.equal(isRunning(grandchild), false, `grandchild ${grandchild} outlived the failed connect`);
});

behaviour("close() returns and releases the pipes even when a grandchild outside the group holds them open", async () => {
  const pids = stderrLine(/^pids (\d+) (\d+)$/);
  const { client, transport } = await connected("escaping-grandchild-server.mjs", { transport: { onStderr: pids.onStderr } });
  const [, server, grandchild] = (await hangGuard(pids.line, 10_000, "the server's pids")).map(Number);
  assert.ok(server !== undefined && grandchild !== undefined, "the pids line names two processes");
  try {
    await hangGuard(client.close(), 10_000, "close()");
    assert.equal(client.state, "closed");
    assert.equal(isRunning(server), false, `server ${server} outlived close()`);
    // Under Deno the op sanitizer fails this test if a read of those pipes is still pending.
  } finally {
    try {
      process.kill(grandchild, "SIGKILL"); // out of our reach by design: it left the group
    } catch {
      // already gone
    }
  }
  assert.equal(transport.stderrTail.at(-1), `pids ${server} ${grandchild}`);
});

behaviour("close() called while the server is still being spawned ends it too", async () => {
  const transport = transportFor("stubborn-server.mjs", { shutdownTimeoutMs: 200 });
  const starting = transport.start();
  const closing = transport.close();
  await assert.rejects(starting, (error: unknown) => error instanceof TransportError && error.code === "closed");
  await hangGuard(closing, 10_000, "close()");
  const pid = transport.pid;
  assert.ok(pid !== undefined, "the child was spawned");
  assert.equal(isRunning(pid), false, `server ${pid} outlived close()`);
});

// --- answers the transport cannot deliver (issue 13) --------------------------------------

/** A raw transport to the hostile fixture; what it reports through onerror and onmessage. */
async function rawHostile(maxMessageBytes: number): Promise<{ transport: StdioTransport; errors: Error[]; messages: JsonRpcMessage[] }> {
  const transport = new StdioTransport({ command: "node", args: [fixture("hostile-answers-server.mjs")], maxMessageBytes });
  const errors: Error[] = [];
  const messages: JsonRpcMessage[] = [];
  transport.onerror = (error) => errors.push(error);
  transport.onmessage = (message) => messages.push(message);
  await transport.start();
  return { transport, errors, messages };
}

behaviour(
  "a stdout line over maxMessageBytes that answers a request is reported as an UndeliverableMessageError carrying the response's id, size and limit",
  async () => {
    const { transport, errors, messages } = await rawHostile(4096);
    try {
      await transport.send({ jsonrpc: "2.0", id: 41, method: "tools/call", params: { name: "huge-id-last", arguments: { bytes: 20_000 } } });
      await transport.send({ jsonrpc: "2.0", id: 42, method: "tools/call", params: { name: "echo", arguments: { text: "after" } } });
      await waitUntil(() => messages.length > 0, "the echo answer", 15_000);
      assert.equal(errors.length, 1, errors.map((error) => error.message).join("\n"));
      const error = errors[0]!;
      assert.ok(error instanceof UndeliverableMessageError, `${error.name}: ${error.message}`);
      assert.equal(error.code, "undeliverable");
      assert.equal(error.response.id, 41);
      assert.equal(error.response.reason, "too-large");
      assert.equal(error.response.limit, 4096);
      assert.ok((error.response.bytes ?? 0) > 20_000);
      assert.match(error.response.remedy ?? "", /^raise the stdio transport's maxMessageBytes option \(StdioTransport\(\{ maxMessageBytes \}\)\)/);
      assert.match(error.message, /^stdio ".*hostile-answers-server\.mjs": stdout line of \d+ bytes exceeds maxMessageBytes \(4096\)/);
      assert.deepEqual(messages, [{ jsonrpc: "2.0", id: 42, result: { content: [{ type: "text", text: "after" }] } }]);
    } finally {
      await transport.close();
    }
  },
);

behaviour(
  "a 5 MB log line on stdout (not JSON) with one call pending fails no call: the answer on the next line arrives, the line is reported as skipped output",
  async () => {
    const { client, problems } = await connected("hostile-answers-server.mjs", { transport: { maxMessageBytes: 4096 } });
    try {
      assert.equal(textOf(await client.callTool("noise", { bytes: 5 * 1024 * 1024 })), "answer after noise");
      assert.equal(problems.length, 1, problems.join("\n"));
      assert.match(
        problems[0]!,
        /stdout line of \d+ bytes exceeds maxMessageBytes \(4096\); skipped: it does not start as a JSON-RPC message, so it is output and no request fails for it \(on stdio a server's log belongs on stderr\): "\[info\] cache state: xxx/,
      );
    } finally {
      await client.close();
    }
  },
);

behaviour("an oversized JSON log record on stdout whose start shows no result, error or id fails no call either", async () => {
  const { client, problems } = await connected("hostile-answers-server.mjs", { transport: { maxMessageBytes: 4096 } });
  try {
    assert.equal(textOf(await client.callTool("noise-json", { bytes: 100_000 })), "answer after noise");
    assert.equal(problems.length, 1, problems.join("\n"));
    assert.match(
      problems[0]!,
      /stdout line of \d+ bytes exceeds maxMessageBytes \(4096\); skipped: its start shows no response \("result", "error" or an "id"\), so no request fails for it/,
    );
  } finally {
    await client.close();
  }
});

behaviour("an oversized notification from the server is reported as a skipped line and fails no call", async () => {
  const { client, problems } = await connected("hostile-answers-server.mjs", { transport: { maxMessageBytes: 4096 } });
  try {
    // The log notification (over the limit) comes first, then the call's own answer.
    assert.equal(textOf(await client.callTool("log", { text: "y".repeat(10_000) })), "logged");
    assert.equal(problems.length, 1, problems.join("\n"));
    assert.match(problems[0]!, /stdout line of \d+ bytes exceeds maxMessageBytes \(4096\); skipped .*notifications\/message/);
  } finally {
    await client.close();
  }
});
