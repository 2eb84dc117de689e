// The SMTChecker layer: real solc model checking, counterexamples kept as evidence, lines exact.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSmtCheckerTool, parseSmtWarning, smtUnsupportedReason, targetsFor } from '../../plugins/tool-smtchecker/smtchecker.ts';

const tool = createSmtCheckerTool({ pool: null, quickBudgetMs: 30_000 });
const run = (source: string, mode: 'quick' | 'full' = 'quick') =>
  tool.run({ source, file: 'T.sol', sha256: '' }, { signal: new AbortController().signal, deadline: Date.now() + 90_000, mode });

test('0.8: finds an assertion violation and a division by zero with counterexamples on the right lines', async () => {
  const src = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Vault {
    uint256 public total;
    function check(uint256 a) public pure {
        assert(a != 42);
    }
    function share(uint256 a, uint256 b) public pure returns (uint256) {
        return a / b;
    }
    function safe(uint256 a) public pure returns (uint256) {
        require(a < 10);
        return a + 1;
    }
}
`;
  const r = await run(src);
  assert.equal(r.status, 'success', r.error ?? '');
  const a = r.findings.find((f) => f.detector === 'smtchecker-assert');
  assert.ok(a, 'assertion violation found');
  assert.equal(a.location.line, 6);
  assert.equal(a.location.function, 'check');
  assert.equal(a.location.contract, 'Vault');
  assert.equal((a.evidence as any).counterexample.a, '42');
  assert.equal((a.evidence as any).kind, 'counterexample');
  const d = r.findings.find((f) => f.detector === 'smtchecker-div-by-zero');
  assert.ok(d);
  assert.equal(d.location.line, 9);
  assert.equal((d.evidence as any).counterexample.b, '0');
  // the guarded addition in safe() is proven: no finding there
  assert.ok(!r.findings.some((f) => f.location.line === 13));
});

test('0.7 (pragma injected on line 1): a wrapping overflow is HIGH arithmetic with lines unshifted', async () => {
  const src = `pragma solidity ^0.7.0;
contract Token {
    uint8 public supply;
    function mint(uint8 amount) public {
        supply = supply + amount;
    }
}
`;
  const r = await run(src);
  assert.equal(r.status, 'success', r.error ?? '');
  const o = r.findings.find((f) => f.category === 'arithmetic');
  assert.ok(o, 'overflow found');
  assert.equal(o.severity, 'HIGH');
  assert.equal(o.swc_id, 'SWC-101');
  assert.equal(o.location.line, 5);
  assert.match(o.description, /wraps around/);
  assert.ok(Object.keys((o.evidence as any).counterexample).length > 0);
});

test('pre-0.6 compilers: skipped with the reason, not a failure', async () => {
  const r = await run('pragma solidity ^0.4.24;\ncontract C { uint8 x; function f(uint8 a) public { x = x + a; } }\n');
  assert.equal(r.status, 'skipped');
  assert.match(r.error!, /0\.4\.26.*SMT solver/);
  assert.match(smtUnsupportedReason('0.4.18')!, /no SMTChecker/);
  assert.equal(smtUnsupportedReason('0.6.12'), null);
});

test('a source that does not compile is skipped with the compiler message', async () => {
  const r = await run('pragma solidity ^0.8.0;\ncontract C { function f() public { uint x = ; } }\n');
  assert.equal(r.status, 'skipped');
  assert.match(r.error!, /needs a compiling contract/);
});

test('quick mode: a contract that exceeds the budget reports timeout, not error; the pool worker lives on', async () => {
  const { TinyWorkerPool } = await import('../../kernel/pool.ts');
  const pool = new TinyWorkerPool({ maxThreads: 1 });
  const tasks = new URL('../fixtures/pool/tasks.ts', import.meta.url).pathname;
  try {
    const before = await pool.run<{ threadId: number }>(tasks, 'add', { x: 1, y: 1 });
    // 40 ms is less than any solc run with the model checker takes, even on a warm worker.
    const t = createSmtCheckerTool({ pool, quickBudgetMs: 40 });
    const r = await t.run(
      {
        source:
          '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\ncontract L { function f(uint a) public pure { assert(a * a != 49); } }\n',
        file: 'L.sol',
        sha256: '',
      },
      { signal: new AbortController().signal, deadline: Date.now() + 60_000, mode: 'quick' },
    );
    assert.equal(r.status, 'timeout');
    assert.match(r.error!, /quick-mode budget \(40 ms per contract\) on L/);
    // Only the solc thread the job ran on was stopped, not the worker (which keeps what it loaded).
    const after = await pool.run<{ threadId: number }>(tasks, 'add', { x: 1, y: 1 });
    assert.equal(after.threadId, before.threadId);
    // And the next job gets a fresh solc thread and its answer.
    const ok = await createSmtCheckerTool({ pool, quickBudgetMs: 60_000 }).run(
      {
        source:
          '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\ncontract M { function f(uint a) public pure { assert(a != 5); } }\n',
        file: 'M.sol',
        sha256: '',
      },
      { signal: new AbortController().signal, deadline: Date.now() + 60_000, mode: 'quick' },
    );
    assert.equal(ok.status, 'success', ok.error ?? '');
    assert.ok(ok.findings.some((f) => f.detector === 'smtchecker-assert'));
  } finally {
    await pool.close();
  }
});

test('a job its budget stops leaves a new solc thread loading, so the next job does not spend its time loading solc', async () => {
  const { smtCompileTask, sidecarHelpers } = await import('../../plugins/tool-smtchecker/solc-sidecar.ts');
  const req = {
    source:
      '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\ncontract L { function f(uint a) public pure { assert(a * a != 49); } }\n',
    file: 'L.sol',
    outputs: 'check' as const,
    modelChecker: { engine: 'bmc', targets: ['assert'] },
  };
  // In this thread (no pool): 40 ms of solver time is less than any model-checking run takes.
  const stopped = smtCompileTask({ ...req, isolate: { budgetMs: 40, deadline: Date.now() + 60_000 } });
  assert.equal(stopped.stopped?.why, 'budget', JSON.stringify(stopped.stopped));
  // The stopped thread is gone; its replacement is already there, loading in the background.
  // (Other tests in this file left helpers of other releases in this thread.)
  const mine = () => sidecarHelpers().filter((h) => h.version === stopped.compiler);
  assert.equal(mine().length, 1, JSON.stringify(sidecarHelpers()));
  const until = Date.now() + 60_000;
  while (!mine()[0]?.loaded && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  assert.ok(mine()[0]?.loaded, 'the new solc thread finished loading');
  // Its next job starts on a loaded compiler and is answered.
  const ok = smtCompileTask({ ...req, isolate: { budgetMs: 60_000, deadline: Date.now() + 60_000 } });
  assert.equal(ok.stopped, undefined);
  assert.ok(
    ok.warnings.some((w) => /Assertion violation happens here/.test(w.message)),
    JSON.stringify(ok.warnings.map((w) => w.message)),
  );
});

test('parses BMC and CHC message formats', () => {
  const bmc = parseSmtWarning({
    message: 'BMC: Overflow (resulting value larger than 255) happens here.',
    secondary: ['Counterexample:\n  <result> = 256\n  a = 1\n  x = 255\n', 'Callstack:'],
  });
  assert.equal(bmc!.kind.key, 'overflow');
  assert.equal(bmc!.engine, 'BMC');
  assert.deepEqual(bmc!.counterexample, { '<result>': '256', a: '1', x: '255' });
  const chc = parseSmtWarning({
    message:
      'CHC: Assertion violation happens here.\nCounterexample:\nx = 0, arr = [1, 2]\na = 42\n\nTransaction trace:\nA.constructor()\nState: x = 0\nA.g(42)',
  });
  assert.equal(chc!.kind.key, 'assert');
  assert.deepEqual(chc!.counterexample, { x: '0', arr: '[1, 2]', a: '42' });
  assert.deepEqual(chc!.trace, ['A.constructor()', 'State: x = 0', 'A.g(42)']);
  const maybe = parseSmtWarning({ message: 'CHC: Assertion violation might happen here.' });
  assert.equal(maybe!.proven, false);
  assert.equal(parseSmtWarning({ message: 'Function state mutability can be restricted to pure' }), null);
});

test('0.8: checked arithmetic that can only revert is a note in the run, not a finding', async () => {
  // The unchecked block makes the file's overflow targets worth asking for; `counter += a` is
  // checked and can only revert.
  const src = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Bank {
    mapping(address => uint256) public balances;
    uint256 public counter;
    function deposit() public payable {
        balances[msg.sender] += msg.value;
    }
    function bump(uint256 a) public {
        counter += a;
    }
    function tick(uint8 x) public pure returns (uint8) {
        unchecked { return x | 1; }
    }
}
`;
  const r = await run(src, 'full');
  assert.equal(r.status, 'success', r.error ?? '');
  assert.deepEqual(
    r.findings.map((f) => [f.detector, f.location.line]),
    [],
  );
  // The solver's counterexample for `counter += a` is kept as a note: nothing is silently dropped.
  assert.ok(
    ((r.meta as any).notes as string[]).some((n) => /only revert/.test(n) && /lines (\d+, )*10\b/.test(n)),
    JSON.stringify((r.meta as any).notes),
  );
});

