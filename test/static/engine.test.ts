// Facts, the single merged traversal, failure isolation, parse recovery and size limits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Value } from '@sinclair/typebox/value';
import { Finding } from '../../schemas/finding.ts';
import { analyzeSource, computeFacts, parseSolidity, type StaticDetector } from '../../lib/analysis/static/index.ts';
import { reentrancyDetector } from '../../plugins/detector-reentrancy/index.ts';
import { uncheckedCallDetector } from '../../plugins/detector-unchecked-call/index.ts';

const BANK = `pragma solidity ^0.4.24;
contract Owned {
    address owner;
    modifier onlyOwner() { require(msg.sender == owner); _; }
    function setOwner(address o) public onlyOwner { owner = o; }
}
contract Bank is Owned {
    mapping(address => uint) balances;
    function withdraw() public {
        uint amount = balances[msg.sender];
        require(msg.sender.call.value(amount)());
        balances[msg.sender] = 0;
    }
    function safe() public {
        uint amount = balances[msg.sender];
        balances[msg.sender] = 0;
        msg.sender.transfer(amount);
    }
    function sweep() public onlyOwner { owner.transfer(this.balance); }
}
`;

function facts(src: string) {
  return computeFacts(parseSolidity(src).ast, src, 'x.sol');
}

test('facts: inheritance resolves base state, functions and modifiers', () => {
  const f = facts(BANK);
  const bank = f.contractByName.get('Bank')!;
  assert.deepEqual(bank.linearization, ['Bank', 'Owned']);
  assert.ok(bank.stateVars.has('owner'), 'inherited state variable visible');
  assert.ok(bank.functions.some((x) => x.name === 'setOwner' && x.contract === 'Owned'));
  assert.ok(bank.modifiers.has('onlyOwner'));
  assert.ok(bank.authVars.has('owner'));
  const sweep = bank.ownFunctions.find((x) => x.name === 'sweep')!;
  assert.equal(sweep.senderGuard, true, 'guard through an inherited modifier');
  assert.equal(bank.ownFunctions.find((x) => x.name === 'withdraw')!.senderGuard, false);
});

test('facts: state written after an external call, not before', () => {
  const f = facts(BANK);
  const bank = f.contractByName.get('Bank')!;
  const w = bank.ownFunctions.find((x) => x.name === 'withdraw')!;
  assert.equal(w.externalCalls.length, 1);
  assert.equal(w.externalCalls[0].kind, 'call');
  assert.equal(w.externalCalls[0].checked, true);
  assert.equal(w.reentrancy.length, 1);
  assert.deepEqual(
    w.reentrancy[0].writes.map((x) => [x.variable, x.line]),
    [['balances', 12]],
  );
  const s = bank.ownFunctions.find((x) => x.name === 'safe')!;
  assert.equal(s.reentrancy.length, 0);
});

test('facts: version, storage pointers, writes through internal calls', () => {
  const src = `pragma solidity 0.8.19;
contract C {
  struct H { uint b; }
  mapping(address => H) acc;
  uint total;
  function f() public { H storage h = acc[msg.sender]; h.b = 1; g(); }
  function g() internal { total += 1; }
}`;
  const x = facts(src);
  assert.equal(x.version.checkedArithmetic, true);
  assert.equal(x.version.floating, false);
  const fn = x.contractByName.get('C')!.ownFunctions.find((y) => y.name === 'f')!;
  assert.equal(fn.aliases.get('h'), 'acc');
  assert.ok(fn.writes.some((w) => w.variable === 'acc'));
  assert.ok(fn.transitiveWrites.has('total'));
  assert.equal(facts('pragma solidity ^0.4.24; contract D {}').version.checkedArithmetic, false);
});

test('one traversal: every detector sees each node once, in the same order', async () => {
  const seen: Record<string, string[]> = { a: [], b: [] };
  const mk = (id: string): StaticDetector => ({
    meta: { id, title: id, severity: 'INFO', confidence: 0.5, category: 'other', description: 'd', recommendation: 'r' },
    create: () => ({
      FunctionCall: (n: any) => void seen[id].push(`${n.range[0]}-${n.range[1]}`),
      'FunctionDefinition:exit': (n: any) => void seen[id].push(`exit:${n.name}`),
    }),
  });
  const r = await analyzeSource(BANK, 'Bank.sol', [mk('a'), mk('b')]);
  assert.ok(seen.a.length > 3);
  assert.deepEqual(seen.a, seen.b);
  assert.equal(new Set(seen.a).size, seen.a.length, 'no node visited twice');
  assert.ok(seen.a.indexOf('exit:withdraw') > seen.a.findIndex((k) => k.startsWith(`${BANK.indexOf('require(msg.sender.call')}-`)));
  assert.equal(r.stats.detectors, 2);
});

