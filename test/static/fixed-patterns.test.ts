// Rules that recognise the fix: each test puts the vulnerable pattern (must be flagged) next to
// the fixed one (must not be, or only at a lower severity), so a rule cannot pass by going silent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeFacts, parseSolidity, deadRanges } from '../../lib/analysis/static/index.ts';
import { lineOf, runDetector as run } from './helpers.ts';
import { badRandomnessDetector } from '../../plugins/detector-bad-randomness/index.ts';
import { dosUnboundedArrayDetector } from '../../plugins/detector-dos-unbounded-array/index.ts';
import { integerOverflowDetector } from '../../plugins/detector-integer-overflow/index.ts';
import { reentrancyDetector } from '../../plugins/detector-reentrancy/index.ts';
import { unprotectedDelegatecallDetector } from '../../plugins/detector-unprotected-delegatecall/index.ts';
import { unprotectedOwnerChangeDetector } from '../../plugins/detector-unprotected-owner-change/index.ts';
import { unprotectedSelfdestructDetector } from '../../plugins/detector-unprotected-selfdestruct/index.ts';
import { uncheckedCallDetector } from '../../plugins/detector-unchecked-call/index.ts';

test('dos-unbounded-array: resetting a growable array in the constructor is free, elsewhere it is flagged', async () => {
  const src = `pragma solidity ^0.4.25;
contract W {
    uint[] codes;
    constructor() public { codes = new uint[](0); }
    function push(uint c) public { codes.push(c); }
    function clear() public { codes = new uint[](0); }
}
`;
  const lines = (await run(src, dosUnboundedArrayDetector)).map((f) => f.location.line);
  assert.deepEqual(lines, [6]);
});

test('unprotected-delegatecall: own code and owner-set proxies vs caller-settable targets and open libraries', async () => {
  const proxy = `pragma solidity ^0.4.24;
contract P {
    address callee;
    address owner;
    modifier onlyOwner { require(msg.sender == owner); _; }
    constructor() public { owner = msg.sender; }
    function setCallee(address c) public onlyOwner { callee = c; }
    function forward(bytes _data) public { require(callee.delegatecall(_data)); }
    function self() public { address(this).delegatecall(); }
}
`;
  const p = await run(proxy, unprotectedDelegatecallDetector);
  assert.deepEqual(
    p.map((f) => [f.location.line, f.severity]),
    [],
    'an owner-set proxy is the design, not a finding; delegatecall to this is not reported',
  );

  // Same proxy, but the file holds a library anyone can use to write storage (Parity's shape).
  const withLib = proxy.replace(
    'contract P {',
    `contract Lib {
    address public owner;
    function init(address o) public { owner = o; }
}
contract P {`,
  );
  const l = await run(withLib, unprotectedDelegatecallDetector);
  assert.deepEqual(
    l.map((f) => [f.location.line, f.severity]),
    [[lineOf(withLib, 'function forward'), 'HIGH']],
  );

  // The target itself can be set by anyone.
  const settable = proxy.replace('function setCallee(address c) public onlyOwner', 'function setCallee(address c) public');
  const s = await run(settable, unprotectedDelegatecallDetector);
  assert.deepEqual(
    s.map((f) => [f.location.line, f.severity]),
    [[8, 'HIGH']],
  );
  assert.match(s[0].description, /anyone can set through `setCallee`/);
});

test('unprotected-owner-change: a phase reset of role records is not a takeover; an unconditional reset or a phase-gated assignment is', async () => {
  const src = `pragma solidity ^0.5.0;
contract Game {
    struct Player { address addr; uint number; }
    Player[2] players;
    uint stage;
    function reveal(uint n) public {
        require(players[0].addr == msg.sender);
        players[0].number = n;
    }
    function distribute() public {
        require(stage == 2);
        delete players;
        stage = 0;
    }
    function wipe() public {
        delete players;
    }
    function seat(address a) public {
        require(stage == 0);
        players[0].addr = a;
    }
}
`;
  const lines = (await run(src, unprotectedOwnerChangeDetector)).map((f) => f.location.line);
  assert.deepEqual(
    lines.sort((a, b) => a - b),
    [lineOf(src, 'function wipe'), lineOf(src, 'function seat')],
  );
});

test('reentrancy: a modifier that calls out before the balance check is safe; the check before the call is not', async () => {
  const mk = (order: string) => `pragma solidity ^0.5.0;
contract M {
  mapping (address => uint) public tokenBalance;
  function airDrop() ${order} public {
    tokenBalance[msg.sender] += 20;
  }
  modifier supportsToken() {
    require(keccak256(abi.encodePacked("T")) == Bank(msg.sender).supportsToken());
    _;
  }
  modifier hasNoBalance {
    require(tokenBalance[msg.sender] == 0);
    _;
  }
}
contract Bank { function supportsToken() external returns (bytes32) { return keccak256(abi.encodePacked("T")); } }
`;
  // As in SWC-107's modifier example: the caller itself answers supportsToken() and re-enters.
  assert.deepEqual(
    (await run(mk('hasNoBalance supportsToken'), reentrancyDetector)).map((f) => f.location.line),
    [4],
  );
  assert.deepEqual(await run(mk('supportsToken hasNoBalance'), reentrancyDetector), []);
});

