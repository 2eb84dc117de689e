// The fix engine on its own: each strategy rewrites the right construct, emits syntax the
// selected compiler accepts (0.4 vs 0.5+ vs 0.8), and the result compiles with real solc-js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileTask, oneLine } from '../../lib/analysis/compiler/index.ts';
import { classifyFinding, remediate } from '../../plugins/remediation/remediate.ts';
import { compareFindings, decideVerdict } from '../../plugins/remediation/validate.ts';
import type { Finding } from '../../schemas/finding.ts';

const compile = async (source: string) => {
  const r = compileTask({ source, file: 'C.sol', outputs: 'check' });
  return { ok: r.ok, compiler: r.compiler, errors: r.errors.map(oneLine) };
};

let n = 0;
function finding(
  line: number,
  category: Finding['category'],
  title: string,
  swc: string | null,
  fn: string | null,
  contract: string | null = null,
  severity: Finding['severity'] = 'HIGH',
): Finding {
  return {
    id: `f${++n}`,
    title,
    description: title,
    severity,
    confidence: 0.9,
    category,
    swc_id: swc,
    location: { file: 'C.sol', line, end_line: line, contract, function: fn },
    tools: ['test'],
    layers: [1],
    recommendation: 'fix',
  };
}

function lineOf(src: string, needle: string): number {
  const i = src.indexOf(needle);
  assert.ok(i >= 0, `fixture lacks ${needle}`);
  return src.slice(0, i).split('\n').length;
}

const BANK_04 = `pragma solidity ^0.4.24;

contract Bank {
    mapping(address => uint256) public balances;
    address public owner;

    constructor() public { owner = msg.sender; }

    function deposit() public payable {
        balances[msg.sender] += msg.value;
    }

    function withdraw(uint256 amount) public {
        require(balances[msg.sender] >= amount);
        msg.sender.call.value(amount)();
        balances[msg.sender] -= amount;
    }

    function withdrawAll() public {
        if (msg.sender.call.value(balances[msg.sender])()) {
            balances[msg.sender] = 0;
        }
    }

    function sweep(address to) public {
        require(tx.origin == owner);
        to.transfer(address(this).balance);
    }

    function kill() public {
        selfdestruct(owner);
    }
}
`;

