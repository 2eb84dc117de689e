// Small, dependency-free helpers over @solidity-parser/parser nodes, shared by the fact builder
// and the detectors so every rule recognises `msg.sender`, block values or a low-level call the
// same way. Nodes carry the parser's own AST types; where those types are looser than what the
// parser builds (lists typed `BaseASTNode`), the narrow guards below say so once instead of a
// cast at every use.
import type * as AST from '@solidity-parser/parser/dist/src/ast-types.js';

export type { AST };
export type Node = AST.ASTNode;
export type NodeType = AST.ASTNodeTypeString;
/** The node interface for one `type` string (`NodeOf<'FunctionCall'>` is `AST.FunctionCall`). */
export type NodeOf<K extends NodeType> = Extract<Node, { type: K }>;
/** What helpers accept where the parser leaves a child out (`falseBody`, `initialValue`, …). */
export type MaybeNode = Node | null | undefined;
/** Anything with a source position (a node, or a report's bare `{ loc }`). */
export type Located = { loc?: AST.Location; range?: [number, number] } | null | undefined;

declare const recognised: unique symbol;
/** A node a recogniser accepted (`isRequireLike`: a FunctionCall). The brand stops TypeScript from
 *  concluding, when the recogniser says no, that the node is not a FunctionCall at all. */
export type Recognised<T> = T & { readonly [recognised]: true };

const SKIP_KEYS = new Set(['loc', 'range', 'comments', 'errors', 'tokens']);

export function isNode(x: unknown): x is Node {
  return !!x && typeof x === 'object' && typeof (x as { type?: unknown }).type === 'string';
}

/** `n` is a node of the given type. */
export function is<K extends NodeType>(n: unknown, type: K): n is NodeOf<K> {
  return isNode(n) && n.type === type;
}

/** Nodes from a list the parser types as `BaseASTNode` (`subNodes`, `statements`, tuple
 *  components, declared variables): every element it builds is one of its AST nodes. */
export function asNodes(list: ReadonlyArray<AST.BaseASTNode | null | undefined> | null | undefined): Node[] {
  const out: Node[] = [];
  for (const x of list ?? []) if (isNode(x)) out.push(x);
  return out;
}

/** One element of such a list, or null (tuple holes, `(, x) = ...`). */
export function asNode(x: AST.BaseASTNode | null | undefined): Node | null {
  return isNode(x) ? x : null;
}

/** The variables of `T a = …` / `(T a, , U b) = …`, holes kept as null (positions matter). */
export function declaredVariables(s: AST.VariableDeclarationStatement): Array<AST.VariableDeclaration | null> {
  return (s.variables ?? []).map((v) => (is(v, 'VariableDeclaration') ? v : null));
}

/** Components of a tuple, holes kept as null. */
export function tupleComponents(t: AST.TupleExpression): Array<Node | null> {
  return (t.components ?? []).map(asNode);
}

/** Direct child nodes in source order (the parser keeps properties in source order). */
export function children(node: Node): Node[] {
  const out: Node[] = [];
  const fields = node as unknown as Record<string, unknown>;
  for (const k in fields) {
    if (SKIP_KEYS.has(k)) continue;
    const v = fields[k];
    if (Array.isArray(v)) {
      for (const c of v) if (isNode(c)) out.push(c);
    } else if (isNode(v)) out.push(v);
  }
  return out;
}

/** Depth-first pre-order walk; return false from fn to skip a subtree. */
export function walk(node: unknown, fn: (n: Node, parent: Node | null) => boolean | void, parent: Node | null = null): void {
  if (!isNode(node)) return;
  if (fn(node, parent) === false) return;
  for (const c of children(node)) walk(c, fn, node);
}

/** Depth-first pre-order walk that hands each node its ancestors (root first, nearest parent
 *  last), for rewrites that need the enclosing statement or block; return false to skip a subtree. */
export function walkWithParents(node: Node, fn: (n: Node, parents: readonly Node[]) => boolean | void, parents: Node[] = []): void {
  if (fn(node, parents) === false) return;
  const next = [...parents, node];
  for (const c of children(node)) walkWithParents(c, fn, next);
}

/** Every node the predicate accepts, in source order, each with its ancestors (a type-guard
 *  predicate narrows the nodes returned). */
