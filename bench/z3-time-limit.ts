// How close to its time limit Z3 gives up on a query it cannot finish (was a test assertion that
// failed under load; timings belong here). Run: node --import tsx bench/z3-time-limit.ts [limit_ms] [runs]
import { loadZ3, TermSolver } from '../plugins/tool-evm/symbolic/solver.ts';
import { TermTable } from '../plugins/tool-evm/symbolic/terms.ts';
import { factoringQuery } from '../test/deep/z3-hard-query.ts';

const limitMs = Number(process.argv[2] ?? 300);
const runs = Number(process.argv[3] ?? 5);
const z = await loadZ3();
// Factoring a 240-bit semiprime with bit-vector multiplication: far beyond any time limit.
const conds = factoringQuery(new TermTable());
const took: number[] = [];
for (let i = 0; i < runs; i++) {
  const t0 = performance.now();
  const r = await new TermSolver(z, limitMs).check(conds);
  took.push(performance.now() - t0);
  if (r.result !== 'unknown') throw new Error(`expected unknown, got ${r.result}`);
}
took.sort((a, b) => a - b);
const ms = (v: number) => Math.round(v);
console.log(
  JSON.stringify({ limit_ms: limitMs, runs, min_ms: ms(took[0]), median_ms: ms(took[Math.floor(runs / 2)]), max_ms: ms(took[runs - 1]) }),
);
process.exit(0);
