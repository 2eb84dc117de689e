// The typed AST helpers of lib/analysis/static/ast.ts on real parser output: the narrow readers
// for lists the parser types loosely, and the small name/operand accessors detectors share.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  asNodes,
  assignedExpr,
  calleeName,
  contractsOf,
  declaredVariables,
  elementaryName,
  find,
  findAllWithParents,
  firstDeclaredName,
  identName,
  isRequireLike,
  operatorOf,
  parseSolidity,
  returnParameters,
  sameUnitLineage,
  stateVariableTypes,
  text,
  tupleComponents,
  typeText,
  walkWithParents,
  type Node,
} from '../../lib/analysis/static/index.ts';

const SRC = `pragma solidity ^0.8.0;
contract C {
  uint256 public total = 1;
  address owner;
  modifier only() { require(msg.sender == owner); _; }
  function f(address to, uint amount) public only returns (bool ok, uint) {
    (bool sent, ) = to.call{value: amount}("");
    uint x = amount;
    (x, total) = (total, x);
    total += x;
    delete owner;
    g(x);
    this.g(x);
    return (sent, x);
  }
  function g(uint y) public pure returns (uint) { return y; }
}`;

const { ast } = parseSolidity(SRC);
const at = (pred: (n: Node) => boolean): Node => {
  const n = find(ast, pred);
  assert.ok(n, 'node not found');
  return n;
};
const src = (n: Node | null | undefined) => text(SRC, n);

test('asNodes reads contract members and block statements the parser types as BaseASTNode', () => {
  const c = ast.children.find((n) => n.type === 'ContractDefinition');
  assert.ok(c?.type === 'ContractDefinition');
  assert.deepEqual(
    asNodes(c.subNodes).map((n) => n.type),
    ['StateVariableDeclaration', 'StateVariableDeclaration', 'ModifierDefinition', 'FunctionDefinition', 'FunctionDefinition'],
  );
  const f = asNodes(c.subNodes)[3];
  assert.ok(f.type === 'FunctionDefinition' && f.body);
  assert.equal(asNodes(f.body.statements).length, 8);
  assert.deepEqual(
    returnParameters(f).map((p) => p.name),
    ['ok', null],
  );
  const m = asNodes(c.subNodes)[2];
  assert.ok(m.type === 'ModifierDefinition');
  assert.deepEqual(returnParameters(m), []);
});

test('declared variables keep tuple holes; the first declared name is local or state', () => {
  const decl = at((n) => n.type === 'VariableDeclarationStatement' && src(n).startsWith('(bool sent'));
  assert.ok(decl.type === 'VariableDeclarationStatement');
  assert.deepEqual(
    declaredVariables(decl).map((v) => v?.name ?? null),
    ['sent', null],
  );
  assert.equal(firstDeclaredName(decl), 'sent');
  assert.equal(firstDeclaredName(at((n) => n.type === 'StateVariableDeclaration')), 'total');
  assert.equal(firstDeclaredName(at((n) => n.type === 'ExpressionStatement')), null);
});

test('tuple components, assigned operands and operators', () => {
  const swap = at((n) => n.type === 'BinaryOperation' && n.operator === '=' && src(n).startsWith('(x, total)'));
  assert.ok(swap.type === 'BinaryOperation' && swap.left.type === 'TupleExpression');
  assert.deepEqual(
    tupleComponents(swap.left).map((c) => identName(c)),
    ['x', 'total'],
  );
  const add = at((n) => n.type === 'BinaryOperation' && n.operator === '+=');
  assert.equal(identName(assignedExpr(add)), 'total');
  assert.equal(operatorOf(add), '+=');
  const del = at((n) => n.type === 'UnaryOperation' && n.operator === 'delete');
  assert.equal(identName(assignedExpr(del)), 'owner');
  assert.equal(assignedExpr(at((n) => n.type === 'Identifier')), null);
  assert.equal(operatorOf(at((n) => n.type === 'Identifier')), null);
});