export function findAllWithParents<T extends Node>(
  node: Node,
  pred: (n: Node, parents: readonly Node[]) => n is T,
): Array<{ node: T; parents: readonly Node[] }>;
export function findAllWithParents(
  node: Node,
  pred: (n: Node, parents: readonly Node[]) => boolean,
): Array<{ node: Node; parents: readonly Node[] }>;
export function findAllWithParents(
  node: Node,
  pred: (n: Node, parents: readonly Node[]) => boolean,
): Array<{ node: Node; parents: readonly Node[] }> {
  const out: Array<{ node: Node; parents: readonly Node[] }> = [];
  walkWithParents(node, (n, p) => {
    if (pred(n, p)) out.push({ node: n, parents: p });
  });
  return out;
}

/** The contracts (and interfaces, libraries) a source unit declares at top level. */
export function contractsOf(unit: AST.SourceUnit): AST.ContractDefinition[] {
  return unit.children.filter((c): c is AST.ContractDefinition => c.type === 'ContractDefinition');
}

/** A contract and its bases declared in the same unit, nearest first (each once). */
export function sameUnitLineage(unit: AST.SourceUnit, contract: AST.ContractDefinition): AST.ContractDefinition[] {
  const all = contractsOf(unit);
  const out: AST.ContractDefinition[] = [];
  const seen = new Set<string>();
  const visit = (c: AST.ContractDefinition): void => {
    if (seen.has(c.name)) return;
    seen.add(c.name);
    out.push(c);
    for (const b of [...c.baseContracts].reverse()) {
      const base = all.find((x) => x.name === b.baseName.namePath);
      if (base) visit(base);
    }
  };
  visit(contract);
  return out;
}

/** Declared types of a contract's state variables by name, inherited ones from bases in the same
 *  unit included (a nearer contract's declaration wins). */
export function stateVariableTypes(unit: AST.SourceUnit, contract: AST.ContractDefinition): Map<string, AST.TypeName | null> {
  const m = new Map<string, AST.TypeName | null>();
  for (const c of sameUnitLineage(unit, contract).reverse()) {
    for (const s of asNodes(c.subNodes)) {
      if (s.type !== 'StateVariableDeclaration') continue;
      for (const v of s.variables ?? []) if (v?.name) m.set(v.name, v.typeName);
    }
  }
  return m;
}

export function find(node: unknown, pred: (n: Node) => boolean): Node | null {
  let hit: Node | null = null;
  walk(node, (n) => {
    if (hit) return false;
    if (pred(n)) {
      hit = n;
      return false;
    }
  });
  return hit;
}

export function some(node: unknown, pred: (n: Node) => boolean): boolean {
  return find(node, pred) !== null;
}

export function line(node: Located): number {
  return node?.loc?.start?.line ?? 1;
}
export function endLine(node: Located): number {
  return node?.loc?.end?.line ?? line(node);
}

export function text(source: string, node: Located): string {
  if (!node?.range) return '';
  return source.slice(node.range[0], node.range[1] + 1);
}

export function isMember(node: MaybeNode, object: string, member: string): node is Recognised<AST.MemberAccess> {
  return (
    node?.type === 'MemberAccess' && node.memberName === member && node.expression?.type === 'Identifier' && node.expression.name === object
  );
}

/** Strips type conversions like `address(x)`, `uint(x)`, `payable(x)` and parentheses. */
export function unwrap(node: Node): Node;
export function unwrap(node: MaybeNode): MaybeNode;
export function unwrap(node: MaybeNode): MaybeNode {
  let n = node;
  for (;;) {
    if (n?.type === 'TupleExpression' && n.components?.length === 1 && n.components[0]) n = asNode(n.components[0]);
    else if (n?.type === 'FunctionCall' && n.arguments?.length === 1 && isTypeConversion(n.expression)) n = n.arguments[0];
    else return n;
  }
}

export function isTypeConversion(callee: MaybeNode): boolean {
  if (!callee) return false;
  // `uint(x)`, `address(x)`: this parser gives the callee as an ElementaryTypeName.
  if (callee.type === 'ElementaryTypeName') return true;
  if (callee.type === 'Identifier' && callee.name === 'payable') return true;
  return false;
}

/** Zero-argument calls the facts resolved to a function of the file: whether that function
 *  returns the caller (a context helper such as OpenZeppelin's `_msgSender()`, whatever its name).
 *  Filled by the context-sender pass of computeFacts; keyed by the call node of one parse. */
const callerCalls = new WeakMap<Node, boolean>();
export function markCallerCall(call: Node, returnsCaller: boolean): void {
  callerCalls.set(call, returnsCaller);
}