test('a throwing detector becomes a diagnostic and the others still report', async () => {
  const boom: StaticDetector = {
    meta: { id: 'boom', title: 'boom', severity: 'INFO', confidence: 0.5, category: 'other', description: 'd', recommendation: 'r' },
    create: () => ({
      FunctionCall() {
        throw new Error('kaput');
      },
    }),
  };
  const r = await analyzeSource(BANK, 'Bank.sol', [boom, reentrancyDetector, uncheckedCallDetector]);
  const d = r.diagnostics.filter((x) => x.kind === 'detector_error');
  assert.equal(d.length, 1);
  assert.equal(d[0].detector, 'boom');
  assert.match(d[0].message, /kaput/);
  assert.ok(r.findings.some((f) => f.detector === 'reentrancy' && f.location.line === 11));
  for (const f of r.findings) assert.ok(Value.Check(Finding, f), JSON.stringify([...Value.Errors(Finding, f)]));
});

test('parse errors: clear diagnostic, the rest of the file is still analysed', async () => {
  const broken = BANK.replace('function safe() public {', 'function safe() public { uint x = ;');
  const r = await analyzeSource(broken, 'Bank.sol', [reentrancyDetector]);
  const p = r.diagnostics.find((d) => d.kind === 'parse_error');
  assert.ok(p, 'parse error reported');
  assert.match(p.message, /^syntax error/);
  assert.equal(r.stats.partial, true);
  assert.ok(
    r.findings.some((f) => f.detector === 'reentrancy' && f.location.line === 11),
    'findings outside the broken member survive with exact lines',
  );
  const garbage = await analyzeSource('this is not solidity {{{', 'g.sol', [reentrancyDetector]);
  assert.ok(garbage.diagnostics.some((d) => d.kind === 'parse_error'));
  assert.deepEqual(garbage.findings, []);
});

test('empty source and non-string input', async () => {
  const r = await analyzeSource('', 'empty.sol', [reentrancyDetector]);
  assert.deepEqual(r.findings, []);
  assert.deepEqual(r.diagnostics, []);
  await assert.rejects(() => analyzeSource(undefined as any, 'x.sol', []), /source must be a string/);
});

test('dedup: one finding per (category, line), the other detector named in evidence', async () => {
  const twin = (id: string, severity: 'HIGH' | 'LOW'): StaticDetector => ({
    meta: { id, title: id, severity, confidence: 0.5, category: 'reentrancy', description: 'd', recommendation: 'r' },
    create: (ctx) => ({ FunctionCall: (n: any) => ctx.report({ node: n }) }),
  });
  const src = 'contract A { function f(address a) public { a.transfer(1); } }';
  const r = await analyzeSource(src, 'a.sol', [twin('lo', 'LOW'), twin('hi', 'HIGH')]);
  assert.equal(r.findings.length, 1);
  assert.equal(r.findings[0].detector, 'hi');
  assert.deepEqual((r.findings[0].evidence as any).also_reported_by, ['lo']);
});

// A flattened 1 MB file is typically more than half NatSpec and license comments; the parser
// (ANTLR) costs time per token, so this keeps the suite fast while still pushing 1 MB through
// parse recovery, facts and the traversal. A code-only 1 MB file also completes (linear time),
// it just takes minutes on a loaded 2-core machine.
test('a 1 MB source completes', { timeout: 600_000 }, async () => {
  const doc = `/**\n${' * @notice Keeps balances per account and pays them out on request; see the audit notes.\n'.repeat(40)} */\n`;
  const unit = `${doc}contract C{{i}} {\n    mapping(address => uint) b;\n    function w() public {\n        require(msg.sender.call.value(b[msg.sender])());\n        b[msg.sender] = 0;\n    }\n}\n`;
  let src = 'pragma solidity ^0.4.24;\n';
  let i = 0;
  while (src.length < 1024 * 1024) src += unit.replace('{{i}}', String(i++));
  const r = await analyzeSource(src, 'big.sol', [reentrancyDetector]);
  assert.equal(r.diagnostics.length, 0);
  assert.equal(r.findings.filter((f) => f.detector === 'reentrancy').length, i);
  assert.equal(r.findings.at(-1)!.location.line, src.split('\n').length - 4);
});
