// Loads TS detector plugins outside the kernel (in a pool worker, a test or the benchmark) the
// same way the kernel does: import the entry, call setup() with a minimal context that only
// captures registerDetector. Anything else a detector plugin touches there is a clear error.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Detector } from '../../../kernel/contracts/detector.ts';
import type { StaticFacts } from './facts.ts';
import type { DetectorEntry } from './engine.ts';

export interface DetectorPluginDescriptor {
  id: string;
  dir: string;
  entry: string;
  runtime: 'ts' | 'wasm';
  config: Record<string, unknown>;
  manifest: Record<string, any>;
}

const cache = new Map<string, Promise<Detector<StaticFacts>[]>>();

function unavailable(what: string): never {
  throw new Error(`${what} is not available to a detector plugin during analysis; detectors only register rules`);
}

async function loadOne(d: DetectorPluginDescriptor): Promise<Detector<StaticFacts>[]> {
  const file = path.resolve(d.dir, d.entry);
  const mod = (await import(pathToFileURL(file).href)) as { default?: { setup?: (ctx: unknown) => unknown } };
  const plugin = mod.default;
  if (!plugin || typeof plugin.setup !== 'function')
    throw new Error(`detector plugin ${d.id}: ${d.entry} has no default export with setup()`);
  const found: Detector<StaticFacts>[] = [];
  const noop = () => {};
  const log = { info: noop, warn: noop, error: noop, debug: noop, trace: noop, fatal: noop, child: () => log };
  const services = new Proxy({}, { get: (_t, k) => (k === 'then' ? undefined : unavailable(`services.${String(k)}`)) });
  const ctx = {
    id: d.id,
    manifest: d.manifest,
    dir: d.dir,
    log,
    config: d.config ?? {},
    services,
    registerDetector: (x: Detector<StaticFacts>) => {
      if (!x?.meta?.id || typeof x.create !== 'function') throw new Error(`detector plugin ${d.id}: registerDetector needs {meta, create}`);
      found.push(x);
    },
    registerTool: () => unavailable('registerTool'),
    registerGuardrail: () => unavailable('registerGuardrail'),
    registerSkill: () => unavailable('registerSkill'),
    registerLlm: () => unavailable('registerLlm'),
    registerCompliance: () => unavailable('registerCompliance'),
    registerRoutes: () => unavailable('registerRoutes'),
    provide: () => unavailable('provide'),
    onStart: noop,
    onClose: noop,
  };
  await plugin.setup(ctx);
  return found;
}

/** Detectors of the TS plugins among `descriptors`, cached per process (per worker). */
export async function loadDetectors(
  descriptors: DetectorPluginDescriptor[],
): Promise<{ entries: DetectorEntry[]; errors: Array<{ plugin: string; message: string }> }> {
  const entries: DetectorEntry[] = [];
  const errors: Array<{ plugin: string; message: string }> = [];
  for (const d of descriptors) {
    if (d.runtime !== 'ts') continue;
    const key = `${path.resolve(d.dir, d.entry)}`;
    let p = cache.get(key);
    if (!p) {
      p = loadOne(d);
      cache.set(key, p);
      p.catch(() => cache.delete(key));
    }
    try {
      for (const det of await p) entries.push({ detector: det, config: d.config });
    } catch (e) {
      errors.push({ plugin: d.id, message: e instanceof Error ? e.message : String(e) });
    }
  }
  return { entries, errors };
}

/** Detector plugins found by convention under a plugins folder (`detector-*` with a plugin.json). */
export function discoverDetectorPlugins(pluginsDir: string): DetectorPluginDescriptor[] {
  const out: DetectorPluginDescriptor[] = [];
  if (!fs.existsSync(pluginsDir)) return out;
  for (const name of fs.readdirSync(pluginsDir).sort()) {
    const dir = path.join(pluginsDir, name);
    const mf = path.join(dir, 'plugin.json');
    if (!fs.existsSync(mf)) continue;
    let manifest: Record<string, any>;
    try {
      manifest = JSON.parse(fs.readFileSync(mf, 'utf8'));
    } catch {
      continue;
    }
    if (manifest.kind !== 'detector' || manifest.enabled === false) continue;
    out.push({ id: manifest.id ?? name, dir, entry: manifest.entry, runtime: manifest.runtime, config: manifest.defaults ?? {}, manifest });
  }
  return out;
}
