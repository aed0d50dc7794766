// Test helper: waiting for the next event of a Client or a ToolRegistry, failing (instead of
// hanging) when it does not come.

import type { Client, ClientEvents } from "../../src/mod.ts";
import type { RegistryEvents, ToolRegistry } from "../../src/registry/mod.ts";

/** The next event of a type; rejects with `no "<type>" event within …` after `ms`. */
export function nextEvent<K extends keyof ClientEvents & string>(target: Client, type: K, ms?: number): Promise<ClientEvents[K]>;
export function nextEvent<K extends keyof RegistryEvents & string>(target: ToolRegistry, type: K, ms?: number): Promise<RegistryEvents[K]>;
export function nextEvent(target: Client | ToolRegistry, type: string, ms = 5000): Promise<unknown> {
  const on = target.on.bind(target) as (type: string, listener: (detail: unknown) => void) => () => void;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no "${type}" event within ${ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`}`));
    }, ms);
    const off = on(type, (detail) => {
      clearTimeout(timer);
      off();
      resolve(detail);
    });
  });
}
