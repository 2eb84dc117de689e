// vigil-symbolic (layer 3): symbolic execution of each deployable contract's bytecode with Z3.
// The deployer runs the constructor, then an arbitrary account sends up to two transactions
// with symbolic calldata, caller and value; reaching SELFDESTRUCT, a DELEGATECALL to an address
// the caller picks, an ether transfer beyond what the caller paid in, a failing assert, or a
// wrapped ADD/SUB/MUL stored to storage is reported with the solver's concrete transactions
// (ABI-decoded) as evidence, on the source line the deployed source map gives.
// False positives avoided: the deployer and addresses passed to the constructor are never the
// attacker (an owner check refutes the path); sinks undone by a later revert are checked at
// the transaction's successful end; values returned by other contracts are not treated as
// caller-chosen for overflow; checked (0.8) arithmetic reverts, so it is never reported.
// Runs in the kernel worker pool (Z3's WASM init is paid once per worker) within its own
// budget (budget_ms, default 4 s), not the request deadline: full mode shares two workers
// between every layer.
import { definePlugin } from '../../kernel/index.ts';
import { createSymbolicTool } from './tool.ts';

export default definePlugin<{ max_transactions?: number; loop_bound?: number; max_paths?: number; solver_timeout_ms?: number; budget_ms?: number }>({
  setup(ctx) {
    ctx.registerTool(
      createSymbolicTool({
        pool: ctx.services.pool,
        maxTransactions: ctx.config.max_transactions,
        loopBound: ctx.config.loop_bound,
        maxPaths: ctx.config.max_paths,
        solverTimeoutMs: ctx.config.solver_timeout_ms,
        budgetMs: ctx.config.budget_ms,
      }),
    );
  },
});
