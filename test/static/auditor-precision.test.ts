// Precision rules from an auditor's pass over findings outside the labelled classes: each test
// puts the weak pattern (must be flagged) next to the shape the rule now recognises as safe or as
// the same finding (must not be reported again), so a rule cannot pass by going silent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lineOf, runDetector as run } from './helpers.ts';
import { dosExternalCallDetector } from '../../plugins/detector-dos-external-call/index.ts';
import { timestampDependenceDetector } from '../../plugins/detector-timestamp-dependence/index.ts';
import { reentrancyDetector } from '../../plugins/detector-reentrancy/index.ts';
import { transactionOrderDependenceDetector } from '../../plugins/detector-transaction-order-dependence/index.ts';
import { badRandomnessDetector } from '../../plugins/detector-bad-randomness/index.ts';
import { integerOverflowDetector } from '../../plugins/detector-integer-overflow/index.ts';

test('transaction-order-dependence: a public claim of an owner-set reward is raced, an owner-only collection is not', async () => {
  const src = `pragma solidity ^0.4.24;
contract R {
    address owner;
    uint reward;
    uint fees;
    constructor() public { owner = msg.sender; }
    function setReward(uint r) public { require(msg.sender == owner); reward = r; }
    function claim() public { msg.sender.transfer(reward); }
    function () public payable { fees += msg.value / 100; }
    function setFees(uint f) public { fees = f; }
    function collect() public { require(msg.sender == owner); owner.transfer(fees); }
}
`;
  const lines = (await run(src, transactionOrderDependenceDetector)).map((f) => f.location.line);
  assert.deepEqual(lines, [lineOf(src, 'function claim')]);
});

test('dos-external-call: a checked payment in a loop blocks it, an unchecked send does not', async () => {
  const src = `pragma solidity ^0.4.24;
contract D {
    address[] payees;
    function join() public payable { payees.push(msg.sender); }
    function payChecked() public { for (uint i = 0; i < payees.length; i++) require(payees[i].send(1 wei)); }
    function payTransfer() public { for (uint i = 0; i < payees.length; i++) payees[i].transfer(1 wei); }
    function payUnchecked() public { for (uint i = 0; i < payees.length; i++) payees[i].send(1 wei); }
}
`;
  const lines = (await run(src, dosExternalCallDetector)).map((f) => f.location.line);
  assert.deepEqual(lines, [lineOf(src, 'function payChecked'), lineOf(src, 'function payTransfer')]);
});

// Windows of an hour or more (daily) and a deadline the caller passes are not reported: drift of
// seconds moves nothing across them (SWC-116's 15-second rule).
test('timestamp-dependence: struct fields, existence checks, mixed draws and repeated stores', async () => {
  const src = `pragma solidity ^0.4.24;
contract T {
    struct King { address addr; uint crowned; }
    struct Lock { address who; uint since; }
    struct Item { uint born; uint value; }
    King king;
    Lock lock;
    mapping(uint => Item) items;
    uint last;
    uint answer;
    uint coin;
    function crown() public { king = King(msg.sender, now); }
    function lockUp() public { lock = Lock(msg.sender, now); }
    function release() public { require(now > lock.since + 1 minutes); msg.sender.transfer(1 ether); }
    function make(uint id) public { items[id] = Item({born: now, value: 1}); }
    function use(uint id) public { require(items[id].born != 0); items[id].value++; }
    function first() public { last = now; }
    function again() public { last = now; }
    function payout() public { if (now > last + 1 minutes) msg.sender.transfer(1 ether); }
    uint day;
    function stamp() public { day = now; }
    function daily() public { if (now > day + 12 hours) msg.sender.transfer(1 ether); }
    function expires(uint deadline) public { require(now <= deadline); msg.sender.transfer(1 ether); }
    function mixed() public { answer = uint8(keccak256(block.blockhash(block.number - 1), now)); }
    function timeOnly() public { coin = uint(keccak256(now)) % 2; }
}
`;
  const lines = (await run(src, timestampDependenceDetector)).map((f) => f.location.line).sort((a, b) => a - b);
  assert.deepEqual(lines, [
    lineOf(src, 'function lockUp'), // the `since` field decides release()
    lineOf(src, 'function release'),
    lineOf(src, 'function first'), // one finding for the variable, not one per store
    lineOf(src, 'function payout'),
    lineOf(src, 'function timeOnly'), // the timestamp alone decides the draw
  ]);
});

