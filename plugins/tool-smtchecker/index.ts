// Layer 4 (formal verification): registers the solc SMTChecker tool. It runs offline on the
// compilers installed with the package, inside the kernel worker pool so a solver that does
// not return within the budget is stopped (its solc thread only) rather than stalling the request.
import { definePlugin } from '../../kernel/index.ts';
import { createSmtCheckerTool, type SmtEngine } from './smtchecker.ts';

export default definePlugin<{
  quick_budget_ms?: number;
  full_budget_ms?: number;
  full_engine?: SmtEngine;
  quick_max_unit_lines?: number;
}>({
  setup(ctx) {
    ctx.registerTool(
      createSmtCheckerTool({
        pool: ctx.services.pool,
        quickBudgetMs: ctx.config.quick_budget_ms,
        fullBudgetMs: ctx.config.full_budget_ms,
        fullEngine: ctx.config.full_engine,
        quickMaxUnitLines: ctx.config.quick_max_unit_lines,
      }),
    );
  },
});
