// Session 11 precision rules (issue 19): each test puts the weak shape (must be flagged) next to
// the shape the rule now recognises as harmless, so a rule cannot pass by going silent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lineOf, runDetector as run } from './helpers.ts';
import { badRandomnessDetector } from '../../plugins/detector-bad-randomness/index.ts';
import { timestampDependenceDetector } from '../../plugins/detector-timestamp-dependence/index.ts';
import { reentrancyDetector } from '../../plugins/detector-reentrancy/index.ts';
import { unprotectedSelfdestructDetector } from '../../plugins/detector-unprotected-selfdestruct/index.ts';
import { unprotectedOwnerChangeDetector } from '../../plugins/detector-unprotected-owner-change/index.ts';
import { integerOverflowDetector } from '../../plugins/detector-integer-overflow/index.ts';

test('bad-randomness: one finding per draw; a second draw over an already drawn local is the same randomness', async () => {
  const src = `pragma solidity ^0.4.24;
contract Game {
    address winner;
    uint seed;
    function once() public {
        bytes32 hash = keccak256(blockhash(block.number - 1));
        uint256 secret = uint256(hash);
        if (secret % 5 == 0) winner = msg.sender;
    }
    function raw() public {
        uint256 h = uint256(blockhash(block.number - 1));
        if (h % 5 == 0) winner = msg.sender;
    }
    function mixed() public {
        bytes32 hash = keccak256(blockhash(block.number - 1));
        uint256 secret = uint256(hash) + seed;
        if (secret % 5 == 0) winner = msg.sender;
    }
    function setSeed() public { seed = block.timestamp; }
}
`;
  const lines = (await run(src, badRandomnessDetector)).map((f) => f.location.line);
  const once = lineOf(src, 'function once');
  assert.ok(lines.includes(once + 1), `the draw is reported where the block value is read: ${lines.join(', ')}`);
  assert.ok(!lines.includes(once + 3), 'the modulo of the drawn hash is the same draw');
  // blockhash read and cast, then drawn by the modulo: the modulo is the draw (SmartBugs labels it).
  const raw = lineOf(src, 'function raw');
  assert.ok(lines.includes(raw + 1) && lines.includes(raw + 2), 'an undrawn block value drawn later is reported at the draw');
  // A local that also carries another block value (through `seed`) is a new mix: still reported.
  const mixed = lineOf(src, 'function mixed');
  assert.ok(lines.includes(mixed + 3), 'a draw that mixes in other block data is reported');
});

test('timestamp: a stored timeout `now + duration` is a window, a short literal one is not', async () => {
  const src = `pragma solidity ^0.4.24;
contract Channel {
    struct Chan { uint confirmTime; uint timeout; uint quick; uint start; }
    mapping(uint => Chan) chans;
    uint public openTimeout;
    function open(uint id, uint confirmTime) public {
        chans[id].confirmTime = confirmTime;
        openTimeout = now + confirmTime;
        chans[id].quick = now + 30 seconds;
        chans[id].start = now;
    }
    function update(uint id) public {
        Chan storage c = chans[id];
        c.timeout = now + c.confirmTime;
    }
    function close(uint id) public {
        require(now > openTimeout);
        require(chans[id].timeout < now, "not over");
        chans[id].timeout = 0;
    }
    function fast(uint id) public {
        require(chans[id].quick < now);
    }
    function since(uint id) public {
        require(chans[id].start + 10 < now);
    }
}
`;
  const lines = (await run(src, timestampDependenceDetector)).map((f) => f.location.line);
  assert.ok(!lines.includes(lineOf(src, 'require(now > openTimeout)')), `timeout reported: ${lines.join(', ')}`);
  assert.ok(!lines.includes(lineOf(src, 'require(chans[id].timeout < now')), 'a timeout set through a storage pointer and reset to 0');
  assert.ok(lines.includes(lineOf(src, 'require(chans[id].quick < now)')), 'a 30-second window is within miner drift');
  assert.ok(lines.includes(lineOf(src, 'require(chans[id].start + 10 < now)')), 'a field set to now itself is no timeout');
});

