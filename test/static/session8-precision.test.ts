// Session 8 precision rules (issue 19): each test puts the weak shape (must be flagged) next to the
// shape the rule now recognises as harmless, so a rule cannot pass by going silent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lineOf, runDetector as run } from './helpers.ts';
import { integerOverflowDetector } from '../../plugins/detector-integer-overflow/index.ts';

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