test('reentrancy: a stale decision variable is flagged, write-only bookkeeping after the call is not', async () => {
  const src = `pragma solidity ^0.4.24;
contract W {
    address whale;
    uint public totalDonated;
    mapping(address => uint) credit;
    uint spent;
    constructor(address w) public { whale = w; }
    function donate(uint amount) public { whale.call.value(amount)(); totalDonated += amount; }
    function withdraw() public { msg.sender.call.value(credit[msg.sender])(); credit[msg.sender] = 0; }
    function pay(uint amount) public { require(spent + amount < 10 ether); whale.call.value(amount)(); spent += amount; }
}
`;
  // \`pay\` calls the deployer-set whale: vetted code, trusted like an interface call to it (session 8).
  const lines = (await run(src, reentrancyDetector)).map((f) => f.location.line);
  assert.deepEqual(lines, [lineOf(src, 'function withdraw')]);
  // Paying a caller-chosen address with the same stale check is reported.
  const open = src.replace('function pay(uint amount) public {', 'function pay(address whale, uint amount) public {');
  assert.deepEqual(
    (await run(open, reentrancyDetector)).map((f) => f.location.line),
    [lineOf(open, 'function withdraw'), lineOf(open, 'function pay')],
  );
});

test("bad-randomness: the index push() returns does not carry the pushed struct's timestamp; a draw from it does", async () => {
  const src = `pragma solidity ^0.4.24;
contract K {
    struct Kitty { uint64 birthTime; uint256 genes; }
    Kitty[] kitties;
    function born(uint256 genes) public returns (uint256) {
        Kitty memory k = Kitty({ birthTime: uint64(now), genes: genes });
        uint256 id = kitties.push(k) - 1;
        require(id == uint256(uint32(id)));
        return id;
    }
    function lucky() public view returns (bool) {
        uint256 seed = kitties[kitties.length - 1].birthTime + now;
        return seed % 2 == 0;
    }
}
`;
  const lines = (await run(src, badRandomnessDetector)).map((f) => f.location.line);
  assert.ok(!lines.includes(lineOf(src, 'require(id ==')), `the narrowing check of an index is no draw: ${lines.join(',')}`);
  assert.ok(
    lines.includes(lineOf(src, 'uint256 seed =')) || lines.includes(lineOf(src, 'seed % 2')),
    `the timestamp draw is still reported: ${lines.join(',')}`,
  );
});

test("integer-overflow: a wrap only the deployer or a soundly guarded owner can choose is not an attack; anyone's, or a takeable owner's, is", async () => {
  const body = (extra: string) => `pragma solidity ^0.4.24;
contract F {
    address owner;
    uint public fee;
    uint public cap;
    modifier onlyOwner() { require(msg.sender == owner); _; }
    constructor(uint units) public { owner = msg.sender; cap = units * 1000; }
    function setFee(uint gasUnits, uint price) public onlyOwner { fee = gasUnits * price; }
    function raise(uint by) public { cap += by; }
${extra}}
`;
  const safe = body('');
  const lines = (await run(safe, integerOverflowDetector)).map((f) => f.location.line);
  assert.deepEqual(lines, [lineOf(safe, 'function raise')], 'only the public, unguarded wrap');
  // Anyone can make themselves owner: the owner-only wrap is reachable by an attacker again.
  const takeable = body('    function takeOwnership() public { owner = msg.sender; }\n');
  const lines2 = (await run(takeable, integerOverflowDetector)).map((f) => f.location.line);
  assert.deepEqual(lines2, [lineOf(takeable, 'function setFee'), lineOf(takeable, 'function raise')]);
});

