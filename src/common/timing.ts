// Waits with a bound: a pause that a signal can end, and a promise given at most so long. Every
// layer waits through these, so each kind of wait is written (and leaves no timer behind) once.

/** Waits `ms`; rejects with the signal's reason when it aborts first. Leaves no timer or listener behind. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Resolves true if the promise settles (either way) within ms, false otherwise; never rejects, leaves no timer behind. */
export async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const settled = await Promise.race([promise.then(() => true, () => true), timeout]);
  clearTimeout(timer);
  return settled;
}

/**
 * The promise, or `onTimeout()` as a rejection once `ms` passed first. The promise's own
 * later rejection is then ignored (the caller has moved on and closes what it waited on).
 * Unlike `within`, the value and the rejection pass through.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  // setTimeout holds 2^31 - 1 ms at most; beyond that (Infinity too) there is no bound.
  if (ms >= 2 ** 31 - 1) return promise;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  promise.catch(() => {});
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