test('callee names, elementary type names and require-like calls', () => {
  const direct = at((n) => n.type === 'FunctionCall' && src(n) === 'g(x)');
  const viaThis = at((n) => n.type === 'FunctionCall' && src(n) === 'this.g(x)');
  assert.ok(direct.type === 'FunctionCall' && viaThis.type === 'FunctionCall');
  assert.equal(calleeName(direct.expression), 'g');
  assert.equal(calleeName(viaThis.expression), 'g');
  const req = at((n) => isRequireLike(n));
  assert.ok(req.type === 'FunctionCall');
  assert.equal(calleeName(req.expression), 'require');
  const to = at((n) => n.type === 'VariableDeclaration' && n.name === 'to');
  assert.ok(to.type === 'VariableDeclaration');
  assert.equal(elementaryName(to.typeName), 'address');
  const total = at((n) => n.type === 'VariableDeclaration' && n.name === 'total');
  assert.ok(total.type === 'VariableDeclaration');
  assert.equal(elementaryName(total.typeName), 'uint256');
});

const INHERIT = `pragma solidity ^0.8.0;
contract Base { uint8 shared; address private admin; }
contract Mid is Base { bytes32 shared; mapping(address => uint) balances; }
interface External { function f() external; }
contract Top is Mid, External {
  uint256 total;
  function pay(address to) public {
    if (total > 0) { balances[to] = 0; }
  }
}`;

test('walkWithParents hands each node its ancestors, root first; false skips a subtree', () => {
  const { ast: unit } = parseSolidity(INHERIT);
  const seen: Array<{ type: string; chain: string[] }> = [];
  walkWithParents(unit, (n, parents) => {
    if (n.type === 'FunctionDefinition') return false;
    seen.push({ type: n.type, chain: parents.map((p) => p.type) });
  });
  assert.equal(seen[0].type, 'SourceUnit');
  assert.deepEqual(seen[0].chain, []);
  assert.ok(!seen.some((s) => s.chain.includes('FunctionDefinition')), 'the skipped function body was walked');
  const mapping = seen.find((s) => s.type === 'Mapping');
  assert.deepEqual(mapping?.chain, ['SourceUnit', 'ContractDefinition', 'StateVariableDeclaration', 'VariableDeclaration']);

  const writes = findAllWithParents(unit, (n) => n.type === 'IndexAccess');
  assert.equal(writes.length, 1);
  assert.equal(text(INHERIT, writes[0].node), 'balances[to]');
  assert.deepEqual(
    writes[0].parents.slice(-4).map((p) => p.type),
    ['IfStatement', 'Block', 'ExpressionStatement', 'BinaryOperation'],
  );
  const pay = find(unit, (n) => n.type === 'FunctionDefinition' && n.name === 'pay');
  assert.ok(pay?.type === 'FunctionDefinition' && pay.body);
  const ids = findAllWithParents(pay.body, (n): n is Extract<Node, { type: 'Identifier' }> => n.type === 'Identifier');
  assert.deepEqual(
    ids.map(({ node }) => node.name),
    ['total', 'balances', 'to'],
  );
});

test('contracts of a unit, their same-unit lineage and inherited state variable types', () => {
  const { ast: unit } = parseSolidity(INHERIT);
  const all = contractsOf(unit);
  assert.deepEqual(
    all.map((c) => c.name),
    ['Base', 'Mid', 'External', 'Top'],
  );
  const top = all[3];
  assert.deepEqual(
    sameUnitLineage(unit, top).map((c) => c.name),
    ['Top', 'External', 'Mid', 'Base'],
  );
  const types = stateVariableTypes(unit, top);
  assert.deepEqual(
    [...types].map(([name, t]) => [name, typeText(t)]),
    [
      // The nearer declaration of a shadowed name wins.
      ['shared', 'bytes32'],
      ['admin', 'address'],
      ['balances', 'mapping(address => uint256)'],
      ['total', 'uint256'],
    ],
  );
  assert.deepEqual([...stateVariableTypes(unit, all[0]).keys()], ['shared', 'admin']);
});
