// Precision rules (issue 19): each test puts the weak shape (must be flagged) next to the
// shape the rule now recognises as harmless, so a rule cannot pass by going silent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lineOf, runDetector as run } from './helpers.ts';
import { integerOverflowDetector } from '../../plugins/detector-integer-overflow/index.ts';
import { timestampDependenceDetector } from '../../plugins/detector-timestamp-dependence/index.ts';
import { dosUnboundedArrayDetector } from '../../plugins/detector-dos-unbounded-array/index.ts';
import { erc20ApproveRaceDetector } from '../../plugins/detector-erc20-approve-race/index.ts';

test('timestamp: `if (now > start) elapsed = now - start;` is a saturating difference, not a decision; a branch that does more is one', async () => {
  const src = `pragma solidity ^0.4.24;
contract Auction {
    struct Sale { uint64 startedAt; uint128 price; }
    mapping(uint => Sale) sales;
    mapping(uint => address) winner;
    function open(uint id, uint128 price) public {
        Sale memory s = Sale(uint64(now), price);
        sales[id] = s;
    }
    function elapsed(uint id) public view returns (uint) {
        uint secondsPassed = 0;
        if (now > sales[id].startedAt) {
            secondsPassed = now - sales[id].startedAt;
        }
        return secondsPassed;
    }
    function settle(uint id) public {
        if (now > sales[id].startedAt) {
            winner[id] = msg.sender;
        }
    }
}
`;
  const lines = (await run(src, timestampDependenceDetector)).map((f) => f.location.line);
  assert.ok(!lines.includes(lineOf(src, 'if (now > sales[id].startedAt) {')), `saturating difference reported: ${lines.join(', ')}`);
  const settle = lineOf(src, 'function settle') + 1;
  assert.ok(lines.includes(settle), 'the same comparison choosing who wins is a decision');
  assert.ok(lines.includes(lineOf(src, 'Sale(uint64(now), price)')), 'the start time feeds that decision');
});

test('timestamp: the saturating form only when the difference is of the compared operands, without else', async () => {
  const src = `pragma solidity ^0.4.24;
contract Clock {
    uint start;
    uint bonus;
    function a() public { if (now > start) { bonus = start - now; } }
    function b() public { if (now > start) { bonus = now - start; } else { bonus = 1; } }
    function c() public { if (start < now) bonus = now - start; }
}
`;
  const lines = (await run(src, timestampDependenceDetector)).map((f) => f.location.line);
  assert.ok(lines.includes(lineOf(src, 'function a()')), 'reversed difference: not a clamp');
  assert.ok(lines.includes(lineOf(src, 'function b()')), 'an else branch chooses a behaviour');
  assert.ok(!lines.includes(lineOf(src, 'function c()')), 'the mirrored comparison is the same clamp');
});

test('integer-overflow: an amount received inside `if (amount != 0)` is zero or received on every path; an unchecked or misdirected one is not', async () => {
  const src = `pragma solidity ^0.4.24;
contract Token { function transferFrom(address f, address t, uint v) public returns (bool); }
contract Channel {
    Token token;
    address hub;
    mapping(bytes32 => uint[2]) deposit;
    function join(bytes32 id, uint256[2] _balances) public payable {
        if (_balances[0] != 0) {
            require(msg.value == _balances[0], "ether");
        }
        if (_balances[1] > 0) {
            require(token.transferFrom(msg.sender, this, _balances[1]), "token");
        }
        deposit[id][0] += _balances[0];
        deposit[id][1] += _balances[1];
    }
    function joinOther(bytes32 id, uint256[2] _balances) public payable {
        if (_balances[0] != 0) {
            require(msg.value == _balances[1], "ether");
        }
        if (_balances[1] != 0) {
            require(token.transferFrom(msg.sender, hub, _balances[1]), "token");
        }
        deposit[id][0] += _balances[0];
        deposit[id][1] += _balances[1];
    }
    function joinElse(bytes32 id, uint256 amount, bool skip) public payable {
        if (skip) {
            require(msg.value == amount);
        }
        deposit[id][0] += amount;
    }
}
`;
  const lines = (await run(src, integerOverflowDetector)).map((f) => f.location.line);
  const after = (fnName: string, k: number) => lineOf(src, `function ${fnName}`) + k;
  assert.ok(!lines.includes(after('join', 7)), `received ether reported: ${lines.join(', ')}`);
  assert.ok(!lines.includes(after('join', 8)), 'received tokens reported');
  assert.ok(lines.includes(after('joinOther', 7)), 'msg.value was compared with another entry');
  assert.ok(lines.includes(after('joinOther', 8)), 'the tokens went to someone else');
  assert.ok(lines.includes(after('joinElse', 4)), 'a branch on something other than the amount may skip the check');
});

