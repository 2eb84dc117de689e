// Tinypool worker entry: imports the named module once per worker and calls the named export.
import { pathToFileURL } from 'node:url';

const cache = new Map<string, Promise<Record<string, unknown>>>();

export default async function dispatch(task: { module: string; fn: string; args: unknown }): Promise<unknown> {
  let mod = cache.get(task.module);
  if (!mod) {
    mod = import(pathToFileURL(task.module).href) as Promise<Record<string, unknown>>;
    cache.set(task.module, mod);
  }
  const m = await mod;
  const f = m[task.fn];
  if (typeof f !== 'function') throw new Error(`worker task: ${task.module} has no exported function ${task.fn}`);
  return await (f as (a: unknown) => unknown)(task.args);
}
