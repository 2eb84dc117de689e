// The `analysis` service as every surface reaches it (REST routes, MCP tools): present, or a 503
// that says why — the analysis-engine plugin failed, is disabled, or is not installed.
import { HttpError, type AnalysisEngine, type KernelServices } from '../../kernel/index.ts';

export function analysisEngineOf(services: KernelServices): AnalysisEngine {
  const engine = services.get<AnalysisEngine>('analysis');
  if (engine) return engine;
  const st = services.registry.plugins().find((p) => p.id === 'analysis-engine');
  const why = st
    ? st.status === 'error'
      ? `it failed to load: ${st.error}`
      : `it is ${st.status}`
    : 'no analysis-engine plugin is installed';
  throw new HttpError(503, 'unavailable', `contract analysis is not available: ${why}`);
}
