// analysis-api: the contract-analysis REST API on the API surface (spec: contract-analysis-api.md
// with decisions.md). Routes only: the work is done by the "analysis" service (analysis-engine
// plugin), the "remediation" service and the kernel store. Services are looked up per
// request instead of being a hard manifest dependency, so that when it fails to load, /health
// still answers (503 unhealthy, saying why) and reports stay readable.
import { definePlugin } from '../../kernel/index.ts';
import type { ReadinessRegistry } from '../../lib/gateway/contracts.ts';
import { maxAnalysisTimeout } from '../../lib/analysis/admission.ts';
import { AnalysisAdmission, admissionLimits } from './admission.ts';
import { analyzeRoutes } from './routes/analyze.ts';
import { metaRoutes } from './routes/meta.ts';
import { remediateRoutes } from './routes/remediate.ts';
import { reportRoutes } from './routes/reports.ts';
import type { ApiConfig } from './shared.ts';

export default definePlugin<ApiConfig>({
  setup(ctx) {
    // A bad `analysis_admission` section stops the plugin here, with the reason, rather than
    // failing every analysis request later.
    const gate = new AnalysisAdmission(admissionLimits(ctx.services.settings.file));
    // One gate per kernel: MCP's analyses queue behind the same one.
    ctx.provide('analysis-admission', gate);
    ctx.registerRoutes('api', async (app) => {
      await metaRoutes(app, ctx);
      await analyzeRoutes(app, ctx);
      await remediateRoutes(app, ctx);
      await reportRoutes(app, ctx);
    });
    ctx.services.get<ReadinessRegistry>('readiness')?.register(() => {
      const s = gate.stats();
      return [
        {
          id: 'analysis_admission',
          category: 'security',
          title: 'Analysis admission control',
          status: 'active',
          detail:
            `outside analyses (REST :8000 and MCP): at most ${s.max_running} running, ${s.max_queued} waiting, ${s.per_client} per client (tenant or address), ` +
            `timeouts held to ${maxAnalysisTimeout(ctx.services)} s; now ${s.running} running, ${s.queued} waiting, ${s.refused} refused with 429 since start; ` +
            "the gateway's own contract_audit calls keep the rest of the worker pool",
        },
      ];
    });
  },
});
