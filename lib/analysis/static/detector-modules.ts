// Detector modules. A detector plugin's entry exports its rules as `detectors` (ESLint's meta +
// create) next to the default plugin built by detectorPlugin(). The kernel registers them through
// setup(); the static worker imports the same module by the path the kernel registry gives and
// reads `detectors` directly — no setup() call, no stand-in plugin context.
import fs from 'node:fs';
import path from 'node:path';
import { definePlugin, type PluginModule } from '../../../kernel/plugin-api.ts';
import type { Detector } from '../../../kernel/contracts/detector.ts';
import type { StaticFacts } from './facts.ts';
import type { DetectorEntry } from './engine.ts';
import { STATIC_TOOL } from './report.ts';
import { importModule } from '../../../kernel/compiled.js';
import type { DetectorPluginDescriptor, PluginManifest } from '../../../kernel/index.ts';

export type { DetectorPluginDescriptor };

/** The default export of a detector module: registers each of its detectors with the kernel. */
export function detectorPlugin(detectors: ReadonlyArray<Detector<StaticFacts>>): PluginModule {
  return definePlugin({
    setup(ctx) {
      for (const d of detectors) ctx.registerDetector(d);
    },
  });
}

const cache = new Map<string, Promise<Detector<StaticFacts>[]>>();

async function importOne(file: string): Promise<Detector<StaticFacts>[]> {
  const mod = (await importModule(file)) as { detectors?: unknown };
  if (!Array.isArray(mod.detectors)) throw new Error(`${file} does not export a \`detectors\` array`);
  for (const d of mod.detectors as Array<Partial<Detector<StaticFacts>>>)
    if (!d?.meta?.id || typeof d.create !== 'function') throw new Error(`${file}: every detector needs {meta, create}`);
  return mod.detectors as Detector<StaticFacts>[];
}

/** The tool a detector's findings belong to: layer-1 rules are vigil-static's, layer 7/8 rules
 *  their contributing tool plugin's (manifest `tool.name`). */
function toolOf(det: Detector<StaticFacts>, manifest: PluginManifest): string {
  const layer = det.meta.layer ?? 1;
  if (layer === 1) return STATIC_TOOL;
  return typeof manifest?.tool?.name === 'string' ? manifest.tool.name : `layer-${layer}`;
}

/** The TS detectors among `descriptors`, imported once per process (per worker thread). */
export async function importDetectors(
  descriptors: DetectorPluginDescriptor[],
): Promise<{ entries: DetectorEntry[]; errors: Array<{ plugin: string; message: string }> }> {
  const entries: DetectorEntry[] = [];
  const errors: Array<{ plugin: string; message: string }> = [];
  for (const d of descriptors) {
    if (d.runtime !== 'ts') continue;
    const file = path.resolve(d.dir, d.entry);
    let p = cache.get(file);
    if (!p) {
      p = importOne(file);
      cache.set(file, p);
      p.catch(() => cache.delete(file));
    }
    try {
      for (const det of await p) entries.push({ detector: det, config: d.config, tool: toolOf(det, d.manifest) });
    } catch (e) {
      errors.push({ plugin: d.id, message: e instanceof Error ? e.message : String(e) });
    }
  }
  return { entries, errors };
}

/**
 * Plugins that contribute detectors, read from the manifests under a plugins folder: for the
 * benchmark and tests, which run the pipeline without booting a kernel. A plugin contributes
 * detectors when it is of kind "detector", or declares a `detector` block (a tool plugin whose
 * rules run in the static traversal). The kernel's registry gives the same list at run time.
 */
export function discoverDetectorPlugins(pluginsDir: string): DetectorPluginDescriptor[] {
  const out: DetectorPluginDescriptor[] = [];
  if (!fs.existsSync(pluginsDir)) return out;
  for (const name of fs.readdirSync(pluginsDir).sort()) {
    const dir = path.join(pluginsDir, name);
    const mf = path.join(dir, 'plugin.json');
    if (!fs.existsSync(mf)) continue;
    let manifest: PluginManifest;
    try {
      manifest = JSON.parse(fs.readFileSync(mf, 'utf8')) as PluginManifest;
    } catch {
      continue;
    }
    if (manifest.enabled === false) continue;
    if (manifest.kind !== 'detector' && !(manifest.kind === 'tool' && manifest.detector)) continue;
    out.push({ id: manifest.id ?? name, dir, entry: manifest.entry, runtime: manifest.runtime, config: manifest.defaults ?? {}, manifest });
  }
  return out;
}
