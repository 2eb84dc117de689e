// The guardrail layers exactly as the gateway gets them: every plugin of kind "guardrail" loaded by
// the kernel's own loader (manifest defaults, plugin config, services between layers), without
// booting the rest of the kernel. Tests and bench/guardrails.ts use this instead of a list of
// layers, so a new guardrail plugin is picked up without touching them.
import path from 'node:path';
import pino from 'pino';
import type { Guardrail, KernelServices } from '../../kernel/index.ts';
import { loadPlugins } from '../../kernel/loader.ts';
import { Registry } from '../../kernel/registry.ts';

const PLUGINS = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'plugins');

export interface LoadedLayers {
  guardrails: Guardrail[];
  services: KernelServices;
}

/** Loads the guardrail plugins (per-plugin config as in the service config's `plugins:`), runs their start hooks. */
export async function loadGuardrailLayers(pluginConfig: Record<string, Record<string, unknown>> = {}): Promise<LoadedLayers> {
  const registry = new Registry();
  // Guardrail plugins use only the registry, their config and each other's services.
  const services = { registry, get: <T>(name: string) => registry.services.get(name) as T | undefined } as unknown as KernelServices;
  await loadPlugins({
    roots: [PLUGINS],
    services,
    registry,
    log: pino({ level: 'silent' }),
    pluginConfig,
    select: (m) => m.kind === 'guardrail',
  });
  const failed = [...registry.statuses.values()].filter((s) => s.status !== 'loaded');
  if (failed.length) throw new Error(`guardrail plugins failed to load: ${failed.map((f) => `${f.id}: ${f.error}`).join('; ')}`);
  for (const h of registry.startHooks) await h.fn();
  return { guardrails: registry.guardrails(), services };
}

/** The default chain's layers, each in its default mode. */
export async function defaultGuardrails(): Promise<Guardrail[]> {
  return (await loadGuardrailLayers()).guardrails;
}
