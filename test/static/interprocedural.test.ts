// Facts across internal calls and across the file boundary: where a value goes through helpers,
// which calls lead into code the file does not contain, and guards that live out of sight.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { argumentFlow, computeFacts, parseSolidity, reachableFunctions } from '../../lib/analysis/static/index.ts';

const facts = (src: string) => {
  const p = parseSolidity(src);
  return computeFacts(p.ast, src, 'T.sol');
};
const fnOf = (f: ReturnType<typeof facts>, c: string, name: string) => f.contractByName.get(c)!.functions.find((x) => x.name === name)!;

test('argumentFlow follows a value into in-file helpers and flags imported or unimplemented code', () => {
  const f = facts(`pragma solidity ^0.8.0;
import {Base} from "./Base.sol";
abstract contract A is Base {
    function outer(uint256 deadline, uint256 id) external { _mid(deadline); _hook(id); _imported(id); }
    function _mid(uint256 d) internal view { _check(d); }
    function _check(uint256 t) internal view { require(block.timestamp <= t); }
    function _hook(uint256 x) internal virtual;
}
`);
  const outer = fnOf(f, 'A', 'outer');
  assert.deepEqual(
    outer.unresolvedCalls.map((c) => c.name),
    ['_imported'],
  );
  const d = argumentFlow(outer, 'deadline');
  assert.deepEqual(
    d.sites.map((s) => `${s.fn.name}:${s.name}`),
    ['outer:deadline', '_mid:d', '_check:t'],
  );
  assert.equal(d.unresolved, false);
  assert.equal(argumentFlow(outer, 'id').unresolved, true, 'an imported call and a hook without body are out of sight');
  assert.deepEqual(
    reachableFunctions(outer)
      .map((g) => g.name)
      .sort(),
    ['_check', '_hook', '_mid', 'outer'],
  );
});

test('guards: imported modifiers and checks handing the caller to imported code are opaque guards; _msgSender() is the caller', () => {
  const f = facts(`pragma solidity ^0.8.0;
import {Owned} from "./Owned.sol";
contract C is Owned {
    uint256 x;
    function a(uint256 v) external onlyOwner { x = v; }
    function b(uint256 v) external { _checkRole(0x00, _msgSender()); x = v; }
    function c(uint256 v) external { x = v; }
}
contract D {
    address owner;
    uint256 y;
    function d(uint256 v) external { require(_msgSender() == owner); y = v; }
    function _msgSender() internal view returns (address) { return msg.sender; }
}
`);
  assert.equal(fnOf(f, 'C', 'a').opaqueGuard, true);
  assert.equal(fnOf(f, 'C', 'b').opaqueGuard, true);
  assert.equal(fnOf(f, 'C', 'c').senderGuard, false, 'no guard at all stays unguarded');
  assert.equal(fnOf(f, 'D', 'd').senderGuard, true);
  assert.equal(fnOf(f, 'D', 'd').opaqueGuard, false);
});

test('a helper returning msg.sender is the caller, whatever its name; one returning state is not', async () => {
  const src = `pragma solidity ^0.8.0;
contract Ctx {
    address internal admin;
    function _sender() internal view returns (address) { return msg.sender; }
    function _relayed() internal view returns (address) {
        if (msg.data.length >= 20 && msg.sender == admin) return address(bytes20(msg.data[msg.data.length - 20:]));
        return _sender();
    }
    function _msgSender() internal view returns (address) { return admin; }
}
contract Vault is Ctx {
    address public owner;
    uint256 public fee;
    mapping(address => mapping(address => uint256)) internal allowed;
    function setFee(uint256 f) external { require(_relayed() == owner); fee = f; }
    function setFeeToo(uint256 f) external { require(_msgSender() == owner); fee = f; }
    function approve(address spender, uint256 value) external returns (bool) {
        address me = _sender();
        _approve(me, spender, value);
        return true;
    }
    function _approve(address o, address s, uint256 v) internal { allowed[o][s] = v; }
}
`;
  const f = facts(src);
  assert.equal(fnOf(f, 'Ctx', '_sender').returnsCaller, true);
  assert.equal(fnOf(f, 'Ctx', '_relayed').returnsCaller, true, 'an ERC-2771 relayed sender, otherwise the caller');
  assert.equal(fnOf(f, 'Ctx', '_msgSender').returnsCaller, false, 'the name does not make a stored address the caller');
  assert.equal(fnOf(f, 'Vault', 'setFee').senderGuard, true);
  assert.equal(fnOf(f, 'Vault', 'setFeeToo').senderGuard, false);
  const { erc20ApproveRaceDetector } = await import('../../plugins/detector-erc20-approve-race/index.ts');
  const { runDetector, lineOf } = await import('./helpers.ts');
  const found = await runDetector(src, erc20ApproveRaceDetector);
  assert.deepEqual(
    found.map((x) => x.location.line),
    [lineOf(src, 'function approve')],
  );
});

test('rules asking for the caller see it through a context helper and a local', async () => {
  const src = `pragma solidity ^0.8.0;
abstract contract Context {
    function _msgSender() internal view virtual returns (address) { return msg.sender; }
}
contract Game is Context {
    mapping(address => uint256) public plays;
    address public admin;
    function play() external {
        address sender = _msgSender();
        require(tx.origin == sender, "no contracts");
        plays[sender] += 1;
    }
    function adminOnly() external {
        require(tx.origin == admin);
        plays[admin] = 0;
    }
}
`;
  const { txOriginDetector } = await import('../../plugins/detector-tx-origin/index.ts');
  const { runDetector, lineOf } = await import('./helpers.ts');
  const found = await runDetector(src, txOriginDetector);
  assert.deepEqual(
    found.map((x) => x.location.line),
    [lineOf(src, 'require(tx.origin == admin)')],
    'tx.origin == the caller is the no-contract-caller idiom, not authorization',
  );
});

test('an ERC-2771 override deferring to an imported Context is still the caller', () => {
  const f = facts(`pragma solidity ^0.8.0;
import {Context} from "./Context.sol";
abstract contract Relayed is Context {
    address internal forwarder;
    function _msgSender() internal view virtual override returns (address) {
        if (msg.sender == forwarder && msg.data.length >= 20) return address(bytes20(msg.data[msg.data.length - 20:]));
        return super._msgSender();
    }
}
contract Box is Relayed {
    address public owner;
    uint256 public v;
    function set(uint256 x) external { require(_msgSender() == owner); v = x; }
}
`);
  assert.equal(fnOf(f, 'Relayed', '_msgSender').returnsCaller, true);
  assert.equal(fnOf(f, 'Box', 'set').senderGuard, true);
});
