// Layer 6: the split is by contract and reproducible, features ignore names and comments, and
// the shipped model flags a classic reentrancy at the function's signature line while leaving
// a checks-effects-interactions version alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { splitByContract } from '../../plugins/tool-ml/model/model.ts';
import { loadContracts } from '../../plugins/tool-ml/model/dataset.ts';
import { extractFunctionSamples } from '../../plugins/tool-ml/model/features.ts';
import { createMlTool } from '../../plugins/tool-ml/tool.ts';
import { loadModel } from '../../plugins/tool-ml/worker.ts';

test('train/test split: by contract, fixed seed, reproducible; the shipped model records it', () => {
  const keys = loadContracts().map((c) => c.key);
  const a = splitByContract(keys, 1337);
  const b = splitByContract([...keys].reverse(), 1337);
  assert.deepEqual(a, b, 'input order does not matter');
  assert.notDeepEqual(splitByContract(keys, 7).test, a.test, 'another seed, another split');
  assert.equal(a.test.filter((k) => a.train.includes(k)).length, 0);
  assert.equal(a.test.length + a.train.length, new Set(keys).size);
  assert.ok(Math.abs(a.test.length / keys.length - 0.25) < 0.02);
  const m = loadModel();
  assert.equal(m.trained.seed, 1337);
  assert.ok(m.trained.test_contracts.length > 40);
  assert.ok(m.trained.data.some((d) => d.license === 'MIT') && m.trained.data.some((d) => d.license === 'Apache-2.0'));
});

const VULN = `pragma solidity ^0.4.24;
contract Bank {
    mapping(address => uint) balances;
    function deposit() public payable {
        balances[msg.sender] += msg.value;
    }
    function withdraw() public {
        uint amount = balances[msg.sender];
        require(msg.sender.call.value(amount)());
        balances[msg.sender] = 0;
    }
}
`;

test('features are about code: renaming and comments change nothing', () => {
  const renamed = VULN.replace(/Bank/g, 'Vault')
    .replace(/balances/g, 'credit')
    .replace(/withdraw/g, 'takeOut')
    .replace(/amount/g, 'x')
    .replace('contract Vault {', 'contract Vault { // reentrancy here!');
  const a = extractFunctionSamples(VULN, 'A.sol').map((s) => s.features);
  const b = extractFunctionSamples(renamed, 'B.sol').map((s) => s.features);
  assert.deepEqual(a, b);
});

test('the shipped model: reentrancy flagged at the signature line with capped confidence; the safe version is not', async () => {
  const tool = createMlTool({ pool: null });
  assert.equal((await tool.availability()).available, true);
  const opts = { signal: new AbortController().signal, deadline: Date.now() + 120_000, mode: 'full' as const };
  const r = await tool.run({ source: VULN, file: 'Bank.sol', sha256: '' }, opts);
  const f = r.findings.find((x) => x.location.function === 'withdraw');
  assert.ok(f, `withdraw flagged; predictions ${JSON.stringify((r.meta as any).predictions)}`);
  assert.equal(f.category, 'reentrancy');
  assert.equal(f.location.line, 7);
  assert.ok(f.confidence <= 0.6);
  assert.deepEqual(f.layers, [6]);
  assert.equal((f.evidence as any).kind, 'prediction');
  const safe = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Bank {
    mapping(address => uint256) balances;
    function deposit() external payable {
        balances[msg.sender] += msg.value;
    }
    function withdraw() external {
        uint256 amount = balances[msg.sender];
        balances[msg.sender] = 0;
        (bool ok, ) = msg.sender.call{value: amount}("");
        require(ok);
    }
}
`;
  const s = await tool.run({ source: safe, file: 'Bank.sol', sha256: '' }, opts);
  assert.deepEqual(
    s.findings.map((x) => `${x.location.function}:${x.category}`),
    [],
  );
});

test('full mode compiles once: the ML task takes the engine compile, with the same predictions as its own', async () => {
  const { createAnalysisEngine } = await import('../../plugins/analysis-engine/engine.ts');
  const { compileMemoStats } = await import('../../lib/analysis/compiler/index.ts');
  // A source of its own (no memo answers it) and no pool: every compile runs in this thread.
  const source = VULN.replace('contract Bank', 'contract BankOnce');
  const tool = createMlTool({ pool: null });
  const engine = createAnalysisEngine({ registry: { tools: () => [tool] }, pool: null, fullBudgetMs: 120_000 });
  const before = compileMemoStats();
  const r = await engine.analyze({ source, file: 'Bank.sol' }, { mode: 'full', timeoutMs: 120_000 });
  const after = compileMemoStats();
  assert.equal(r.results[0].status, 'success', r.results[0].error ?? '');
  // The engine's compile is the only one: a second compile of the same source would be a memo hit.
  assert.equal(after.misses - before.misses, 1);
  assert.equal(after.hits - before.hits, 0);
  // The tool alone compiles for itself (a memo hit now) and predicts the same.
  const alone = await tool.run(
    { source, file: 'Bank.sol', sha256: '' },
    { signal: new AbortController().signal, deadline: Date.now() + 120_000, mode: 'full' },
  );
  assert.equal((alone.meta as any).opcode_features, true);
  const key = (fs: Array<{ location: { function?: string | null; line: number }; category: string }>) =>
    fs.map((f) => `${f.location.function}:${f.location.line}:${f.category}`).sort();
  assert.deepEqual(key(r.results[0].findings), key(alone.findings));
  assert.ok(alone.findings.some((f) => f.location.function === 'withdraw'));
});