/** `msg.sender`, or a call to a context helper that returns it: an in-file function the facts
 *  found returning the caller (ERC-2771 `_msgSender()` or any other name), or, when the file does
 *  not define the callee (an imported Context), `_msgSender()` by the library's API name. */
export function isMsgSender(node: MaybeNode): boolean {
  const u = unwrap(node);
  if (u?.type === 'FunctionCall' && !(u.arguments ?? []).length) {
    const known = callerCalls.get(u);
    if (known !== undefined) return known;
    const e = u.expression;
    if ((e?.type === 'Identifier' && e.name === '_msgSender') || (e?.type === 'MemberAccess' && e.memberName === '_msgSender')) return true;
  }
  return isMember(u, 'msg', 'sender');
}
export function isTxOrigin(node: MaybeNode): boolean {
  return isMember(unwrap(node), 'tx', 'origin');
}

export type BlockValue = 'timestamp' | 'number' | 'blockhash' | 'difficulty' | 'coinbase' | 'gaslimit' | 'prevrandao';

/** Which miner-influenced or public block value a node reads, if any. */
export function blockValue(node: MaybeNode): BlockValue | null {
  if (!node) return null;
  if (node.type === 'Identifier' && node.name === 'now') return 'timestamp';
  if (node.type === 'MemberAccess' && node.expression?.type === 'Identifier' && node.expression.name === 'block') {
    const m = node.memberName;
    if (m === 'timestamp' || m === 'number' || m === 'difficulty' || m === 'coinbase' || m === 'gaslimit' || m === 'prevrandao') return m;
    return null;
  }
  if (node.type === 'FunctionCall') {
    const c = node.expression;
    if ((c?.type === 'Identifier' && c.name === 'blockhash') || isMember(c, 'block', 'blockhash')) return 'blockhash';
  }
  return null;
}

export function isHashCall(node: MaybeNode): node is Recognised<AST.FunctionCall> {
  if (node?.type !== 'FunctionCall') return false;
  const c = node.expression;
  return c?.type === 'Identifier' && (c.name === 'keccak256' || c.name === 'sha3' || c.name === 'sha256' || c.name === 'ripemd160');
}

const ASSIGNMENT_OPERATORS = new Set(['=', '+=', '-=', '*=', '/=', '%=', '|=', '&=', '^=', '<<=', '>>=']);
/** Whether a BinaryOperation's operator assigns (`=` and every compound assignment). */
export function isAssignmentOperator(op: string): boolean {
  return ASSIGNMENT_OPERATORS.has(op);
}

/** `require(...)`, `assert(...)`. */
export function isRequireLike(node: MaybeNode): node is Recognised<AST.FunctionCall> {
  return (
    node?.type === 'FunctionCall' &&
    node.expression?.type === 'Identifier' &&
    (node.expression.name === 'require' || node.expression.name === 'assert')
  );
}

/** Name of the variable at the root of `a`, `a[i]`, `a.b[c].d` (null for calls and literals). */
export function rootName(node: MaybeNode): string | null {
  let n = node;
  for (;;) {
    if (!n) return null;
    if (n.type === 'Identifier') return n.name;
    if (n.type === 'IndexAccess') n = n.base;
    else if (n.type === 'IndexRangeAccess') n = n.base;
    else if (n.type === 'MemberAccess') n = n.expression;
    else if (n.type === 'TupleExpression' && n.components?.length === 1) n = asNode(n.components[0]);
    else return null;
  }
}

/** Literal-only expression (numbers, strings, booleans, arithmetic over them). */
export function isConstantExpr(node: MaybeNode, constants?: Set<string>): boolean {
  if (!node) return false;
  switch (node.type) {
    case 'NumberLiteral':
    case 'BooleanLiteral':
    case 'StringLiteral':
    case 'HexLiteral':
      return true;
    case 'Identifier':
      return !!constants?.has(node.name);
    case 'BinaryOperation':
      return isConstantExpr(node.left, constants) && isConstantExpr(node.right, constants);
    case 'UnaryOperation':
      return isConstantExpr(node.subExpression, constants);
    case 'TupleExpression':
      return node.components?.length === 1 && isConstantExpr(asNode(node.components[0]), constants);
    case 'FunctionCall':
      return isTypeConversion(node.expression) && node.arguments?.length === 1 && isConstantExpr(node.arguments[0], constants);
    default:
      return false;
  }
}

