// domain-separator-collision: the selector arithmetic the rule rests on (a real 4-byte collision
// takes ~2^32 hashes to find, so the fixture covers the wrong-type shapes and this test the maths).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { asNodes, canonicalType, parseSolidity, selectorOf } from '../../lib/analysis/static/index.ts';
import { DOMAIN_SEPARATOR_SELECTOR } from '../../plugins/detector-domain-separator-collision/index.ts';

test('selectors of canonical signatures', () => {
  assert.equal(selectorOf('DOMAIN_SEPARATOR()'), DOMAIN_SEPARATOR_SELECTOR);
  assert.equal(selectorOf('transfer(address,uint256)'), 'a9059cbb');
});

test('parameter types are canonicalised as the ABI hashes them', () => {
  const { ast } = parseSolidity('contract C { function f(uint a, int b, byte c, uint[] d, address[3] e, bytes32 g) public {} }');
  const c = ast.children[0];
  const fn = c.type === 'ContractDefinition' ? asNodes(c.subNodes)[0] : null;
  assert.ok(fn?.type === 'FunctionDefinition');
  assert.deepEqual(
    fn.parameters.map((p) => canonicalType(p.typeName)),
    ['uint256', 'int256', 'bytes1', 'uint256[]', 'address[3]', 'bytes32'],
  );
});