test('reentrancy: a hand-written mutex every open entry point checks turns the re-entry away; one entry point that skips the check does not', async () => {
  const body = (extra: string) => `pragma solidity ^0.4.24;
contract M {
    bool busy;
    mapping(address => uint) fees;
    function request() public payable {
        if (busy) throw;
        fees[msg.sender] += msg.value;
    }
    function cancel() public {
        if (busy) throw;
        uint fee = fees[msg.sender];
        busy = true;
        if (!msg.sender.call.value(fee)()) throw;
        busy = false;
        fees[msg.sender] = 0;
    }
${extra}}
`;
  const locked = body('');
  assert.deepEqual(
    (await run(locked, reentrancyDetector)).map((f) => f.location.line),
    [],
  );
  const leaky = body('    function topUp() public payable { fees[msg.sender] += msg.value; }\n');
  assert.deepEqual(
    (await run(leaky, reentrancyDetector)).map((f) => f.location.line),
    [lineOf(leaky, 'msg.sender.call.value(fee)')],
  );
  const unlocked = locked.replace('busy = true;', '');
  assert.deepEqual(
    (await run(unlocked, reentrancyDetector)).map((f) => f.location.line),
    [lineOf(unlocked, 'msg.sender.call.value(fee)')],
  );
});

test('bad-randomness: a hash of block values that only names a record (operation id) is no draw; the same hash deciding a winner is', async () => {
  const src = `pragma solidity ^0.4.24;
contract W {
    struct Tx { address to; uint value; }
    mapping(bytes32 => Tx) txs;
    event Pending(bytes32 id, address to);
    function execute(address to, uint value) external returns (bytes32 o_hash) {
        o_hash = sha3(msg.data, block.number);
        if (txs[o_hash].to == 0) { txs[o_hash].to = to; txs[o_hash].value = value; }
        if (!confirm(o_hash)) Pending(o_hash, to);
    }
    function confirm(bytes32 h) internal returns (bool) {
        return txs[h].value > 0;
    }
    function play() external payable {
        bytes32 h = sha3(msg.sender, block.number);
        if (uint(h) % 2 == 0) msg.sender.transfer(msg.value * 2);
    }
}
`;
  const lines = (await run(src, badRandomnessDetector)).map((f) => f.location.line);
  assert.ok(!lines.includes(lineOf(src, 'o_hash = sha3')), `an operation id is not randomness: ${lines.join(',')}`);
  assert.ok(lines.includes(lineOf(src, 'bytes32 h = sha3')), `a draw from the same kind of hash is: ${lines.join(',')}`);
});

test('reentrancy: a call into an owner-configured contract that is handed no caller address is trusted; a token paying msg.sender, or a takeable owner, is not', async () => {
  const body = (extra: string) => `pragma solidity ^0.4.24;
interface Genes { function mix(uint a) external returns (uint); }
interface Token { function transfer(address to, uint v) external returns (bool); }
contract Z {
    address owner;
    Genes genes;
    Token token;
    mapping(uint => uint) dna;
    mapping(address => uint) owed;
    constructor() public { owner = msg.sender; }
    function setGenes(Genes g) external { require(msg.sender == owner); genes = g; }
    function setToken(Token t) external { require(msg.sender == owner); token = t; }
    function breed(uint id) external {
        uint d = dna[id];
        uint child = genes.mix(d);
        dna[id] = child;
    }
    function claim() external {
        uint v = owed[msg.sender];
        token.transfer(msg.sender, v);
        owed[msg.sender] = 0;
    }
${extra}}
`;
  const safe = body('');
  assert.deepEqual(
    (await run(safe, reentrancyDetector)).map((f) => f.location.line),
    [lineOf(safe, 'token.transfer(msg.sender')],
  );
  const takeable = body('    function own() external { owner = msg.sender; }\n');
  assert.deepEqual(
    (await run(takeable, reentrancyDetector)).map((f) => f.location.line),
    [lineOf(takeable, 'genes.mix(d)'), lineOf(takeable, 'token.transfer(msg.sender')],
  );
});
