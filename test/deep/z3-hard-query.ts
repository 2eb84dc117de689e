// A query Z3 cannot finish under any sensible time limit, for the test that it answers "unknown"
// (test/deep/z3-reset.test.ts) and the benchmark of how soon it does (bench/z3-time-limit.ts).
import type { Term, TermTable } from '../../plugins/tool-evm/symbolic/terms.ts';

/** Factoring a 240-bit semiprime with bit-vector multiplication. */
export function factoringQuery(t: TermTable): Term[] {
  const p = (1n << 127n) - 1n;
  const q = (1n << 113n) - 1n + 18n; // any large cofactor; the product is what matters
  const x = t.v('x');
  const y = t.v('y');
  return [
    t.op('eq', t.op('mul', x, y), t.c(p * q)),
    t.op('gt', x, t.c(1)),
    t.op('gt', y, t.c(1)),
    t.op('lt', x, t.c(1n << 128n)),
    t.op('lt', y, t.c(1n << 128n)),
  ];
}
