// Layer 2 (dynamic testing): registers the vigil-fuzz tool. It deploys the contracts of the file
// in an in-process EVM and fuzzes call sequences until its budget runs out, inside the kernel
// worker pool so a run that overstays is killed with its worker.
import { definePlugin } from '../../kernel/index.ts';
import { createFuzzTool } from './fuzz-tool.ts';

export default definePlugin<{ budget_ms?: number }>({
  setup(ctx) {
    ctx.registerTool(createFuzzTool({ pool: ctx.services.pool, budgetMs: ctx.config.budget_ms }));
  },
});