test('targets: only what the code can violate (no unchecked block: no overflow targets, in every mode)', async () => {
  assert.deepEqual(targetsFor('contract C { function f(uint a) public { x += a; } }'), []);
  assert.deepEqual(targetsFor('contract C { uint[] a; function f(uint i) public { assert(a[i] / i > 0); } }'), [
    'assert',
    'divByZero',
    'outOfBounds',
  ]);
  assert.deepEqual(targetsFor('contract C { function f() public { unchecked { x -= 1; } payable(msg.sender).transfer(1); } }'), [
    'overflow',
    'underflow',
    'balance',
  ]);
  const plain = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Plain {
    uint256 public counter;
    function bump(uint256 a) public {
        counter += a;
        assert(counter != 7);
    }
}
`;
  for (const mode of ['quick', 'full'] as const) {
    const r = await run(plain, mode);
    assert.equal(r.status, 'success', r.error ?? '');
    assert.deepEqual((r.meta as any).targets, ['assert']);
    // the assertion is still checked
    assert.ok(
      r.findings.some((f) => f.detector === 'smtchecker-assert' && f.location.line === 7),
      JSON.stringify(r.findings),
    );
    assert.ok(((r.meta as any).notes as string[]).some((n) => /overflow and underflow were not asked for/.test(n)));
  }
  const wrapping = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Wrap {
    function down(uint256 a, uint256 b) public pure returns (uint256) {
        unchecked {
            return a - b;
        }
    }
}
`;
  // A wrap-around can only be inside `unchecked`: there the targets stay asked for.
  const r2 = await run(wrapping, 'full');
  assert.equal(r2.status, 'success', r2.error ?? '');
  assert.deepEqual((r2.meta as any).targets, ['overflow', 'underflow']);
});

