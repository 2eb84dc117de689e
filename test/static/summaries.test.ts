// Inter-procedural summaries: what a function and the helpers it reaches read, write, check and
// consume, with parameters followed through argument passing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeFacts, parseSolidity } from '../../lib/analysis/static/index.ts';

const src = `pragma solidity ^0.8.20;
contract Nonces {
    mapping(address => uint256) private _nonces;
    mapping(bytes32 => bool) public used;
    uint256 public total;
    function _useNonce(address owner) internal returns (uint256) { unchecked { return _nonces[owner]++; } }
    function _checkValidity(uint256 deadline) internal view { require(block.timestamp <= deadline, "expired"); }
    function _mark(bytes32 h) internal { require(!used[h]); used[h] = true; }
    function _outer(address who, uint256 when) internal returns (uint256) { _checkValidity(when); return _useNonce(who); }
    function permit(address owner, uint256 value, uint256 deadline) external returns (uint256 n) {
        n = _outer(owner, deadline);
        total += value;
    }
    function claim(bytes32 id, uint256 amount) external { _mark(id); total -= amount; }
    function plain(address owner, uint256 deadline) external view returns (uint256) { return _nonces[owner] + deadline; }
}`;

const facts = computeFacts(parseSolidity(src).ast, src, 'N.sol');
const fn = (name: string) => facts.contracts[0].ownFunctions.find((f) => f.name === name)!;

test('a nonce stepped two helpers down is consumed by the parameter that keys it', () => {
  const s = fn('permit').summary;
  assert.ok(s.consumes.has('_nonces'));
  assert.deepEqual([...s.consumedByParam], ['owner']);
  assert.ok(s.checkedParams.has('deadline'), 'the deadline is checked in _checkValidity');
  assert.ok(!s.checkedParams.has('value'));
  assert.ok(s.writes.has('_nonces') && s.writes.has('total'));
  assert.ok(fn('_outer').summary.returns.has('_nonces'), 'the helper returns the nonce it read');
});

test('a used-mark set in a helper is consumed and checked', () => {
  const s = fn('claim').summary;
  assert.ok(s.consumes.has('used') && s.checks.has('used'));
  assert.deepEqual([...s.consumedByParam], ['id']);
  assert.ok(!s.consumes.has('total'), 'subtracting an amount is not a step');
});

test('reading without stepping consumes nothing', () => {
  const s = fn('plain').summary;
  assert.equal(s.consumes.size, 0);
  assert.equal(s.checkedParams.size, 0);
  assert.ok(s.returns.has('_nonces'));
});
