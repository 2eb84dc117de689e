// Layer 3: the symbolic EVM proves reachable sinks with concrete, ABI-decoded transactions and
// refutes the ones an owner check guards; bad input ends as skipped/timeout within the deadline.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSymbolicTool, DEFAULT_SYMBOLIC_BUDGET_MS } from '../../plugins/tool-evm/symbolic/tool.ts';
import { CREATOR, ATTACKER } from '../../plugins/tool-evm/symbolic/evm.ts';
import { TinyWorkerPool } from '../../kernel/pool.ts';
import { evmDivision } from '../../plugins/tool-evm/symbolic/solver.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = (n: string) => fs.readFileSync(path.join(here, 'fixtures', n), 'utf8');
// Generous budgets: these tests pin what is proved, not how fast (the budget test is below).
const tool = createSymbolicTool({ pool: null, budgetMs: 120_000 });
const run = (source: string, ms = 120_000) =>
  tool.run({ source, file: 'C.sol', sha256: '' }, { signal: new AbortController().signal, deadline: Date.now() + ms, mode: 'full' });
const creator = '0x' + CREATOR.toString(16).padStart(40, '0');
const attacker = '0x' + ATTACKER.toString(16).padStart(40, '0');

test('unprotected selfdestruct: proven with concrete calldata from the attacker, replayed, on the right line', async () => {
  const r = await run(fixture('selfdestruct-open.sol'));
  assert.equal(r.status, 'success', r.error ?? '');
  const f = r.findings.find((x) => x.detector === 'symbolic-selfdestruct');
  assert.ok(f, 'selfdestruct finding');
  assert.equal(f.location.line, 17);
  assert.equal(f.location.function, 'close');
  assert.equal(f.severity, 'CRITICAL');
  assert.deepEqual(f.layers, [3]);
  assert.deepEqual(f.tools, ['vigil-symbolic']);
  assert.equal(f.confidence, 1);
  const ev = f.evidence as any;
  assert.equal(ev.kind, 'transaction_sequence');
  assert.equal(ev.property, 'selfdestruct');
  const tx = ev.sequence.at(-1);
  assert.equal(tx.function, 'close(address)');
  assert.match(tx.data, /^0xc74073a1/);
  assert.equal(tx.from, attacker);
  assert.notEqual(tx.from, creator, 'the attacker is not the deployer');
  assert.equal(ev.counterexample.transactions.at(-1).function, 'close', 'the decoded model travels with the proof');
});

test('selfdestruct guarded by require(msg.sender == owner): refuted, no finding', async () => {
  const r = await run(fixture('selfdestruct-guarded.sol'));
  assert.equal(r.status, 'success', r.error ?? '');
  assert.equal(r.findings.filter((x) => x.detector === 'symbolic-selfdestruct').length, 0);
  const sinks = (r.meta as any).sinks as Array<{ kind: string; line: number; status: string }>;
  assert.deepEqual(
    sinks.find((s) => s.kind === 'selfdestruct'),
    {
      kind: 'selfdestruct',
      contract: 'Wallet',
      line: 18,
      status: 'refuted',
      why: 'no path from an arbitrary caller reaches it within 2 transaction(s)',
    },
  );
});

test('assert, delegatecall to a chosen target and ether drain are proven; bookkept withdraw and owner-only kill are not', async () => {
  // One attacker transaction is enough for these properties (and keeps the suite fast).
  const oneTx = createSymbolicTool({ pool: null, maxTransactions: 1, budgetMs: 240_000 });
  const r = await oneTx.run(
    { source: fixture('symbolic-mixed.sol'), file: 'C.sol', sha256: '' },
    { signal: new AbortController().signal, deadline: Date.now() + 240_000, mode: 'full' },
  );
  const by = (d: string) => r.findings.filter((x) => x.detector === d).map((x) => `${x.location.function}@${x.location.line}`);
  assert.deepEqual(by('symbolic-assert'), ['check@32']);
  const a = r.findings.find((x) => x.detector === 'symbolic-assert')!;
  assert.deepEqual((a.evidence as any).sequence.at(-1).args, ['7']);
  assert.deepEqual(by('symbolic-delegatecall'), ['forward@27']);
  const d = r.findings.find((x) => x.detector === 'symbolic-delegatecall')!;
  assert.equal((d.evidence as any).to, '0xdeadbeefdeadbeefdeadbeefdeadbeefdeadbeef');
  assert.equal((d.evidence as any).confirmed_on_evm, true, 'ran on the EVM, though no replayable property covers it');
  assert.ok(d.confidence < 1);
  assert.deepEqual(by('symbolic-ether'), ['drain@23'], 'withdraw() only returns what was deposited');
  assert.deepEqual(by('symbolic-selfdestruct'), [], 'kill() is owner-only');
});

