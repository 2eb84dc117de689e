// Pool-worker entry of the static analyzer: `pool.run(thisFile, 'analyze', args)`. Imports the
// detector modules the kernel registry listed (cached per worker thread), parses once, computes
// facts once and runs every detector — layer 1 and the layer 7/8 rules of tool plugins — in one
// traversal, collecting the nodes each WASM detector declared so the main thread can hand them
// to the guest. Each finding carries the tool its detector belongs to.
import { analyzeSource, type StaticResult } from '../../lib/analysis/static/engine.ts';
import { importDetectors, type DetectorPluginDescriptor } from '../../lib/analysis/static/detector-modules.ts';

export interface WorkerArgs {
  source: string;
  file: string;
  plugins: DetectorPluginDescriptor[];
}

export interface WorkerResult extends StaticResult {
  /** Detector ids per tool, so each tool reports its own detectors' diagnostics. */
  detectorsByTool: Record<string, string[]>;
}

export async function analyze(args: WorkerArgs): Promise<WorkerResult> {
  if (!args || typeof args.source !== 'string' || typeof args.file !== 'string' || !Array.isArray(args.plugins)) {
    throw new TypeError('static worker: analyze needs {source, file, plugins}');
  }
  const { entries, errors } = await importDetectors(args.plugins);
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
  const detectorsByTool: Record<string, string[]> = {};
  for (const e of entries) (detectorsByTool[e.tool ?? 'vigil-static'] ??= []).push(e.detector.meta.id);
  return { ...result, detectorsByTool };
}
