// The vigil-static tool: runs lib/analysis/static in the kernel worker pool. The worker imports
// the detector modules the registry lists (layer-1 detector plugins and the layer 7/8 rules of
// tool plugins), runs them in one traversal and collects the node types WASM detectors declared;
// back on this thread each WASM detector's guest is called with those nodes and its answer is
// mapped to findings from the manifest's detector.meta. vigil-static reports the layer-1
// findings; the layer 7/8 tools take theirs from the same run (analyzeTool). A failing WASM
// detector or a detector that throws becomes a diagnostic in the tool's meta, never a failed run.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnalysisInput, AnalysisTool, Finding, RegistryView, ToolRunOptions, ToolRunOutput, WorkerPool } from '../../kernel/index.ts';
import {
  dedupeFindings,
  groupProjectNotes,
  mapWasmFindings,
  wasmDetectorMeta,
  STATIC_TOOL,
  type DetectorPluginDescriptor,
  type EngineDiagnostic,
  type StaticResult,
} from '../../lib/analysis/static/index.ts';
import { REENTRANCY_SELF_TEST } from '../../lib/analysis/self-test.ts';
import type { WorkerResult } from './worker.ts';

/** A diagnostic of a detector that another tool owns is that tool's to report. */
function ownedByOther(run: { detectorsByTool: Record<string, string[]> }, detector: string, tool: string): boolean {
  return Object.entries(run.detectorsByTool).some(([t, ids]) => t !== tool && ids.includes(detector));
}

const here = path.dirname(fileURLToPath(import.meta.url));
export const STATIC_WORKER = path.resolve(here, 'worker.ts');

export interface StaticToolDeps {
  pool: WorkerPool;
  registry: Pick<RegistryView, 'detectorPlugins' | 'wasmInstance'>;
}

type Input = Pick<AnalysisInput, 'source' | 'file'>;

/** One run over a source: every tool's findings (unfiltered) and the worker's diagnostics. */
interface SharedRun {
  findings: Finding[];
  diagnostics: EngineDiagnostic[];
  stats: StaticResult['stats'];
  detectorsByTool: Record<string, string[]>;
}

/** How long a finished run over a source is kept for the other tools of the same request. */
const SHARE_MS = 30_000;

