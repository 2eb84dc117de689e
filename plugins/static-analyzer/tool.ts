// The vigil-static tool: runs lib/analysis/static in the kernel worker pool. The worker loads
// the TS detector plugins itself and collects the node types WASM detectors declared; back on
// this thread each WASM detector's guest is called with those nodes and its answer is mapped
// to findings from the manifest's detector.meta. A failing WASM detector or a detector that
// throws becomes a diagnostic in the tool's meta, never a failed run.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnalysisInput, AnalysisTool, Finding, RegistryView, ToolRunOptions, ToolRunOutput, WorkerPool } from '../../kernel/index.ts';
import {
  dedupeFindings,
  groupProjectNotes,
  mapWasmFindings,
  wasmDetectorMeta,
  type DetectorPluginDescriptor,
  type EngineDiagnostic,
  type StaticResult,
} from '../../lib/analysis/static/index.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
export const STATIC_WORKER = path.resolve(here, '../../lib/analysis/static/worker.ts');

/** A tiny contract every build must flag: the self-test fails if this finding disappears. */
export const SELF_TEST_SOURCE = `pragma solidity ^0.4.24;
contract SelfTest {
    mapping(address => uint) balances;
    function withdraw() public {
        uint amount = balances[msg.sender];
        require(msg.sender.call.value(amount)());
        balances[msg.sender] = 0;
    }
}
`;

export interface StaticToolDeps {
  pool: WorkerPool;
  registry: Pick<RegistryView, 'detectorPlugins' | 'wasmInstance'>;
}

export function createStaticTool(deps: StaticToolDeps): AnalysisTool & {
  analyze: (input: Pick<AnalysisInput, 'source' | 'file'>, opts: ToolRunOptions & { only?: string[] }) => Promise<ToolRunOutput>;
} {
  const descriptors = (): DetectorPluginDescriptor[] =>
    deps.registry.detectorPlugins().map((d) => ({
      id: d.id,
      dir: d.dir,
      entry: d.entry,
      runtime: d.runtime,
      config: d.config,
      manifest: d.manifest as Record<string, any>,
    }));

  /** `only` restricts the run to some detector plugins (a WASM detector run as its own tool). */
  async function analyze(
    input: Pick<AnalysisInput, 'source' | 'file'>,
    opts: ToolRunOptions & { only?: string[] },
  ): Promise<ToolRunOutput> {
    const plugins = opts.only ? descriptors().filter((d) => opts.only!.includes(d.id)) : descriptors();
    const result = await deps.pool.run<StaticResult>(
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
        const out = await inst.callJson(String(p.manifest.detector?.export ?? 'detect'), wasmInput, { timeoutMs, signal: opts.signal });
        findings = findings.concat(mapWasmFindings(meta, wasmInput, out, input.source));
      } catch (e) {
        diagnostics.push({ kind: 'detector_error', detector: p.id, message: e instanceof Error ? e.message : String(e) });
      }
    }
    // INFO notes stay few: at most 3 per detector in a file, the rest folded into the last one.
    findings = groupProjectNotes(dedupeFindings(findings));
    return { status: 'success', findings, error: null, meta: { diagnostics, stats: result.stats } };
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
        { source: SELF_TEST_SOURCE, file: 'SelfTest.sol' },
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
  };
}
