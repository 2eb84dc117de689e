// Z3's WASM build can corrupt its memory on some inputs ("memory access out of bounds" from inside
// its SAT core); that instance is then unusable, and before this every later symbolic run in the
// same pool worker failed the same way. A fatal error now restarts Z3 for the next run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isZ3Fatal, loadZ3, resetZ3, TermSolver } from '../../plugins/tool-evm/symbolic/solver.ts';
import { TermTable } from '../../plugins/tool-evm/symbolic/terms.ts';
import { factoringQuery } from './z3-hard-query.ts';

test('a fatal WASM error is recognised; an ordinary error is not', () => {
  assert.equal(isZ3Fatal(new WebAssembly.RuntimeError('memory access out of bounds')), true);
  assert.equal(isZ3Fatal(new Error('RuntimeError: memory access out of bounds')), true);
  assert.equal(isZ3Fatal(new Error('Aborted(Assertion failed)')), true);
  assert.equal(isZ3Fatal(new Error('the contract does not compile')), false);
});

test('after a reset the next run gets a fresh, working Z3', async () => {
  const first = await loadZ3();
  await resetZ3();
  const second = await loadZ3();
  assert.notEqual(first, second, 'a new context, not the broken one');
  const x = second.BitVec.const('x', 256);
  const s = new second.Solver();
  s.add(x.add(second.BitVec.val(1n, 256)).eq(second.BitVec.val(0n, 256)));
  assert.equal(await s.check(), 'sat');
  assert.equal(s.model().eval(x).toString(), '#x' + 'f'.repeat(64), 'x = 2^256 - 1');
  await resetZ3();
});

// How soon "unknown" comes back is a timing, measured by bench/z3-time-limit.ts (tests assert no timings).
test('a query Z3 cannot finish comes back "unknown" under a time limit, and the context stays usable', async () => {
  const z = await loadZ3();
  const t = new TermTable();
  const conds = factoringQuery(t);
  const solver = new TermSolver(z, 300);
  const r = await solver.check(conds);
  assert.equal(r.result, 'unknown');
  // The context is still usable afterwards.
  const ok = await new TermSolver(z, 1000).check([t.op('eq', t.op('add', t.v('a'), t.c(1)), t.c(0))]);
  assert.equal(ok.result, 'sat');
});
