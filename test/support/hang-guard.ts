// Test helper: a bound on a wait, so that a hung test fails with a message instead of hanging the run.

/** Rejects if the promise has not settled within `ms`: a hung test fails instead of hanging. */
export async function hangGuard<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`hang guard: ${what} did not settle within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, guard]);
  } finally {
    clearTimeout(timer);
  }
}