export function createStaticTool(deps: StaticToolDeps): AnalysisTool & {
  analyze: (input: Input, opts: ToolRunOptions & { only?: string[] }) => Promise<ToolRunOutput>;
  analyzeTool: (tool: string, input: Input, opts: ToolRunOptions) => Promise<ToolRunOutput>;
} {
  const descriptors = (): DetectorPluginDescriptor[] =>
    deps.registry.detectorPlugins().map((d) => ({
      id: d.id,
      dir: d.dir,
      entry: d.entry,
      runtime: d.runtime,
      config: d.config,
      manifest: d.manifest,
    }));

  async function runOnce(input: Input, opts: ToolRunOptions, plugins: DetectorPluginDescriptor[]): Promise<SharedRun> {
    const result = await deps.pool.run<WorkerResult>(
      STATIC_WORKER,
      'analyze',
      { source: input.source, file: input.file, plugins },
      { signal: opts.signal, deadline: opts.deadline },
    );
    const diagnostics: EngineDiagnostic[] = [...result.diagnostics];
    let findings: Finding[] = result.findings;
    for (const p of plugins.filter((x) => x.runtime === 'wasm')) {
      const wasmInput = result.wasmInputs[p.id];
      if (!wasmInput || !wasmInput.nodes.length) continue;
      try {
        const inst = deps.registry.wasmInstance(p.id);
        if (!inst) throw new Error(`wasm detector ${p.id} is not loaded`);
        const meta = wasmDetectorMeta(p.id, p.manifest.detector);
        const timeoutMs = Math.max(1, opts.deadline - Date.now());
        const exportName = p.manifest.detector?.export;
        const out = await inst.callJson(typeof exportName === 'string' ? exportName : 'detect', wasmInput, {
          timeoutMs,
          signal: opts.signal,
        });
        findings = findings.concat(mapWasmFindings(meta, wasmInput, out, input.source));
      } catch (e) {
        diagnostics.push({ kind: 'detector_error', detector: p.id, message: e instanceof Error ? e.message : String(e) });
      }
    }
    return { findings, diagnostics, stats: result.stats, detectorsByTool: result.detectorsByTool };
  }

  // vigil-static and the layer 7/8 tools run concurrently over the same source: the first asks
  // the worker for all of them (one parse, one traversal), the others share that run.
  const shared = new Map<string, Promise<SharedRun>>();
  function sharedRun(input: Input, opts: ToolRunOptions): Promise<SharedRun> {
    const key = `${input.file}\u0000${createHash('sha256').update(input.source).digest('hex')}`;
    let p = shared.get(key);
    if (!p) {
      p = runOnce(input, opts, descriptors());
      shared.set(key, p);
      const drop = () => setTimeout(() => shared.get(key) === p && shared.delete(key), SHARE_MS).unref();
      // A failed or cancelled run is not shared with a later request.
      p.then(drop, () => shared.get(key) === p && shared.delete(key));
      while (shared.size > 32) shared.delete(shared.keys().next().value!);
    }
    return p;
  }

  function pick(run: SharedRun, tool: string, wasm: boolean): ToolRunOutput {
    const mine = new Set(run.detectorsByTool[tool] ?? []);
    // WASM detectors are layer-1 rules: their findings and failures are vigil-static's.
    let findings = run.findings.filter((f) => (f.tools[0] ?? STATIC_TOOL) === tool);
    if (tool === STATIC_TOOL) findings = dedupeFindings(findings);
    const diagnostics = run.diagnostics.filter((d) =>
      d.detector ? mine.has(d.detector) || (wasm && !ownedByOther(run, d.detector, tool)) : wasm,
    );
    // INFO notes stay few: at most 3 per detector in a file, the rest folded into the last one.
    return { status: 'success', findings: groupProjectNotes(findings), error: null, meta: { diagnostics, stats: run.stats } };
  }

  /** `only` restricts the run to some detector plugins (a WASM detector run as its own tool). */
  async function analyze(input: Input, opts: ToolRunOptions & { only?: string[] }): Promise<ToolRunOutput> {
    if (opts.only) {
      const run = await runOnce(
        input,
        opts,
        descriptors().filter((d) => opts.only!.includes(d.id)),
      );
      const findings = groupProjectNotes(dedupeFindings(run.findings));
      return { status: 'success', findings, error: null, meta: { diagnostics: run.diagnostics, stats: run.stats } };
    }
    return pick(await sharedRun(input, opts), STATIC_TOOL, true);
  }

  /** The findings of one layer-7/8 tool's detectors, from the shared run. */
  async function analyzeTool(tool: string, input: Input, opts: ToolRunOptions): Promise<ToolRunOutput> {
    return pick(await sharedRun(input, opts), tool, false);
  }

  return {
    name: 'vigil-static',
    layer: 1,
    description:
      'Built-in static analysis: one-pass ESLint-style detectors over the Solidity AST with shared facts (call graph, inheritance, state written after external calls, access checks)',
    builtin: true,
    modes: ['quick', 'full'],
    async availability() {
      return { available: true, version: '1.0.0', reason: null, install_hint: null };
    },
    async selfTest() {
      const out = await analyze(
        { source: REENTRANCY_SELF_TEST, file: 'SelfTest.sol' },
        { signal: new AbortController().signal, deadline: Date.now() + 60_000 },
      );
      if (!out.findings.some((f) => f.category === 'reentrancy' && f.location.line === 6)) {
        throw new Error(
          `vigil-static self-test: expected a reentrancy finding on line 6, got ${out.findings.map((f) => `${f.category}@${f.location.line}`).join(', ') || 'none'}`,
        );
      }
    },
    run: analyze,
    analyze,
    analyzeTool,
  };
}