test('reentrancy: a write in the other branch of the call is not after it; the same write after the if is', async () => {
  const src = `pragma solidity ^0.4.24;
contract Wallet {
    mapping(bytes32 => address) pendingTo;
    mapping(address => uint) credit;
    function execute(address to, uint value, bytes32 h) public {
        if (credit[to] >= value) {
            if (!to.call.value(value)()) throw;
        } else {
            pendingTo[h] = to;
        }
    }
    function pay(address to, uint value) public {
        if (credit[to] >= value) {
            if (!to.call.value(value)()) throw;
        } else {
            pendingTo[0] = to;
        }
        credit[to] -= value;
    }
    function pendingOf(bytes32 h) public returns (address) { return pendingTo[h]; }
    function loop(address[] tos, uint value) public {
        for (uint i = 0; i < tos.length; i++) {
            if (credit[tos[i]] >= value) {
                if (!tos[i].call.value(value)()) throw;
            } else {
                credit[tos[i]] = 0;
            }
        }
    }
}
`;
  const lines = (await run(src, reentrancyDetector)).map((f) => f.location.line);
  const exec = lineOf(src, 'function execute');
  assert.ok(!lines.includes(exec + 2), `write in the else branch reported: ${lines.join(', ')}`);
  assert.ok(lines.includes(lineOf(src, 'function pay') + 2), 'a write after the if follows the call');
  assert.ok(lines.includes(lineOf(src, 'function loop') + 3), 'in a loop the other branch runs in a later iteration');
});

test('reentrancy: behind a caller check, reported only when an open entry point touches the stale state', async () => {
  const src = `pragma solidity ^0.4.24;
contract Bank {
    address owner;
    mapping(bytes32 => uint) pending;
    mapping(address => uint) holders;
    constructor() public { owner = msg.sender; }
    modifier onlyOwner { require(msg.sender == owner); _; }
    function confirm(bytes32 h, address to) public onlyOwner {
        if (!to.call.value(pending[h])()) throw;
        delete pending[h];
    }
    function withdrawTo(address to, uint v) public onlyOwner {
        if (holders[to] > 0) {
            if (to.call.value(v)()) holders[to] -= v;
        }
    }
    function deposit() public payable { holders[msg.sender] += msg.value; }
}
`;
  const lines = (await run(src, reentrancyDetector)).map((f) => f.location.line);
  assert.ok(!lines.includes(lineOf(src, 'if (!to.call.value(pending[h])())')), `owner-only state reported: ${lines.join(', ')}`);
  assert.ok(lines.includes(lineOf(src, 'if (to.call.value(v)())')), 'deposit() is open to the callee and updates holders');
  // The callee is the caller: it passed the check already and re-enters as the owner.
  const self = src.replace('if (!to.call.value(pending[h])()) throw;', 'if (!msg.sender.call.value(pending[h])()) throw;');
  assert.ok((await run(self, reentrancyDetector)).some((f) => f.location.line === lineOf(self, 'msg.sender.call.value(pending[h])')));
  // `!claimed[msg.sender]` admits every address that has not claimed: no role, still reported.
  const once = src
    .replace('mapping(bytes32 => uint) pending;', 'mapping(bytes32 => uint) pending;\n    mapping(address => bool) claimed;')
    .replace(
      'public onlyOwner {\n        if (!to',
      'public {\n        require(!claimed[msg.sender]);\n        claimed[msg.sender] = false;\n        if (!to',
    );
  assert.ok(
    (await run(once, reentrancyDetector)).some((f) => f.location.line === lineOf(once, 'to.call.value(pending[h])')),
    'a negated lookup admits a fresh caller',
  );
  // `msg.sender != address(0)` admits everyone: no role.
  const anyone = src.replace(
    'public onlyOwner {\n        if (!to',
    'public {\n        require(msg.sender != address(0));\n        if (!to',
  );
  assert.ok((await run(anyone, reentrancyDetector)).some((f) => f.location.line === lineOf(anyone, 'to.call.value(pending[h])')));
});

