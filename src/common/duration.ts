// Durations as people read them in messages — one wording in every layer, so a limit named by
// the transport reads the same as when the manager or the registry names it.

/**
 * `ms` as text: under a second in milliseconds ("250 ms"), from a second on in seconds with at
 * most one decimal ("1 s", "1.5 s", "300 s").
 */
export function durationText(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  if (Math.abs(ms) < 1000) return `${Math.round(ms)} ms`;
  return `${Math.round(ms / 100) / 10} s`;
}