test('dos-unbounded-array: a loop from the old length visits only what this call added; a loop from zero visits what everyone pushed', async () => {
  const src = `pragma solidity ^0.4.24;
contract Hashes {
    uint[] hashes;
    uint constant MAX = 16384;
    function add(uint k) public {
        require(k <= MAX);
        uint n = hashes.length;
        hashes.length += k;
        for (; n < hashes.length; n++) {
            hashes[n] = 1;
        }
    }
    function touchAll() public {
        for (uint i = 0; i < hashes.length; i++) {
            hashes[i] = 2;
        }
    }
    function rewind(uint k) public {
        uint m = hashes.length;
        hashes.length += k;
        m = 0;
        for (; m < hashes.length; m++) {
            hashes[m] = 3;
        }
    }
}
`;
  const lines = (await run(src, dosUnboundedArrayDetector)).map((f) => f.location.line);
  assert.ok(!lines.includes(lineOf(src, 'for (; n < hashes.length; n++)')), `new elements only reported: ${lines.join(', ')}`);
  assert.ok(lines.includes(lineOf(src, 'for (uint i = 0; i < hashes.length; i++)')), 'a loop over every element is the DoS');
  assert.ok(lines.includes(lineOf(src, 'for (; m < hashes.length; m++)')), 'a counter moved back to 0 visits everything');
});

test('integer-overflow: a credit next to a checked debit of the same amount is a LOW note (sum conserved); an unchecked debit or another amount stays HIGH', async () => {
  const src = `pragma solidity ^0.4.24;
contract Token {
    mapping(address => uint) balances;
    function transfer(address to, uint amount) public {
        require(balances[msg.sender] >= amount);
        balances[msg.sender] -= amount;
        balances[to] += amount;
    }
    function creditFirst(address to, uint amount) public {
        if (balances[msg.sender] >= amount) {
            balances[to] += amount;
            balances[msg.sender] -= amount;
        }
    }
    function noCheck(address to, uint amount) public {
        balances[msg.sender] -= amount;
        balances[to] += amount;
    }
    uint totalBurned;
    function burn(uint amount) public {
        if (amount > balances[msg.sender]) throw;
        balances[msg.sender] -= amount;
        totalBurned += amount;
    }
    function twice(address to, address also, uint amount) public {
        require(balances[msg.sender] >= amount);
        balances[msg.sender] -= amount;
        balances[to] += amount;
        balances[also] += amount;
    }
    function otherAmount(address to, uint amount, uint bonus) public {
        require(balances[msg.sender] >= amount);
        balances[msg.sender] -= amount;
        balances[to] += bonus;
    }
}
`;
  const found = await run(src, integerOverflowDetector);
  const at = (needle: string, from: string) => {
    const l = lineOf(src, `function ${from}`);
    const k = src.split('\n').findIndex((x, i) => i >= l && x.includes(needle)) + 1;
    return found.find((f) => f.location.line === k);
  };
  assert.equal(at('balances[to] += amount', 'transfer')?.severity, 'LOW', 'a checked transfer is a note');
  assert.match(at('balances[to] += amount', 'transfer')?.description ?? '', /conserves the sum/);
  assert.equal(at('balances[to] += amount', 'creditFirst')?.severity, 'LOW', 'credit before the debit, same branch');
  assert.equal(at('totalBurned += amount', 'burn')?.severity, 'LOW', 'an accumulator of checked debits is bounded by their total');
  assert.equal(at('balances[also] += amount', 'twice')?.severity, 'HIGH', 'one debit, two credits: value created');
  assert.equal(at('balances[to] += amount', 'twice')?.severity, 'HIGH', 'neither credit is a transfer');
  assert.equal(at('balances[to] += amount', 'noCheck')?.severity, 'HIGH', 'the debit itself can underflow: no conserved sum');
  assert.equal(at('balances[to] += bonus', 'otherAmount')?.severity, 'HIGH', 'a credit of another amount creates value');
});

test('erc20-approve-race: an amount stored through a helper races; a token id that only selects the slot (ERC721) does not', async () => {
  const src = `pragma solidity ^0.8.20;
contract Fungible {
    mapping(address => mapping(address => uint256)) allowance;
    function approve(address spender, uint256 value) public returns (bool) {
        _approve(msg.sender, spender, value);
        return true;
    }
    function _approve(address owner, address spender, uint256 value) internal {
        allowance[owner][spender] = value;
    }
}
contract Collectible {
    mapping(uint256 => address) tokenApprovals;
    mapping(uint256 => address) owners;
    function approve(address to, uint256 tokenId) public {
        _approve(to, tokenId, msg.sender);
    }
    function _approve(address to, uint256 tokenId, address auth) internal {
        require(owners[tokenId] == auth);
        tokenApprovals[tokenId] = to;
    }
}
`;
  const lines = (await run(src, erc20ApproveRaceDetector)).map((f) => f.location.line);
  assert.ok(lines.includes(lineOf(src, 'function approve(address spender, uint256 value)')), 'the allowance is overwritten');
  assert.ok(!lines.includes(lineOf(src, 'function approve(address to, uint256 tokenId)')), `a token id reported: ${lines.join(', ')}`);
});