test('pre-0.8 overflow stored to storage needs two transactions; a checked addition is not reported', async () => {
  const r = await run(fixture('overflow-04.sol'));
  const o = r.findings.filter((x) => x.detector === 'symbolic-overflow');
  assert.deepEqual(
    o.map((x) => `${x.location.function}@${x.location.line}`),
    ['add@8'],
  );
  const txs = (o[0].evidence as any).sequence;
  assert.equal(txs.length, 2);
  assert.deepEqual(
    txs.map((t: any) => t.function),
    ['add(uint256)', 'add(uint256)'],
  );
  assert.ok(BigInt(txs[0].args[0]) + BigInt(txs[1].args[0]) >= 1n << 256n, 'the two amounts really wrap');
});

test('bad input: a contract that does not compile is skipped with the reason', async () => {
  const r = await run('pragma solidity ^0.8.0;\ncontract Broken { function f( public {} }\n');
  assert.equal(r.status, 'skipped');
  assert.match(r.error ?? '', /needs a compiling contract/);
});

test('an endless loop and a gas-exhausting loop end within bounds; a pool deadline is respected', async () => {
  const src = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Loops {
    uint256[] items;
    function spin() external pure { while (true) {} }
    function burn(uint256 n) external { for (uint256 i = 0; i < n; i++) items.push(i); }
}
`;
  const t0 = Date.now();
  const r = await run(src, 60_000);
  assert.ok(Date.now() - t0 < 60_000);
  assert.ok(r.status === 'success' || r.status === 'timeout', r.error ?? '');
  assert.ok(
    ((r.meta as any).contracts[0].notes as string[]).some((n) => /budget|bound/.test(n)),
    'the bound that cut the loop is reported',
  );

  const pool = new TinyWorkerPool({ maxThreads: 1 });
  try {
    const pooled = createSymbolicTool({ pool });
    const started = Date.now();
    const out = await pooled
      .run(
        { source: fixture('symbolic-mixed.sol'), file: 'C.sol', sha256: '' },
        { signal: new AbortController().signal, deadline: Date.now() + 4000, mode: 'full' },
      )
      .catch((e: Error & { code?: string }) => ({ status: e.code, findings: [] }));
    // It answers at the deadline instead of running on (how soon after it is a timing, which a
    // loaded machine stretches: tests assert none).
    assert.ok(Date.now() - started < 30_000, `answered ${Date.now() - started} ms after a 4 s deadline`);
    assert.ok(['success', 'timeout', 'task_timeout'].includes(String(out.status)), String(out.status));
  } finally {
    await pool.close();
  }
});

test('the default budget, not the request deadline, bounds a run (full mode shares the pool)', async () => {
  const src = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Loops {
    uint256[] items;
    uint256 total;
    function burn(uint256 n) external { for (uint256 i = 0; i < n; i++) items.push(i); }
    function add(uint256 a, uint256 b) external { if (a > b) { total += a - b; } else { total += b - a; } }
}
`;
  const bounded = createSymbolicTool({ pool: null });
  const t0 = Date.now();
  const r = await bounded.run(
    { source: src, file: 'C.sol', sha256: '' },
    { signal: new AbortController().signal, deadline: Date.now() + 120_000, mode: 'full' },
  );
  const took = Date.now() - t0;
  assert.ok(
    took < DEFAULT_SYMBOLIC_BUDGET_MS + 1500,
    `took ${took} ms with a ${DEFAULT_SYMBOLIC_BUDGET_MS} ms budget and a 120 s deadline`,
  );
  assert.ok(r.status === 'success' || r.status === 'timeout', r.error ?? '');
});

