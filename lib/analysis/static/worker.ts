// Pool-worker entry of the static analyzer: `pool.run(thisFile, 'analyze', args)`. Loads the TS
// detector plugins itself (cached per worker thread), runs the single traversal, and collects
// the nodes each WASM detector declared so the main thread can hand them to the guest.
import { analyzeSource, type StaticResult } from './engine.ts';
import { loadDetectors, type DetectorPluginDescriptor } from './load-detectors.ts';

export interface WorkerArgs {
  source: string;
  file: string;
  plugins: DetectorPluginDescriptor[];
}

export async function analyze(args: WorkerArgs): Promise<StaticResult> {
  if (!args || typeof args.source !== 'string' || typeof args.file !== 'string' || !Array.isArray(args.plugins)) {
    throw new TypeError('static worker: analyze needs {source, file, plugins}');
  }
  const { entries, errors } = await loadDetectors(args.plugins);
  const collectNodes = args.plugins
    .filter((p) => p.runtime === 'wasm')
    .map((p) => ({
      id: p.id,
      types: Array.isArray(p.manifest?.detector?.node_types) ? (p.manifest.detector.node_types as unknown[]).map(String) : [],
    }));
  const result = await analyzeSource(args.source, args.file, entries, { collectNodes });
  for (const e of errors)
    result.diagnostics.push({
      kind: 'detector_error',
      detector: e.plugin,
      message: `detector plugin ${e.plugin} failed to load: ${e.message}`,
    });
  return result;
}
