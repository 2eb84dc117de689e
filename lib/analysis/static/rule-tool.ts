// An AnalysisTool for a tool plugin whose rules are detectors run by the static analyzer (layers
// 7 and 8): the rules run in the static layer's one traversal, and this tool reports the findings
// labelled with its name. A self-test source must yield the expected `detector@line` findings,
// or the tool reports itself broken in health.
import type { AnalysisInput, AnalysisTool, PluginContext, ToolRunOptions, ToolRunOutput } from '../../../kernel/index.ts';
import { importDetectors, type DetectorPluginDescriptor } from './detector-modules.ts';
import { analyzeSource } from './engine.ts';
import { groupProjectNotes } from './dedup.ts';

/** Runs the static pipeline and returns the findings of one tool's detectors. */
export type ToolAnalyzer = (tool: string, input: Pick<AnalysisInput, 'source' | 'file'>, run: ToolRunOptions) => Promise<ToolRunOutput>;

export interface RuleToolSpec {
  name: string;
  layer: number;
  description: string;
  selfTest: { source: string; expect: string[] };
  /** Rules whose findings are hygiene rather than vulnerabilities: reported in full mode only. */
  fullModeOnly?: string[];
}

export function createRuleTool(spec: RuleToolSpec, opts: { analyze: ToolAnalyzer }): AnalysisTool {
  async function analyze(input: Pick<AnalysisInput, 'source' | 'file'>, run: ToolRunOptions): Promise<ToolRunOutput> {
    const out = await opts.analyze(spec.name, { source: input.source, file: input.file }, run);
    const quick = (run as ToolRunOptions & { mode?: string }).mode === 'quick';
    if (!quick || !spec.fullModeOnly?.length) return out;
    return { ...out, findings: out.findings.filter((f) => !spec.fullModeOnly!.includes(f.detector ?? '')) };
  }
  return {
    name: spec.name,
    layer: spec.layer,
    description: spec.description,
    builtin: true,
    modes: ['quick', 'full'],
    async availability() {
      return { available: true, version: '1.0.0' };
    },
    async selfTest() {
      const out = await analyze(
        { source: spec.selfTest.source, file: 'SelfTest.sol' },
        { signal: new AbortController().signal, deadline: Date.now() + 60_000 },
      );
      const got = out.findings.map((f) => `${f.detector}@${f.location.line}`).sort();
      const missing = spec.selfTest.expect.filter((e) => !got.includes(e));
      if (missing.length)
        throw new Error(`${spec.name} self-test: expected ${spec.selfTest.expect.join(' and ')}, got ${got.join(', ') || 'none'}`);
    },
    run: analyze,
  };
}

/**
 * The same pipeline in process, for tests and scripts that run without a kernel: imports the
 * given detector plugins' modules and runs them all in one traversal, then picks the tool's findings.
 */
export function inProcessAnalyzer(plugins: DetectorPluginDescriptor[]): ToolAnalyzer {
  return async (tool, input) => {
    const { entries } = await importDetectors(plugins);
    const r = await analyzeSource(input.source, input.file, entries);
    const findings = groupProjectNotes(r.findings.filter((f) => f.tools[0] === tool));
    return { status: 'success', findings, error: null, meta: { diagnostics: r.diagnostics } };
  };
}

/**
 * The setup of a rule-tool plugin: its rules are registered as detectors (the static analyzer
 * runs them in its one traversal) and its tool asks the static analyzer for their findings,
 * looked up when the tool runs because the analyzer may load after this plugin.
 */
export function ruleToolSetup(
  detectors: ReadonlyArray<Parameters<PluginContext['registerDetector']>[0]>,
  createTool: (o: { analyze: ToolAnalyzer }) => AnalysisTool,
): (ctx: PluginContext) => void {
  return (ctx) => {
    for (const d of detectors) ctx.registerDetector(d);
    const analyze: ToolAnalyzer = (tool, input, run) => {
      const s = ctx.services.get<{ analyzeTool: ToolAnalyzer }>('static-analyzer');
      if (!s) throw new Error('the static-analyzer plugin is not loaded; its pipeline runs these rules');
      return s.analyzeTool(tool, input, run);
    };
    ctx.registerTool(createTool({ analyze }));
  };
}
