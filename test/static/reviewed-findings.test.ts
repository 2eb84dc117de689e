// Session 7 precision rules (issue 19): each test puts the weak shape (must be flagged) next to the
// shape the rule now recognises as harmless, so a rule cannot pass by going silent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lineOf, runDetector as run } from './helpers.ts';
import { unprotectedOwnerChangeDetector } from '../../plugins/detector-unprotected-owner-change/index.ts';
import { wrongConstructorNameDetector } from '../../plugins/detector-wrong-constructor-name/index.ts';
import { dosExternalCallDetector } from '../../plugins/detector-dos-external-call/index.ts';
import { integerOverflowDetector } from '../../plugins/detector-integer-overflow/index.ts';
import { arbitraryStorageWriteDetector } from '../../plugins/detector-arbitrary-storage-write/index.ts';
import { timestampDependenceDetector } from '../../plugins/detector-timestamp-dependence/index.ts';
import { badRandomnessDetector } from '../../plugins/detector-bad-randomness/index.ts';

// Before 0.6 a derived contract may redeclare a base's state variable: the base's modifier reads
// the base's copy, a derived function writes its own.
const shadowed = (derivedWrites: string) => `pragma solidity ^0.4.18;
contract Ownable {
    address owner = msg.sender;
    modifier onlyOwner { if (owner == msg.sender) _; }
}
contract Token is Ownable {
    address owner = msg.sender;
    function withdraw(address to) public onlyOwner { to.transfer(this.balance); }
}
contract Bank is Token {
    uint public minDeposit;
    function initBank() public {
        ${derivedWrites}
        minDeposit = 1 ether;
    }
    function () public payable { require(msg.value > minDeposit); }
}
`;

test('unprotected-owner-change: writing a shadowing copy that no check reads is no take-over; writing the checked copy is', async () => {
  const copy = shadowed('owner = msg.sender;');
  assert.deepEqual(await run(copy, unprotectedOwnerChangeDetector), []);
  // The same function writing the base's variable through a base setter is a take-over.
  const checked = copy
    .replace('modifier onlyOwner', 'function setOwner(address o) internal { owner = o; }\n    modifier onlyOwner')
    .replace('owner = msg.sender;\n        minDeposit', 'setOwner(msg.sender);\n        minDeposit');
  const lines = (await run(checked, unprotectedOwnerChangeDetector)).map((f) => f.location.line);
  assert.deepEqual(lines, [lineOf(checked, 'function initBank')]);
  // Without the redeclaration the derived write is the checked variable.
  const plain = copy.replace('contract Token is Ownable {\n    address owner = msg.sender;', 'contract Token is Ownable {');
  assert.deepEqual(
    (await run(plain, unprotectedOwnerChangeDetector)).map((f) => f.location.line),
    [lineOf(plain, 'function initBank')],
  );
});

test('wrong-constructor-name: a re-run that stores the same constant or a dead copy changes nothing; one that sets a read variable from the caller does', async () => {
  const harmless = shadowed('owner = msg.sender;');
  assert.deepEqual(await run(harmless, wrongConstructorNameDetector), []);
  // The contract's own variable set from the caller: anyone re-running it changes who is paid.
  const harmful = harmless
    .replace('uint public minDeposit;', 'uint public minDeposit;\n    address payee;')
    .replace('owner = msg.sender;\n        minDeposit', 'payee = msg.sender;\n        minDeposit')
    .replace('require(msg.value > minDeposit); }', 'require(msg.value > minDeposit); payee.transfer(msg.value); }');
  assert.deepEqual(
    (await run(harmful, wrongConstructorNameDetector)).map((f) => f.location.line),
    [lineOf(harmful, 'function initBank')],
  );
  // A constant another function also changes: re-running resets it.
  const reset = harmless.replace(
    'function () public payable',
    'function lower() public { minDeposit = 0; }\n    function () public payable',
  );
  assert.deepEqual(
    (await run(reset, wrongConstructorNameDetector)).map((f) => f.location.line),
    [lineOf(reset, 'function initBank')],
  );
});

test('dos-external-call: a loop paying recipients the caller passes in blocks only the caller; stored recipients block everyone', async () => {
  const src = `pragma solidity ^0.4.24;
contract P {
    address[] payees;
    function join() public payable { payees.push(msg.sender); }
    function payStored() public { for (uint i = 0; i < payees.length; i++) payees[i].transfer(1 wei); }
    function payGiven(address[] tos) public { for (uint i = 0; i < tos.length; i++) tos[i].transfer(1 wei); }
    function poke(uint n, address a) public { for (uint i = 0; i < n; i++) a.call.value(0 wei)(); }
    function payVia(address a) public { for (uint i = 0; i < 3; i++) a.transfer(1 wei); }
    function relay() public { payVia(payees[0]); }
}
`;
  const lines = (await run(src, dosExternalCallDetector)).map((f) => f.location.line);
  // payVia's parameter comes from storage when relay() calls it: still reported.
  assert.deepEqual(lines, [lineOf(src, 'function payStored'), lineOf(src, 'function payVia')]);
});

test('a draw from the timestamp alone is one HIGH timestamp finding; a draw mixing blockhash stays bad randomness', async () => {
  const src = `pragma solidity ^0.4.24;
contract L {
    address[] players;
    function coin() public view returns (bool) { return uint(sha3(block.timestamp)) % 2 == 0; }
    uint32 last;
    function pack() public { uint32 t = uint32(block.timestamp % 2**32); last = t; }
    function mixed() public view returns (uint) { return uint(sha3(block.timestamp, block.blockhash(block.number - 1))) % players.length; }
}
`;
  const ts = await run(src, timestampDependenceDetector);
  assert.deepEqual(
    ts.map((f) => [f.location.line, f.severity]),
    [[lineOf(src, 'function coin'), 'HIGH']],
  );
  const br = (await run(src, badRandomnessDetector)).map((f) => f.location.line);
  assert.ok(!br.includes(lineOf(src, 'function coin')), 'the timestamp-only draw is not reported twice');
  assert.ok(br.includes(lineOf(src, 'function mixed')));
});

test('a caller value bounded by a small constant in a require cannot reach the wrap or the far slots; an unbounded one can', async () => {
  const src = `pragma solidity ^0.4.13;
contract S {
    uint public constant MAX = 16384;
    uint[] hashes;
    function addBounded(uint _n) public {
        require(_n > 0 && _n <= MAX);
        if (hashes.length + _n > MAX) hashes.length = MAX;
        else hashes.length += _n;
    }
    function addOpen(uint _n) public {
        require(_n > 0);
        hashes.length += _n;
    }
    function addReassigned(uint _n) public {
        require(_n <= MAX);
        _n = _n * 2**200;
        hashes.length += _n;
    }
}
`;
  const overflow = (await run(src, integerOverflowDetector)).map((f) => f.location.line);
  assert.ok(!overflow.includes(lineOf(src, 'if (hashes.length + _n')));
  assert.ok(!overflow.includes(lineOf(src, 'else hashes.length += _n')));
  assert.ok(overflow.includes(lineOf(src, 'function addOpen') + 2));
  assert.ok(overflow.includes(lineOf(src, 'function addReassigned') + 3));
  const storage = (await run(src, arbitraryStorageWriteDetector)).map((f) => f.location.line);
  assert.ok(!storage.includes(lineOf(src, 'else hashes.length += _n')));
  assert.ok(storage.includes(lineOf(src, 'function addOpen') + 2));
});
