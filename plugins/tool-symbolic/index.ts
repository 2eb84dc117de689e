// vigil-symbolic (layer 3): symbolic execution of each deployable contract's bytecode with Z3.
// The deployer runs the constructor, then the attacker sends up to two transactions with
// symbolic calldata, value and block time; reaching SELFDESTRUCT, a DELEGATECALL to an address
// the attacker picks, an ether transfer beyond what it paid in, a failing assert, or a wrapped
// ADD/SUB/MUL stored to storage gives a candidate whose Z3 model is a concrete transaction
// sequence. Each candidate is replayed on the in-process EVM the fuzzer also runs on (lib/analysis/evm):
// only one that breaks the property there is reported, with confidence 1.0 and the fuzzer's
// replayable transaction_sequence evidence (a delegatecall, which the fuzzer has no property
// for, is confirmed by running it and reported at 0.9 without that evidence).
// False positives avoided: models of the symbolic EVM's approximations (external calls that
// return what the solver likes, invented keccak preimages) fail the replay and are dropped;
// the attacker is one fixed address, never the deployer or an address hard-coded in the
// contract (a honeypot's backdoor owner); sinks undone by a later revert are checked at the
// transaction's successful end; checked (0.8) arithmetic reverts, so it is never reported.
// Runs in the kernel worker pool (Z3's WASM init is paid once per worker) within its own
// budget (budget_ms, default 4 s), not the request deadline: full mode shares two workers
// between every layer.
import { definePlugin } from '../../kernel/index.ts';
import { createSymbolicTool } from './tool.ts';

export default definePlugin<{
  max_transactions?: number;
  loop_bound?: number;
  max_paths?: number;
  solver_timeout_ms?: number;
  budget_ms?: number;
}>({
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
