// analysis-api: the contract-analysis REST API on the API surface (spec: contract-analysis-api.md
// with decisions.md). Routes only: the work is done by the "analysis" service (analysis-engine
// plugin), the fix engine in lib/remediation and the kernel store. The engine is looked up per
// request instead of being a hard manifest dependency, so that when it fails to load, /health
// still answers (503 unhealthy, saying why) and reports stay readable.
import { definePlugin } from '../../kernel/index.ts';
import { analyzeRoutes } from './routes/analyze.ts';
import { metaRoutes } from './routes/meta.ts';
import { remediateRoutes } from './routes/remediate.ts';
import { reportRoutes } from './routes/reports.ts';
import type { ApiConfig } from './shared.ts';

export default definePlugin<ApiConfig>({
  setup(ctx) {
    ctx.registerRoutes('api', async (app) => {
      await metaRoutes(app, ctx);
      await analyzeRoutes(app, ctx);
      await remediateRoutes(app, ctx);
      await reportRoutes(app, ctx);
    });
  },
});