test("full mode's shared analysis budget: a run that starts with it spent explores briefly, keeps what it proved and says the answer is partial", async () => {
  const r = await tool.run(
    { source: fixture('symbolic-mixed.sol'), file: 'C.sol', sha256: '' },
    // The request still has two minutes; the analysis budget it shares with the other layers is gone.
    { signal: new AbortController().signal, deadline: Date.now() + 120_000, budgetDeadline: Date.now() - 1000, mode: 'full' },
  );
  // Not a timeout (the request's deadline is far) and not a silent partial answer either.
  assert.equal(r.status, 'success', r.error ?? '');
  assert.match(String(r.meta?.budget_exhausted), /the request's analysis budget was spent when the exploration could start/);
  const contracts = r.meta?.contracts as Array<{ complete: boolean }>;
  assert.ok(
    contracts.some((c) => !c.complete),
    'the cut-short exploration is marked incomplete',
  );
  // What it did prove within its minimum is kept, each a replayed proof.
  for (const f of r.findings) assert.ok(['transaction_sequence', 'counterexample'].includes((f.evidence as any)?.kind), f.detector);
  const sinks = r.meta?.sinks as Array<{ status: string }>;
  assert.ok(!sinks.some((x) => x.status === 'refuted'), 'nothing is refuted by an exploration the budget cut short');
});

test('divisions by a value the caller picks: nothing unproven is reported, and a gate the solver could not settle is not "refuted"', async () => {
  // The divisor is calldata, so the solver works on abstract divisions refined toward the EVM's
  // values (a full 256-bit divider is what made single queries run seconds past their limit).
  // A model is only used once its divisions agree with the EVM; a query whose divisions were not
  // settled is unknown, keeps its path, and leaves its sinks unresolved rather than refuted.
  const source = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Split {
    function open(uint256 a, uint256 b) external {
        require(b > 1 && a / b == 7 && a % b == 3);
        selfdestruct(payable(msg.sender));
    }
    function never(uint256 a, uint256 b) external {
        require(b != 0 && a % b >= b);
        selfdestruct(payable(msg.sender));
    }
}
`;
  const r = await run(source);
  assert.equal(r.status, 'success', r.error ?? '');
  const hits = r.findings.filter((x) => x.detector === 'symbolic-selfdestruct');
  assert.ok(!hits.some((f) => f.location.function === 'never'), 'a remainder is never >= its divisor');
  for (const f of hits) {
    const tx = (f.evidence as any).counterexample.transactions.at(-1);
    const a = BigInt(tx.args.a);
    const b = BigInt(tx.args.b);
    assert.ok(b > 1n && a / b === 7n && a % b === 3n, `a proof's inputs satisfy the real gate (a=${a}, b=${b})`);
  }
  const sinks = (r.meta as any).sinks as Array<{ kind: string; line: number; status: string }>;
  const open = sinks.find((s) => s.kind === 'selfdestruct' && s.line === 6);
  assert.ok(open && open.status !== 'refuted', `the reachable selfdestruct is not refuted (${JSON.stringify(open)})`);
});

test('the EVM division semantics the refinement checks models against', () => {
  const W = (1n << 256n) - 1n;
  const neg = (v: bigint) => (1n << 256n) - v;
  assert.equal(evmDivision('div', 7n, 0n), 0n);
  assert.equal(evmDivision('mod', 7n, 0n), 0n);
  assert.equal(evmDivision('div', 23n, 7n), 3n);
  assert.equal(evmDivision('mod', 23n, 7n), 2n);
  assert.equal(evmDivision('sdiv', neg(23n), 7n), neg(3n), '-23 / 7 = -3 (toward zero)');
  assert.equal(evmDivision('smod', neg(23n), 7n), neg(2n), 'the remainder takes the dividend sign');
  assert.equal(evmDivision('smod', 23n, neg(7n)), 2n);
  assert.equal(evmDivision('sdiv', 1n << 255n, W), 1n << 255n, 'MIN / -1 overflows to MIN');
});
