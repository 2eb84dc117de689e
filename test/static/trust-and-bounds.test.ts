// Session 8 precision rules (issue 19): each test puts the weak shape (must be flagged) next to the
// shape the rule now recognises as harmless, so a rule cannot pass by going silent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lineOf, runDetector as run } from './helpers.ts';
import { integerOverflowDetector } from '../../plugins/detector-integer-overflow/index.ts';
import { reentrancyDetector } from '../../plugins/detector-reentrancy/index.ts';
import { badRandomnessDetector } from '../../plugins/detector-bad-randomness/index.ts';

test('a caller value bounded by an if-throw (any disjunct) cannot reach the wrap; a bound that does not leave, or an unbounded value, can', async () => {
  const src = `pragma solidity ^0.4.15;
contract Fees {
    uint collectedFees;
    function percentBounded(uint _pcent) public {
        if (collectedFees == 0 || _pcent > 100) throw;
        uint fees = collectedFees / 100 * _pcent;
        collectedFees -= fees;
    }
    function percentReverted(uint _pcent) public {
        if (_pcent > 100) { revert(); }
        collectedFees = collectedFees / 100 * _pcent;
    }
    function percentOpen(uint _pcent) public {
        if (collectedFees == 0) throw;
        uint fees = collectedFees / 100 * _pcent;
        collectedFees -= fees;
    }
    function percentNotLeaving(uint _pcent) public {
        if (_pcent > 100) collectedFees = 0;
        uint fees = collectedFees / 100 * _pcent;
        collectedFees -= fees;
    }
    function percentBothRequired(uint _pcent) public {
        if (collectedFees == 0 && _pcent > 100) throw;
        uint fees = collectedFees / 100 * _pcent;
        collectedFees -= fees;
    }
}
`;
  const lines = (await run(src, integerOverflowDetector)).map((f) => f.location.line);
  assert.ok(!lines.includes(lineOf(src, 'function percentBounded') + 2), 'bounded by the throwing disjunct');
  assert.ok(!lines.includes(lineOf(src, 'function percentReverted') + 2), 'bounded by a block that reverts');
  assert.ok(lines.includes(lineOf(src, 'function percentOpen') + 2), 'no bound on _pcent');
  assert.ok(lines.includes(lineOf(src, 'function percentNotLeaving') + 2), 'the if falls through');
  // `a && b` failing says only that one of them is false: no bound on _pcent.
  assert.ok(lines.includes(lineOf(src, 'function percentBothRequired') + 2), 'a conjunction bounds nothing');
});

test('a caller fixed to an address literal is a sound owner: its own wrap is not an attack; the same code open to anyone is', async () => {
  const src = `pragma solidity ^0.4.24;
contract Airdrop {
    address public from = 0x9797055B68C5DadDE6b3c7d5D80C9CFE2eecE6c9;
    address public token = 0x1f844685f7Bf86eFcc0e74D8642c54A257111923;
    function drop(address[] _tos, uint[] v) public returns (bool) {
        require(msg.sender == 0x9797055B68C5DadDE6b3c7d5D80C9CFE2eecE6c9);
        for (uint i = 0; i < _tos.length; i++) {
            require(token.call(bytes4(keccak256("transferFrom(address,address,uint256)")), from, _tos[i], v[i] * 1000000000000000000));
        }
        return true;
    }
}
`;
  assert.deepEqual(await run(src, integerOverflowDetector), []);
  const open = src.replace('require(msg.sender == 0x9797055B68C5DadDE6b3c7d5D80C9CFE2eecE6c9);', 'require(_tos.length > 0);');
  assert.deepEqual(
    (await run(open, integerOverflowDetector)).map((f) => f.location.line),
    [lineOf(open, 'v[i] * 1000000000000000000')],
  );
  // A literal check next to an owner any caller can overwrite: the contract's checks are not sound.
  const takeable = src
    .replace('contract Airdrop {', 'contract Airdrop {\n    address owner;\n    function setOwner() public { owner = msg.sender; }')
    .replace(
      '        return true;\n    }\n}',
      '        return true;\n    }\n    function pay(uint a) public { require(msg.sender == owner); owner.transfer(a * 1 ether); }\n}',
    );
  assert.ok((await run(takeable, integerOverflowDetector)).some((f) => f.location.line === lineOf(takeable, 'v[i] * 1000000000000000000')));
});