/** Solidity type name as text: `uint256`, `mapping(address => uint256)`, `Foo[]`. */
export function typeText(t: MaybeNode): string {
  if (!t) return 'var';
  switch (t.type) {
    case 'ElementaryTypeName':
      return t.name === 'uint' ? 'uint256' : t.name === 'int' ? 'int256' : t.name;
    case 'UserDefinedTypeName':
      return t.namePath;
    case 'Mapping':
      return `mapping(${typeText(t.keyType)} => ${typeText(t.valueType)})`;
    case 'ArrayTypeName':
      return `${typeText(t.baseTypeName)}[${t.length ? '' + ((t.length as { number?: string }).number ?? '') : ''}]`;
    case 'FunctionTypeName':
      return 'function';
    default:
      return String(('name' in t ? t.name : null) ?? t.type);
  }
}

/** Innermost value type of a (nested) mapping. */
export function mappingValueType(t: MaybeNode): MaybeNode {
  let n = t;
  while (n?.type === 'Mapping') n = n.valueType;
  return n;
}

/** Struct members on the path of an lvalue/expression, outermost first (`a[i].b.c[0]` → [c, b]). */
export function memberPath(node: MaybeNode): string[] {
  const out: string[] = [];
  let n = node;
  while (n) {
    if (n.type === 'MemberAccess') {
      out.push(n.memberName);
      n = n.expression;
    } else if (n.type === 'IndexAccess' || n.type === 'IndexRangeAccess') n = n.base;
    else if (n.type === 'TupleExpression' && n.components?.length === 1) n = asNode(n.components[0]);
    else break;
  }
  return out;
}

/** Source offsets of a node (the engine always parses with `range`). */
export function startOf(n: Located): number {
  return n?.range?.[0] ?? 0;
}
export function endOf(n: Located): number {
  return n?.range?.[1] ?? 0;
}

/** The name an Identifier node carries, else null. */
export function identName(n: MaybeNode): string | null {
  return n?.type === 'Identifier' ? n.name : null;
}

/** Name of the first variable a local or state declaration declares (`uint a = …` → a). */
export function firstDeclaredName(n: MaybeNode): string | null {
  if (n?.type === 'VariableDeclarationStatement') return declaredVariables(n)[0]?.name ?? null;
  if (n?.type === 'StateVariableDeclaration') return n.variables?.[0]?.name ?? null;
  return null;
}

/** Named or unnamed return parameters of a function (a modifier has none). */
export function returnParameters(n: AST.FunctionDefinition | AST.ModifierDefinition): AST.VariableDeclaration[] {
  return n.type === 'FunctionDefinition' ? (n.returnParameters ?? []) : [];
}

/** Name of an elementary type (`address`, `uint256`), null for any other type. */
export function elementaryName(t: MaybeNode): string | null {
  return t?.type === 'ElementaryTypeName' ? t.name : null;
}

/** The operator of a binary or unary operation, else null. */
export function operatorOf(n: MaybeNode): string | null {
  return n?.type === 'BinaryOperation' || n?.type === 'UnaryOperation' ? n.operator : null;
}

/** What an assignment or an update writes: the left side of `a = b` / `a += b`, the operand of
 *  `a++` / `delete a`; null for other nodes. */
export function assignedExpr(n: MaybeNode): Node | null {
  if (n?.type === 'BinaryOperation') return n.left;
  if (n?.type === 'UnaryOperation') return n.subExpression;
  return null;
}

/** The function name a call's callee names: `f` in `f(…)`, `g` in `x.g(…)`; else null. */
export function calleeName(e: MaybeNode): string | null {
  if (e?.type === 'Identifier') return e.name;
  if (e?.type === 'MemberAccess') return e.memberName;
  return null;
}

/** A statement that always leaves the function: return, revert, throw, or a block ending in one. */
export function alwaysLeaves(s: MaybeNode): boolean {
  if (!s) return false;
  if (s.type === 'ReturnStatement' || s.type === 'ThrowStatement' || s.type === 'RevertStatement') return true;
  if (
    s.type === 'ExpressionStatement' &&
    s.expression?.type === 'FunctionCall' &&
    s.expression.expression?.type === 'Identifier' &&
    s.expression.expression.name === 'revert'
  )
    return true;
  if (s.type === 'Block') return alwaysLeaves(asNodes(s.statements).at(-1));
  return false;
}
