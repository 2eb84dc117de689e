// The vigil-ai AnalysisTool: picks the LLM backend (analysis.ai.provider/model in the config file,
// else the gateway's choice: VIGIL_MODEL, llm.provider/model, the first provider with a key, the
// offline demo), sends the source and the earlier findings, validates the JSON answer.
import type { AnalysisInput, AnalysisTool, RegistryView, ToolRunOptions, ToolRunOutput } from '../../kernel/index.ts';
import { chooseBackend, type BackendChoice } from '../../lib/gateway/agent/llm-select.ts';
import { AI_TOOL, buildReviewMessages, complete, demoReview, parseReview, reviewToFindings } from './review.ts';

export interface AiToolDeps {
  registry: Pick<RegistryView, 'llm' | 'llms'>;
  /** Raw config file (settings.file). */
  settingsFile: () => Record<string, any>;
  env?: NodeJS.ProcessEnv;
}

export function chooseReviewBackend(deps: AiToolDeps): BackendChoice {
  const file = deps.settingsFile() ?? {};
  const ai = file.analysis?.ai;
  if (ai?.provider || ai?.model) {
    // An explicit analysis model wins over the gateway's, and over VIGIL_MODEL.
    const c = chooseBackend(deps.registry as RegistryView, { llm: { provider: ai.provider, model: ai.model } }, {});
    return { ...c, source: 'config' };
  }
  return chooseBackend(deps.registry as RegistryView, file, deps.env ?? process.env);
}

export function createAiReviewTool(deps: AiToolDeps): AnalysisTool {
  async function analyze(input: AnalysisInput, run: ToolRunOptions): Promise<ToolRunOutput> {
    const choice = chooseReviewBackend(deps);
    if (!choice.backend || choice.problem) return { status: 'not_available', findings: [], error: choice.problem ?? 'no LLM backend' };
    const prior = input.prior ?? [];
    const meta: Record<string, unknown> = { provider: choice.provider, model: choice.model, prior_findings: prior.length };
    if (choice.provider === 'demo') {
      const items = demoReview(input.source, prior);
      const { findings, dropped } = reviewToFindings(items, input.source, input.file, prior, 'demo');
      return {
        status: 'success',
        findings,
        error: null,
        meta: { ...meta, mode: 'demo: explains earlier findings, proposes none', proposed: items.length, dropped },
      };
    }
    const { messages, truncated } = buildReviewMessages(input.source, input.file, prior);
    // The model gets what is left of the budget; a late answer is cut at the deadline.
    const ctl = new AbortController();
    const stop = () => ctl.abort();
    run.signal.addEventListener('abort', stop, { once: true });
    const timer = setTimeout(stop, Math.max(0, run.deadline - Date.now() - 250));
    try {
      const { text, usage } = await complete(choice.backend, choice.model, messages, ctl.signal);
      const parsed = parseReview(text);
      const mapped = reviewToFindings(parsed.items, input.source, input.file, prior, choice.provider);
      const dropped = [...parsed.dropped, ...mapped.dropped];
      return {
        status: 'success',
        findings: mapped.findings,
        error: null,
        meta: {
          ...meta,
          usage,
          proposed: parsed.items.length + parsed.dropped.filter((d) => d.startsWith('item ')).length,
          kept: mapped.findings.length,
          dropped,
          ...(truncated ? { note: 'the source was cut to fit the prompt' } : {}),
        },
      };
    } catch (e) {
      if (ctl.signal.aborted)
        return { status: 'timeout', findings: [], error: `${choice.label} did not answer within the time budget`, meta };
      return { status: 'error', findings: [], error: `${choice.label} failed: ${(e as Error).message}`, meta };
    } finally {
      clearTimeout(timer);
      run.signal.removeEventListener('abort', stop);
    }
  }

  return {
    name: AI_TOOL,
    layer: 5,
    description:
      "AI review: an LLM reads the contract with the earlier layers' findings and proposes findings as validated JSON (LLM-only findings are marked and capped at 0.3 confidence)",
    builtin: true,
    modes: ['full'],
    usesPrior: true,
    async availability() {
      const c = chooseReviewBackend(deps);
      if (c.problem)
        return { available: false, reason: c.problem, install_hint: "set the provider's API key, or analysis.ai.provider: demo" };
      return { available: true, version: c.label };
    },
    async selfTest() {
      const source =
        'pragma solidity ^0.8.0;\ncontract SelfTest {\n    function kill() external { selfdestruct(payable(msg.sender)); }\n}\n';
      const prior = [
        {
          id: 'p1',
          title: 'Unprotected selfdestruct',
          description: '',
          severity: 'CRITICAL',
          confidence: 0.8,
          category: 'access_control',
          location: { file: 'SelfTest.sol', line: 3, end_line: 3 },
          tools: ['vigil-static'],
          layers: [1],
          recommendation: '',
        },
      ] as AnalysisInput['prior'];
      const c = chooseReviewBackend(deps);
      if (c.provider !== 'demo') return; // a remote model is not called at start-up
      const out = await analyze(
        { source, file: 'SelfTest.sol', sha256: '', prior },
        { signal: new AbortController().signal, deadline: Date.now() + 10_000 },
      );
      const f = out.findings[0];
      if (!f || (f.evidence as any)?.confirms !== 'p1' || f.llm_only)
        throw new Error('vigil-ai self-test: the demo review did not confirm the earlier finding');
    },
    run: analyze,
  };
}