test('0.4: CEI reordering, require-wrapped call, tx.origin, guard when reordering is unsafe, onlyOwner, overflow checks; compiles', async () => {
  const src = BANK_04;
  const fs = [
    finding(lineOf(src, 'msg.sender.call.value(amount)'), 'reentrancy', 'Reentrancy', 'SWC-107', 'withdraw', 'Bank'),
    finding(lineOf(src, 'msg.sender.call.value(amount)'), 'unchecked_low_level_calls', 'Unchecked call', 'SWC-104', 'withdraw', 'Bank'),
    finding(lineOf(src, 'if (msg.sender.call.value(balances'), 'reentrancy', 'Reentrancy', 'SWC-107', 'withdrawAll', 'Bank'),
    finding(lineOf(src, 'tx.origin'), 'access_control', 'tx.origin used for authorization', 'SWC-115', 'sweep', 'Bank'),
    finding(lineOf(src, 'selfdestruct'), 'access_control', 'Unprotected selfdestruct', 'SWC-106', 'kill', 'Bank'),
    finding(lineOf(src, 'balances[msg.sender] += msg.value'), 'arithmetic', 'Integer overflow', 'SWC-101', 'deposit', 'Bank'),
  ];
  const r = await remediate(src, fs, { file: 'C.sol', compile });
  const out = r.patched_code;
  assert.equal(r.summary.compiles, true, r.summary.text);
  assert.deepEqual(
    r.fixes.map((f) => f.applied),
    [true, true, true, true, true, true],
    JSON.stringify(r.fixes, null, 1),
  );
  // CEI: the balance update now precedes the (now checked) call.
  const w = out.slice(out.indexOf('function withdraw('), out.indexOf('function withdrawAll'));
  assert.ok(w.indexOf('balances[msg.sender] -= amount;') < w.indexOf('msg.sender.call.value(amount)()'), w);
  assert.match(w, /require\(msg\.sender\.call\.value\(amount\)\(\), "call failed"\);/);
  assert.equal(r.fixes[0].strategy, 'checks_effects_interactions');
  // withdrawAll writes inside an if on the call result: not reorderable, so guarded.
  assert.equal(r.fixes[2].strategy, 'nonreentrant_guard');
  assert.match(out, /function withdrawAll\(\) public nonReentrant \{/);
  assert.match(
    out,
    /modifier nonReentrant\(\) \{\s*require\(!reentrancyLock, "reentrant call"\);\s*reentrancyLock = true;\s*_;\s*reentrancyLock = false;\s*\}/,
  );
  assert.match(out, /require\(msg\.sender == owner\);/);
  assert.doesNotMatch(out, /tx\.origin/);
  assert.match(out, /function kill\(\) public onlyOwner \{/);
  assert.match(out, /modifier onlyOwner\(\) \{\s*require\(msg\.sender == owner, "caller is not the owner"\);\s*_;\s*\}/);
  assert.match(
    out,
    /require\(balances\[msg\.sender\] \+ msg\.value >= balances\[msg\.sender\], "addition overflow"\);\s*balances\[msg\.sender\] \+= msg\.value;/,
  );
  // Real fixes, not comments.
  assert.doesNotMatch(out, /\/\/|\/\*/);
  assert.match(r.diff, /^--- C\.sol\toriginal$/m);
  assert.match(r.diff, /^\+\s+require\(msg\.sender == owner\);$/m);
});

test('reordering is refused when the call reads the state the later write changes', async () => {
  const src = `pragma solidity 0.4.26;
contract D {
    mapping(address => uint) credit;
    function withdraw() public {
        require(msg.sender.call.value(credit[msg.sender])());
        credit[msg.sender] = 0;
    }
}
`;
  const r = await remediate(src, [finding(5, 'reentrancy', 'Reentrancy', 'SWC-107', 'withdraw', 'D')], { compile });
  assert.equal(r.fixes[0].applied, true);
  assert.equal(r.fixes[0].strategy, 'nonreentrant_guard');
  assert.match(r.fixes[0].description!, /reads credit/);
  assert.equal(r.summary.compiles, true);
  // The write stayed after the call: moving it would have sent 0.
  assert.ok(r.patched_code.indexOf('credit[msg.sender] = 0') > r.patched_code.indexOf('call.value(credit[msg.sender])'));
});

test('0.5+: unchecked call becomes (bool success, ) = ...; require(success); braces added under a bare if', async () => {
  const src = `pragma solidity ^0.6.0;
contract P {
    function pay(address payable to, uint256 v) external {
        if (v > 0) to.call{value: v}("");
        to.call{value: 1}("");
        to.send(1);
    }
}
`;
  const fs = [4, 5, 6].map((l) => finding(l, 'unchecked_low_level_calls', 'Unchecked call', 'SWC-104', 'pay', 'P'));
  const r = await remediate(src, fs, { compile });
  assert.equal(r.summary.compiles, true, r.summary.text + JSON.stringify(r.fixes));
  assert.ok(
    r.fixes.every((f) => f.applied),
    JSON.stringify(r.fixes),
  );
  assert.match(r.patched_code, /if \(v > 0\) \{ \(bool success, \) = to\.call\{value: v\}\(""\); require\(success, "call failed"\); \}/);
  assert.match(r.patched_code, /\(bool success2, \) = to\.call\{value: 1\}\(""\);\n\s+require\(success2, "call failed"\);/);
  assert.match(r.patched_code, /require\(to\.send\(1\), "send failed"\);/);
});

test('0.8: a flagged unchecked block is removed; checked arithmetic elsewhere is left alone', async () => {
  const src = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract U {
    mapping(address => uint256) b;
    function add(address a, uint256 v) external {
        unchecked { b[a] += v; }
        b[a] += 1;
    }
}
`;
  const r = await remediate(
    src,
    [finding(6, 'arithmetic', 'Overflow', 'SWC-101', 'add', 'U'), finding(7, 'arithmetic', 'Overflow', 'SWC-101', 'add', 'U')],
    { compile },
  );
  assert.equal(r.fixes[0].applied, true);
  assert.equal(r.fixes[0].strategy, 'remove_unchecked');
  assert.equal(r.fixes[1].applied, false);
  assert.match(r.fixes[1].reason_if_not!, /0\.8 checks this arithmetic already/);
  assert.doesNotMatch(r.patched_code, /unchecked/);
  assert.equal(r.summary.compiles, true);
});

test('deprecated constructs, misnamed constructor and floating pragma, version-correct', async () => {
  const src = `pragma solidity ^0.4.24;
contract Owned {
    address owner;
    function owned() public { owner = msg.sender; }
    function h(bytes32 x) public constant returns (bytes32) {
        if (x == 0) throw;
        return sha3(x);
    }
    function k() public { if (msg.sender != owner) throw; suicide(owner); }
}
`;
  const fs = [
    finding(1, 'other', 'Floating pragma', 'SWC-103', null, null, 'INFO'),
    finding(4, 'access_control', 'Incorrect constructor name', 'SWC-118', 'owned', 'Owned'),
    finding(5, 'other', 'Deprecated constant', 'SWC-111', 'h', 'Owned', 'INFO'),
    finding(6, 'other', 'Deprecated throw', 'SWC-111', 'h', 'Owned', 'INFO'),
    finding(7, 'other', 'Deprecated sha3', 'SWC-111', 'h', 'Owned', 'INFO'),
    finding(9, 'other', 'Deprecated suicide', 'SWC-111', 'k', 'Owned', 'INFO'),
  ];
  const r = await remediate(src, fs, { compile });
  assert.ok(
    r.fixes.every((f) => f.applied),
    JSON.stringify(r.fixes, null, 1),
  );
  const out = r.patched_code;
  assert.match(out, /^pragma solidity 0\.4\.26;/);
  assert.match(out, /constructor\(\) public \{ owner = msg\.sender; \}/);
  assert.match(out, /function h\(bytes32 x\) public view returns \(bytes32\)/);
  assert.match(out, /if \(x == 0\) revert\(\);/);
  assert.match(out, /return keccak256\(x\);/);
  assert.match(out, /revert\(\); selfdestruct\(owner\);/);
  assert.equal(r.summary.compiles, true);
});

test('old pragmas get the version-correct form: constructor renamed, no require reason strings', async () => {
  const src = `pragma solidity ^0.4.11;
contract Wallet {
    address owner;
    function wallet() { owner = msg.sender; }
    function pay(address to) { to.send(1); }
}
`;
  const r = await remediate(
    src,
    [
      finding(4, 'access_control', 'Wrong constructor name', 'SWC-118', 'wallet', 'Wallet'),
      finding(5, 'unchecked_low_level_calls', 'Unchecked send', 'SWC-104', 'pay', 'Wallet'),
    ],
    { compile },
  );
  assert.ok(
    r.fixes.every((f) => f.applied),
    JSON.stringify(r.fixes),
  );
  assert.equal(r.fixes[0].strategy, 'constructor_rename');
  assert.match(r.patched_code, /function Wallet\(\) \{/);
  assert.match(r.patched_code, /require\(to\.send\(1\)\);/);
  assert.equal(r.summary.compiles, true);
});

test('findings without a fix and fixes that cannot apply say why; nothing is faked', async () => {
  const src = `pragma solidity 0.4.26;
contract T {
    uint public last;
    function f() public { last = block.timestamp; }
    function g() public { selfdestruct(msg.sender); }
    function h(int a, int b) public returns (int) { return a + b; }
}
`;
  const r = await remediate(
    src,
    [
      finding(4, 'time_manipulation', 'Timestamp dependence', 'SWC-116', 'f', 'T'),
      finding(5, 'access_control', 'Unprotected selfdestruct', 'SWC-106', 'g', 'T'),
      finding(6, 'arithmetic', 'Overflow', 'SWC-101', 'h', 'T'),
    ],
    { compile },
  );
  assert.equal(r.summary.applied, 0);
  assert.equal(r.patched_code, src);
  assert.equal(r.diff, '');
  assert.match(r.fixes[0].reason_if_not!, /no automatic fix exists for time_manipulation/);
  assert.match(r.fixes[1].reason_if_not!, /no owner/);
  assert.match(r.fixes[2].reason_if_not!, /unsigned/);
});

test('a fix that would not compile is dropped with the compiler reason', async () => {
  // A compile check that rejects the guard stands in for a compiler error the engine cannot foresee.
  const src = `pragma solidity 0.4.26;
contract D {
    mapping(address => uint) credit;
    function withdraw() public {
        require(msg.sender.call.value(credit[msg.sender])());
        credit[msg.sender] = 0;
    }
}
`;
  const picky = async (s: string) =>
    s.includes('nonReentrant') ? { ok: false, compiler: '0.4.26', errors: ['C.sol:9: DeclarationError: rejected'] } : compile(s);
  const r = await remediate(src, [finding(5, 'reentrancy', 'Reentrancy', 'SWC-107', 'withdraw', 'D')], { compile: picky });
  assert.equal(r.fixes[0].applied, false);
  assert.match(r.fixes[0].reason_if_not!, /did not compile with solc 0\.4\.26 \(C\.sol:9: DeclarationError: rejected\)/);
  assert.equal(r.patched_code, src);
});

test('classification uses SWC id, detector and category', () => {
  assert.equal(classifyFinding({ category: 'access_control', swc_id: 'SWC-115', title: 'x' }), 'tx-origin');
  assert.equal(classifyFinding({ category: 'access_control', swc_id: null, detector: 'tx-origin', title: 'x' }), 'tx-origin');
  assert.equal(classifyFinding({ category: 'reentrancy', swc_id: null, title: 'x' }), 'reentrancy');
  assert.equal(classifyFinding({ category: 'bad_randomness', swc_id: 'SWC-120', title: 'x' }), null);
});

test('validation matching survives moved lines and new ids; verdicts', () => {
  const a = finding(10, 'reentrancy', 'Reentrancy', 'SWC-107', 'withdraw', 'Bank');
  const b = finding(20, 'arithmetic', 'Overflow', 'SWC-101', 'deposit', 'Bank', 'MEDIUM');
  const bMoved = { ...b, id: 'other-id', location: { ...b.location, line: 25, end_line: 25 } };
  const c = compareFindings([a, b], [bMoved]);
  assert.deepEqual(
    c.fixed.map((f) => f.id),
    [a.id],
  );
  assert.deepEqual(
    c.remaining.map((f) => f.original_id),
    [b.id],
  );
  assert.equal(c.introduced.length, 0);
  assert.equal(decideVerdict(true, c), 'improved');
  assert.equal(decideVerdict(false, c), 'broken');
  assert.equal(decideVerdict(true, compareFindings([b], [bMoved])), 'unchanged');
  assert.equal(decideVerdict(true, compareFindings([b], [bMoved, a])), 'regressed');
});