test('reentrancy: a low-level call to an address only the deployer set is trusted like an interface call; a caller-chosen one is not', async () => {
  const src = `pragma solidity ^0.4.24;
contract Donor {
    address private whale;
    uint public totalDonated;
    mapping(address => uint) public credit;
    constructor(address w) public { whale = w; }
    function donate(uint amount) public {
        require(totalDonated + amount > totalDonated);
        whale.call.value(amount)(bytes4(keccak256("donate()")));
        totalDonated += amount;
    }
    function payTo(address to, uint amount) public {
        require(credit[to] >= amount);
        to.call.value(amount)();
        credit[to] -= amount;
    }
}
`;
  const lines = (await run(src, reentrancyDetector)).map((f) => f.location.line);
  assert.ok(!lines.includes(lineOf(src, 'whale.call.value')), 'the constructor-set whale is vetted code');
  assert.ok(lines.includes(lineOf(src, 'to.call.value')), 'a caller-chosen target can re-enter');
  // The same call when anyone can replace the address: no longer trusted.
  const settable = src.replace('    function payTo', '    function setWhale(address w) public { whale = w; }\n    function payTo');
  assert.ok((await run(settable, reentrancyDetector)).some((f) => f.location.line === lineOf(settable, 'whale.call.value')));
});

test('bad-randomness: the hash of the committed bet block, read through a storage pointer and a local within a named window, is the sound scheme; without the window it is not', async () => {
  const src = `pragma solidity ^0.4.24;
contract Dice {
    uint constant BET_EXPIRATION_BLOCKS = 250;
    struct Bet { uint amount; uint blockNumber; address player; }
    mapping(uint => Bet) bets;
    function wager(uint ticketID) public payable {
        Bet storage bet = bets[ticketID];
        require(bet.player == address(0));
        bet.amount = msg.value;
        bet.blockNumber = block.number;
        bet.player = msg.sender;
    }
    function play(uint ticketReveal) public {
        uint ticketID = uint(keccak256(abi.encodePacked(ticketReveal)));
        Bet storage bet = bets[ticketID];
        uint blockNumber = bet.blockNumber;
        if (blockNumber < block.number && blockNumber >= block.number - BET_EXPIRATION_BLOCKS) {
            uint random = uint(keccak256(abi.encodePacked(blockhash(blockNumber), ticketReveal)));
            bool won = (random % 2) != 0;
            if (won) bet.player.transfer(bet.amount * 2);
            bet.amount = 0;
        }
    }
}
`;
  assert.deepEqual(await run(src, badRandomnessDetector), []);
  // After 256 blocks blockhash() is 0: a window wider than that (or none) lets the player wait for it.
  for (const wide of [
    src.replace('BET_EXPIRATION_BLOCKS = 250', 'BET_EXPIRATION_BLOCKS = 1000'),
    src.replace(' && blockNumber >= block.number - BET_EXPIRATION_BLOCKS', ''),
  ]) {
    const lines = (await run(wide, badRandomnessDetector)).map((f) => f.location.line);
    assert.ok(lines.includes(lineOf(wide, 'blockhash(blockNumber)')), 'the hash is reported');
    // One finding per draw: `random % 2` draws again from that hash (session 11).
    assert.ok(!lines.includes(lineOf(wide, 'random % 2')), 'the modulo of the drawn hash is not a second finding');
  }
  // A block number the player can set is no commitment.
  const settable = src.replace(
    '        bet.player = msg.sender;\n    }',
    '        bet.player = msg.sender;\n    }\n    function move(uint id, uint b) public { bets[id].blockNumber = b; }',
  );
  assert.ok((await run(settable, badRandomnessDetector)).some((f) => f.location.line === lineOf(settable, 'blockhash(blockNumber)')));
});

test('integer-overflow: crediting an amount the contract just received (required token pull or msg.value) is bounded; an unchecked pull or a pull elsewhere is not', async () => {
  const src = `pragma solidity ^0.4.24;
contract Token { function transferFrom(address f, address t, uint v) public returns (bool); }
contract Channel {
    Token token;
    address hub;
    mapping(address => uint) tokenBalance;
    mapping(address => uint) etherBalance;
    function depositTokens(uint _balance, bool isToken) public payable {
        if (isToken) {
            require(token.transferFrom(msg.sender, this, _balance), "pull failed");
            tokenBalance[msg.sender] += _balance;
        } else {
            require(msg.value == _balance);
            etherBalance[msg.sender] += _balance;
        }
    }
    function depositUnchecked(uint _balance) public {
        token.transferFrom(msg.sender, this, _balance);
        tokenBalance[msg.sender] += _balance;
    }
    function depositElsewhere(uint _balance) public {
        require(token.transferFrom(msg.sender, hub, _balance));
        tokenBalance[msg.sender] += _balance;
    }
}
`;
  const lines = (await run(src, integerOverflowDetector)).map((f) => f.location.line);
  const credit = (fnName: string) => lineOf(src, `function ${fnName}`) + 2;
  assert.ok(!lines.includes(lineOf(src, 'require(token.transferFrom(msg.sender, this, _balance), "pull failed")') + 1));
  assert.ok(!lines.includes(lineOf(src, 'require(msg.value == _balance)') + 1));
  assert.ok(lines.includes(credit('depositUnchecked')), 'the pull may have failed');
  assert.ok(lines.includes(credit('depositElsewhere')), 'the tokens went to someone else');
});