test('integer-overflow: a wrap that only returns to the caller is LOW; the same operation feeding state is HIGH', async () => {
  const src = `pragma solidity ^0.4.24;
contract A {
    uint total;
    function quote(uint x, uint y) public view returns (uint) {
        return x + y + total;
    }
    function only(uint x) public pure returns (uint) {
        return x * 3;
    }
    function price(uint x) public view returns (uint) {
        return x * 7;
    }
    function buy(uint x) public {
        total = price(x);
    }
    function add(uint x) public {
        total += x;
    }
}
`;
  const got = Object.fromEntries((await run(src, integerOverflowDetector)).map((f) => [f.location.line, f.severity]));
  assert.deepEqual(got, { 5: 'LOW', 8: 'LOW', 11: 'HIGH', 17: 'HIGH' }, JSON.stringify(got));
});

test('bad-randomness: blockhash of a committed future block inside the 256-block window is not flagged; without the window it is', async () => {
  const mk = (window: string) => `pragma solidity ^0.4.24;
contract G {
    struct Guess { uint block; bytes32 guess; }
    mapping(address => Guess) guesses;
    function lockInGuess(bytes32 hash) public payable {
        require(guesses[msg.sender].block == 0);
        guesses[msg.sender].guess = hash;
        guesses[msg.sender].block = block.number + 1;
    }
    function settle() public {
        require(block.number > guesses[msg.sender].block${window});
        bytes32 answer = blockhash(guesses[msg.sender].block);
        guesses[msg.sender].block = 0;
        if (guesses[msg.sender].guess == answer) msg.sender.transfer(2 ether);
    }
}
`;
  assert.deepEqual(
    (await run(mk(''), badRandomnessDetector)).map((f) => f.location.line),
    [12],
  );
  assert.deepEqual(await run(mk(' && block.number - guesses[msg.sender].block < 256'), badRandomnessDetector), []);
  // A block number the caller chooses is not a commitment.
  const chosen = mk(' && block.number - guesses[msg.sender].block < 256').replace(
    'function settle() public {',
    'function setBlock(uint b) public { guesses[msg.sender].block = b; }\n    function settle() public {',
  );
  assert.equal((await run(chosen, badRandomnessDetector)).length, 1);
});

test('bad-randomness: a block value kept only in locals nothing reads decides nothing', async () => {
  const src = `pragma solidity ^0.4.24;
contract D {
    function f() public view returns (bytes32) {
        bytes32 unused = blockhash(0);
        bytes32 alsoUnused = keccak256(unused);
        bytes32 used = blockhash(block.number - 1);
        return used;
    }
}
`;
  assert.deepEqual([...new Set((await run(src, badRandomnessDetector)).map((f) => f.location.line))], [6]);
});

test('reachability: code behind an exit that constant-valued state always takes is not reported', async () => {
  const mk = (initBody: string) => `pragma solidity ^0.4.23;
contract S {
    uint256 private initialized = 0;
    function init() public { ${initBody} }
    function run(uint256 input) public {
        if (initialized != 2) {
            return;
        }
        selfdestruct(msg.sender);
    }
}
`;
  assert.deepEqual(await run(mk('initialized = 1;'), unprotectedSelfdestructDetector), [], 'initialized is only ever 0 or 1');
  assert.equal((await run(mk('initialized = 2;'), unprotectedSelfdestructDetector)).length, 1, 'reachable once init() stores 2');
  assert.equal((await run(mk('initialized += 2;'), unprotectedSelfdestructDetector)).length, 1, 'a computed write is not constant');
  const asm = mk('initialized = 1;').replace('function init() public {', 'function init() public { assembly { sstore(0, 2) }');
  assert.equal((await run(asm, unprotectedSelfdestructDetector)).length, 1, 'inline assembly can write any slot');

  const req = `pragma solidity ^0.4.23;
contract R {
    bool private open;
    uint count = 1;
    modifier whenOpen() { require(open); _; }
    function dec(uint256 input) public whenOpen { count -= input; }
    function dec2(uint256 input) public { count -= input; }
}
`;
  const f = computeFacts(parseSolidity(req).ast, req, 'R.sol');
  assert.equal(deadRanges(f.ast, f.contracts, f.contracts[0]).length, 1);
  assert.deepEqual(
    (await run(req, integerOverflowDetector)).map((x) => x.location.line),
    [7],
  );
});

test('unchecked-call: a success flag assigned to an existing variable and then required is checked', async () => {
  const src = `pragma solidity ^0.8.0;
contract A {
    function checked(address a) public {
        bool ok;
        (ok, ) = a.call("");
        require(ok);
    }
    function ignored(address a) public {
        bool ok;
        (ok, ) = a.call("");
    }
    function dataOnly(address a) public returns (bytes memory) {
        (, bytes memory d) = a.call("");
        return d;
    }
}
`;
  const lines = (await run(src, uncheckedCallDetector)).map((f) => f.location.line);
  assert.deepEqual(lines, [10, 13]);
});
