// Test helper: polling until something a test waits for has happened (no tight timing: the
// tests share two cores), failing with what never happened.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls every `everyMs` until the condition holds; throws "hang guard: <what> …" after `ms`. */
export async function waitUntil(condition: () => boolean, what: string, ms = 10_000, everyMs = 20): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`hang guard: ${what} did not happen within ${ms} ms`);
    await sleep(everyMs);
  }
}

/** Polls `probe` every `everyMs` until it returns a value; throws "hang guard: <what> …" after `ms`. */
export async function until<T>(what: string, probe: () => T | undefined, ms = 60_000, everyMs = 50): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() - start > ms) throw new Error(`hang guard: ${what} did not happen within ${ms} ms`);
    await sleep(everyMs);
  }
}