const IMPL = `pragma solidity ^0.8.20;
import {Initializable} from "@openzeppelin/contracts-upgradeable/proxy/utils/Initializable.sol";
contract Impl is Initializable {
    address owner;
    constructor() { _disableInitializers(); }
    function initialize(address o) external initializer { owner = o; }
    function kill() external {
        require(msg.sender == owner);
        selfdestruct(payable(owner));
    }
}
`;

test('unprotected-selfdestruct: owner state set only by initializers the constructor locks is no takeover', async () => {
  assert.deepEqual(await run(IMPL, unprotectedSelfdestructDetector), []);
  // Without the lock anyone initializes the bare implementation and destroys it.
  const open = IMPL.replace('    constructor() { _disableInitializers(); }\n', '');
  assert.equal((await run(open, unprotectedSelfdestructDetector)).length, 1, 'an unlocked initializer lets anyone take the role');
  // The lock does not cover another open writer of the role.
  const setter = IMPL.replace('    function kill()', '    function setOwner(address o) external { owner = o; }\n    function kill()');
  assert.equal((await run(setter, unprotectedSelfdestructDetector)).length, 1, 'an open setter still lets anyone take the role');
  // An in-file run-once flag that the constructor sets locks the same way.
  const inFile = `pragma solidity ^0.8.20;
contract Impl {
    bool initialized;
    address owner;
    modifier initializer() { require(!initialized); initialized = true; _; }
    constructor() { initialized = true; }
    function initialize(address o) external initializer { owner = o; }
    function kill() external { require(msg.sender == owner); selfdestruct(payable(owner)); }
}
`;
  assert.deepEqual(await run(inFile, unprotectedSelfdestructDetector), []);
  assert.equal((await run(inFile.replace('constructor() { initialized = true; }', ''), unprotectedSelfdestructDetector)).length, 1);
});

test('unprotected-owner-change: a locked run-once initializer is not an open owner change; an unlocked one is', async () => {
  assert.deepEqual(await run(IMPL, unprotectedOwnerChangeDetector), []);
  const open = IMPL.replace('    constructor() { _disableInitializers(); }\n', '');
  assert.equal((await run(open, unprotectedOwnerChangeDetector)).length, 1);
});

test('integer-overflow: parameters combined only into one value the caller could pass directly; reused operands are not', async () => {
  const src = `pragma solidity ^0.4.24;
contract Drop {
    mapping(address => uint) balances;
    uint cap;
    function forward(address token, address to, uint v, uint decimals) public {
        uint amount = v * 10 ** decimals;
        token.call(bytes4(keccak256("transfer(address,uint256)")), to, amount);
    }
    function batch(address[] tos, uint v) public {
        uint total = tos.length * v;
        require(balances[msg.sender] >= total);
        balances[msg.sender] -= total;
        for (uint i = 0; i < tos.length; i++) balances[tos[i]] += v;
    }
    function setCap(uint units, uint price) public {
        cap = units * price;
    }
    function scaled(uint v, uint decimals) public {
        uint amount = v * 10 ** decimals;
        require(balances[msg.sender] >= v);
        balances[msg.sender] = amount;
    }
}
`;
  const lines = (await run(src, integerOverflowDetector)).map((f) => f.location.line);
  assert.ok(!lines.includes(lineOf(src, 'uint amount = v * 10 ** decimals;')), `free choice reported: ${lines.join(', ')}`);
  assert.ok(lines.includes(lineOf(src, 'uint total = tos.length * v;')), 'the length is not a parameter (BEC batchTransfer)');
  assert.ok(lines.includes(lineOf(src, 'cap = units * price;')), 'stored straight into state: left to the trust rules');
  const scaled = lineOf(src, 'function scaled') + 1;
  assert.ok(lines.includes(scaled), 'v is checked on its own elsewhere: the wrap breaks that relation');
});
