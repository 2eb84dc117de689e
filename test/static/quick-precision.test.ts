// Quick mode reports vulnerability claims; hygiene stays in full mode. Covers the rules that
// decide it: the floating-pragma range rule, solhint's quick rule set, and the send/transfer
// reentrancy exclusion.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spansBreakingSeries } from '../../plugins/detector-floating-pragma/index.ts';
import { createSolhintTool, SOLHINT_CONFIG, SOLHINT_QUICK_CONFIG, SOLHINT_RULES } from '../../plugins/tool-solhint/solhint.ts';
import { analyzeSource } from '../../lib/analysis/static/index.ts';
import { reentrancyDetector } from '../../plugins/detector-reentrancy/index.ts';

test('floating pragma: only ranges that cross a breaking release series', () => {
  for (const r of ['^0.4.24', '~0.8.0', '0.4.25', '=0.5.1', '>=0.8.4 <0.9.0', '0.4.x']) assert.equal(spansBreakingSeries(r), null, r);
  assert.deepEqual(spansBreakingSeries('>=0.4.22 <0.6.0'), { from: '0.4.22', into: '0.5.0' });
  assert.deepEqual(spansBreakingSeries('>=0.5.0'), { from: '0.5.0', into: '0.6.0' });
  assert.ok(spansBreakingSeries('*'));
  assert.ok(spansBreakingSeries('^0.4.0 || ^0.5.0'));
  assert.equal(spansBreakingSeries('not a range'), null);
});

const HYGIENE = `pragma solidity ^0.4.24;
contract H {
    uint counter;
    address owner;
    function bump() {
        counter = now;
        require(owner.call());
    }
    function pay(address a) public {
        require(tx.origin == owner);
        a.send(1);
    }
}
`;

test('solhint: quick mode runs the security rules only, full mode adds hygiene', async () => {
  assert.ok(Object.keys(SOLHINT_QUICK_CONFIG).length < Object.keys(SOLHINT_CONFIG).length);
  for (const id of Object.keys(SOLHINT_QUICK_CONFIG)) assert.ok(SOLHINT_RULES[id], id);
  for (const id of ['func-visibility', 'state-visibility', 'avoid-low-level-calls', 'not-rely-on-time', 'reentrancy', 'multiple-sends'])
    assert.ok(!(id in SOLHINT_QUICK_CONFIG), id);
  const tool = createSolhintTool({ pool: null });
  const run = (mode: 'quick' | 'full') =>
    tool.run({ source: HYGIENE, file: 'H.sol', sha256: '' }, { signal: new AbortController().signal, deadline: Date.now() + 30_000, mode });
  const quick = (await run('quick')).findings.map((f) => f.detector);
  const full = (await run('full')).findings.map((f) => f.detector);
  assert.ok(quick.includes('solhint-avoid-tx-origin'), quick.join(','));
  assert.ok(quick.includes('solhint-check-send-result'), quick.join(','));
  assert.ok(!quick.some((d) => /visibility|low-level|rely-on-time/.test(d ?? '')), quick.join(','));
  for (const d of ['solhint-func-visibility', 'solhint-state-visibility', 'solhint-not-rely-on-time', 'solhint-avoid-tx-origin'])
    assert.ok(full.includes(d), `${d} missing in full: ${full.join(',')}`);
});

test('reentrancy: send/transfer before a state write is not reported, call.value is', async () => {
  const src = `pragma solidity ^0.4.24;
contract B {
    mapping(address => uint) balances;
    function viaTransfer() public {
        uint amount = balances[msg.sender];
        msg.sender.transfer(amount);
        balances[msg.sender] = 0;
    }
    function viaCall() public {
        uint amount = balances[msg.sender];
        require(msg.sender.call.value(amount)());
        balances[msg.sender] = 0;
    }
}
`;
  const { findings } = await analyzeSource(src, 'B.sol', [{ detector: reentrancyDetector }]);
  assert.deepEqual(
    findings.filter((f) => f.detector === 'reentrancy').map((f) => f.location.line),
    [11],
  );
});
