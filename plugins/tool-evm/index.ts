// The EVM tools: vigil-fuzz (layer 2) and vigil-symbolic (layer 3). Both run inside kernel pool
// workers, where no service can be called, on the same in-process EVM (./evm): the fuzzer
// searches call sequences on it, the symbolic engine replays its Z3 counterexamples on it. One
// plugin owns that EVM and registers both tools, so neither imports the other's code.
// Settings: plugins.tool-evm.fuzz.* and plugins.tool-evm.symbolic.* (the former plugins
// tool-fuzzer and tool-symbolic are read there, see `replaces` in plugin.json); each section's
// `enabled: false` leaves that tool out.
import { definePlugin } from '../../kernel/index.ts';
import { createFuzzTool } from './fuzz/tool.ts';
import { createSymbolicTool } from './symbolic/tool.ts';

type EvmToolsConfig = {
  fuzz?: { enabled?: boolean; budget_ms?: number };
  symbolic?: {
    enabled?: boolean;
    max_transactions?: number;
    loop_bound?: number;
    max_paths?: number;
    solver_timeout_ms?: number;
    budget_ms?: number;
  };
};

export default definePlugin<EvmToolsConfig>({
  setup(ctx) {
    const { fuzz = {}, symbolic = {} } = ctx.config;
    if (fuzz.enabled !== false) ctx.registerTool(createFuzzTool({ pool: ctx.services.pool, budgetMs: fuzz.budget_ms, log: ctx.log }));
    if (symbolic.enabled !== false)
      ctx.registerTool(
        createSymbolicTool({
          pool: ctx.services.pool,
          maxTransactions: symbolic.max_transactions,
          loopBound: symbolic.loop_bound,
          maxPaths: symbolic.max_paths,
          solverTimeoutMs: symbolic.solver_timeout_ms,
          budgetMs: symbolic.budget_ms,
          log: ctx.log,
        }),
      );
  },
});