/** Two contracts, one assertion each (lines 5 and 10): a model-checking job per contract. */
const TWO_UNITS = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract A {
    function f(uint256 a) public pure {
        assert(a != 3);
    }
}
contract B {
    function g(uint256 b) public pure {
        assert(b != 4);
    }
}
`;

test("full mode: the budget is the file's; jobs it cannot buy are listed and the answers of the others kept", async () => {
  const src = TWO_UNITS;
  // 1 s buys one job of at least 1 s: A is checked, B is listed (not run), and the run is a
  // success (its own budget is part of the plan; only the request's deadline makes a timeout).
  const t = createSmtCheckerTool({ pool: null, fullBudgetMs: 1000 });
  const r = await t.run(
    { source: src, file: 'T.sol', sha256: '' },
    { signal: new AbortController().signal, deadline: Date.now() + 90_000, mode: 'full' },
  );
  assert.equal(r.status, 'success', r.error ?? '');
  assert.deepEqual((r.meta as any).contracts_checked, ['A']);
  assert.deepEqual((r.meta as any).not_checked, ['B']);
  assert.match((r.meta as any).budget_exhausted, /1000 ms full-mode budget ended before B/);
  assert.ok(r.findings.some((f) => f.detector === 'smtchecker-assert' && f.location.line === 5));
  assert.ok(!r.findings.some((f) => f.location.line === 10));
  // With the default budget both are answered.
  const all = await run(src, 'full');
  assert.deepEqual((all.meta as any).contracts_checked, ['A', 'B']);
  assert.ok(all.findings.some((f) => f.detector === 'smtchecker-assert' && f.location.line === 10));
});

test("full mode: the request's shared analysis budget, once spent, leaves the jobs listed as not checked (a partial answer, not a timeout)", async () => {
  // The request has a minute and a half; the budget it shares with the other layers is gone.
  const r = await tool.run(
    { source: TWO_UNITS, file: 'T.sol', sha256: '' },
    { signal: new AbortController().signal, deadline: Date.now() + 90_000, budgetDeadline: Date.now() - 1, mode: 'full' },
  );
  assert.equal(r.status, 'success', r.error ?? '');
  assert.deepEqual((r.meta as any).not_checked, ['A', 'B']);
  assert.deepEqual((r.meta as any).contracts_checked, []);
  assert.match((r.meta as any).budget_exhausted, /the request's analysis budget ended before A, B were answered/);
  // Quick mode has no shared budget: the same call there checks them.
  const quick = await tool.run(
    { source: TWO_UNITS, file: 'T.sol', sha256: '' },
    { signal: new AbortController().signal, deadline: Date.now() + 90_000, budgetDeadline: Date.now() - 1, mode: 'quick' },
  );
  assert.ok(quick.findings.some((f) => f.detector === 'smtchecker-assert' && f.location.line === 5));
});

test('full mode: its reserved slice of the shared budget, once spent, still answers the main contract first and lists the rest', async () => {
  // The engine's slice has ended, the shared budget has a minute left: the first job runs (its
  // guaranteed minimum) — the main contract, B — and A is listed as not checked.
  const r = await tool.run(
    { source: TWO_UNITS, file: 'T.sol', sha256: '', contract: 'B' },
    {
      signal: new AbortController().signal,
      deadline: Date.now() + 90_000,
      budgetDeadline: Date.now() + 60_000,
      sliceDeadline: Date.now() - 1,
      mode: 'full',
    },
  );
  assert.equal(r.status, 'success', r.error ?? '');
  assert.deepEqual((r.meta as any).contracts_checked, ['B']);
  assert.deepEqual((r.meta as any).not_checked, ['A']);
  assert.match(
    (r.meta as any).budget_exhausted,
    /^1 of 2 model-checking job\(s\) answered: its \d+ ms share of the request's analysis budget/,
  );
  assert.match((r.meta as any).budget_exhausted, /ended before A was answered; the answers of B are reported/);
  assert.ok(r.findings.some((f) => f.detector === 'smtchecker-assert' && f.location.line === 10));
  // A slice with room for both: both answered, no partial answer.
  const whole = await tool.run(
    { source: TWO_UNITS, file: 'T.sol', sha256: '' },
    {
      signal: new AbortController().signal,
      deadline: Date.now() + 90_000,
      budgetDeadline: Date.now() + 60_000,
      sliceDeadline: Date.now() + 50_000,
      mode: 'full',
    },
  );
  assert.deepEqual((whole.meta as any).contracts_checked, ['A', 'B']);
  assert.equal((whole.meta as any).budget_exhausted, undefined);
});

test('a 0.8 pin that is not installed: the SMTChecker runs on the release the engine compiled with (no "requires different compiler version" error)', async () => {
  const { createAnalysisEngine } = await import('../../plugins/analysis-engine/engine.ts');
  const prev = process.env.VIGIL_SOLC_AUTO_INSTALL;
  process.env.VIGIL_SOLC_AUTO_INSTALL = '0';
  try {
    const engine = createAnalysisEngine({ registry: { tools: () => [tool] }, pool: null, fullBudgetMs: 120_000 });
    const source =
      '// SPDX-License-Identifier: MIT\npragma solidity 0.8.24;\ncontract Pinned {\n  function f(uint a) public pure {\n    assert(a != 7);\n  }\n}\n';
    const r = await engine.analyze({ source, file: 'Pinned.sol' }, { mode: 'full', timeoutMs: 120_000 });
    const smt = r.results.find((x) => x.tool === 'smtchecker')!;
    assert.equal(smt.status, 'success', smt.error ?? '');
    assert.ok(smt.findings.some((f) => f.detector === 'smtchecker-assert' && f.location.line === 5));
  } finally {
    if (prev === undefined) delete process.env.VIGIL_SOLC_AUTO_INSTALL;
    else process.env.VIGIL_SOLC_AUTO_INSTALL = prev;
  }
});
