// What WASM detector and tool plugins mean: the kernel loads and sandboxes their modules, then asks
// the provider of `wasm-adapter:<kind>` (this plugin) to register them. Findings are analysis
// knowledge, so turning module output into findings lives here, not in the kernel.
import { SEVERITIES } from '../../kernel/index.ts';
import type {
  AnalysisTool,
  Category,
  DetectorMeta,
  Finding,
  Severity,
  PluginManifest,
  ToolRunOptions,
  ToolRunOutput,
  WasmAdapter,
  WasmInstance,
} from '../../kernel/index.ts';
import { findingId } from '../../lib/analysis/ids.ts';

/** A JSON scalar. */
type Scalar = string | number | boolean | null;

/** A finding as a WASM tool's guest writes it: JSON from the guest, so every field is optional
 *  and converted or defaulted where it is used. */
interface GuestFinding {
  line?: Scalar;
  end_line?: Scalar;
  rule?: Scalar;
  messageId?: Scalar;
  contract?: Scalar;
  function?: Scalar;
  title?: Scalar;
  description?: Scalar;
  severity?: Scalar;
  confidence?: Scalar;
  category?: Scalar;
  swc_id?: Scalar;
  cwe_id?: Scalar;
  recommendation?: Scalar;
}

type Analyze = (input: { source: string; file: string }, opts: ToolRunOptions & { only?: string[] }) => Promise<ToolRunOutput>;

/** WASM detectors: listed as detectors (their visitors run inside vigil-static, which collects the
 *  declared node types and calls the guest) and exposed as a drop-in tool each, so
 *  POST /analyze/tool/{id}/ runs just that rule. */
export function wasmDetectorAdapter(analyze: Analyze): WasmAdapter {
  return {
    async adapt({ manifest: m, instance, ctx }) {
      const meta = (m.detector?.meta ?? {}) as Partial<DetectorMeta>;
      if (!meta.id || !meta.title || !meta.severity || !meta.category)
        throw new Error('a wasm detector needs detector.meta with id, title, severity and category');
      const exp = typeof m.detector?.export === 'string' ? m.detector.export : 'detect';
      if (!(await instance.functionExists(exp))) throw new Error(`the module does not export "${exp}"`);
      ctx.registerDetector({ meta: meta as DetectorMeta, create: () => ({}) });
      ctx.registerTool({
        name: m.id,
        layer: 1,
        description: m.description ?? `WASM detector ${m.id}`,
        builtin: false,
        modes: [],
        runtime: 'wasm',
        async availability() {
          return { available: true };
        },
        async run(input, runOpts) {
          const r = await analyze(input, { ...runOpts, only: [m.id] });
          return { findings: r.findings.map((f) => ({ ...f, tools: [m.id] })), error: r.error ?? null, status: r.status };
        },
      });
    },
  };
}

/** WASM analysis tools: export (default "analyze") gets {source, file} and answers {findings: [...]}. */
export const wasmToolAdapter: WasmAdapter = {
  adapt({ manifest: m, instance, ctx }) {
    ctx.registerTool(wasmAnalyzerTool(m, instance));
  },
};

function wasmAnalyzerTool(m: PluginManifest, inst: WasmInstance): AnalysisTool {
  const t = m.tool!;
  const exp = String((t as { export?: Scalar }).export ?? 'analyze');
  return {
    name: t.name ?? m.id,
    layer: t.layer,
    description: m.description ?? '',
    builtin: false,
    modes: t.modes ?? ['full'],
    runtime: 'wasm',
    async availability() {
      return (await inst.functionExists(exp)) ? { available: true } : { available: false, reason: `module does not export ${exp}` };
    },
    async run(input, runOpts) {
      const out = await inst.callJson<{ findings?: GuestFinding[] }>(
        exp,
        { source: input.source, file: input.file },
        { signal: runOpts.signal, timeoutMs: Math.max(1, runOpts.deadline - Date.now()) },
      );
      if (!out || !Array.isArray(out.findings)) throw new Error(`plugin ${m.id}: output has no findings array`);
      return {
        findings: out.findings.map((f): Finding => {
          const line = Math.max(1, Number(f.line) || 1);
          return {
            id: findingId({
              detector: m.id + ':' + String(f.rule ?? f.messageId ?? ''),
              contract: (f.contract ?? null) as string | null,
              function: (f.function ?? null) as string | null,
              code: `${line}:${String(f.title ?? '')}`,
            }),
            detector: String(f.rule ?? m.id),
            title: String(f.title ?? m.id),
            description: String(f.description ?? f.title ?? ''),
            severity: SEVERITIES.includes(f.severity as Severity) ? (f.severity as Severity) : 'MEDIUM',
            confidence: typeof f.confidence === 'number' ? Math.min(1, Math.max(0, f.confidence)) : 0.5,
            // Passed through as the guest names them (the finding schema checks them downstream).
            category: (f.category ?? 'other') as Category,
            swc_id: (f.swc_id ?? null) as string | null,
            cwe_id: (f.cwe_id ?? null) as string | null,
            location: {
              file: input.file,
              line,
              end_line: Math.max(line, Number(f.end_line) || line),
              contract: (f.contract ?? null) as string | null,
              function: (f.function ?? null) as string | null,
            },
            tools: [t.name ?? m.id],
            layers: [t.layer],
            recommendation: String(f.recommendation ?? ''),
          };
        }),
      };
    },
  };
}
