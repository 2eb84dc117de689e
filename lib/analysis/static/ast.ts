// Small, dependency-free helpers over @solidity-parser/parser nodes, shared by the fact builder
// and the detectors so every rule recognises `msg.sender`, block values or a low-level call the
// same way.

export type Node = any;

const SKIP_KEYS = new Set(['loc', 'range', 'comments', 'errors', 'tokens']);

export function isNode(x: unknown): x is Node {
  return !!x && typeof x === 'object' && typeof (x as any).type === 'string';
}

/** Direct child nodes in source order (the parser keeps properties in source order). */
export function children(node: Node): Node[] {
  const out: Node[] = [];
  for (const k in node) {
    if (SKIP_KEYS.has(k)) continue;
    const v = node[k];
    if (Array.isArray(v)) {
      for (const c of v) if (isNode(c)) out.push(c);
    } else if (isNode(v)) out.push(v);
  }
  return out;
}

/** Depth-first pre-order walk; return false from fn to skip a subtree. */
export function walk(node: Node, fn: (n: Node, parent: Node) => boolean | void, parent: Node = null): void {
  if (!isNode(node)) return;
  if (fn(node, parent) === false) return;
  for (const c of children(node)) walk(c, fn, node);
}

export function find(node: Node, pred: (n: Node) => boolean): Node {
  let hit: Node = null;
  walk(node, (n) => {
    if (hit) return false;
    if (pred(n)) {
      hit = n;
      return false;
    }
  });
  return hit;
}

export function some(node: Node, pred: (n: Node) => boolean): boolean {
  return find(node, pred) !== null;
}

export function line(node: Node): number {
  return node?.loc?.start?.line ?? 1;
}
export function endLine(node: Node): number {
  return node?.loc?.end?.line ?? line(node);
}

export function text(source: string, node: Node): string {
  if (!node?.range) return '';
  return source.slice(node.range[0], node.range[1] + 1);
}

export function isMember(node: Node, object: string, member: string): boolean {
  return (
    node?.type === 'MemberAccess' && node.memberName === member && node.expression?.type === 'Identifier' && node.expression.name === object
  );
}

/** Strips type conversions like `address(x)`, `uint(x)`, `payable(x)` and parentheses. */
export function unwrap(node: Node): Node {
  let n = node;
  for (;;) {
    if (n?.type === 'TupleExpression' && n.components?.length === 1 && n.components[0]) n = n.components[0];
    else if (n?.type === 'FunctionCall' && n.arguments?.length === 1 && isTypeConversion(n.expression)) n = n.arguments[0];
    else return n;
  }
}

export function isTypeConversion(callee: Node): boolean {
  if (!callee) return false;
  if (callee.type === 'ElementaryTypeName' || callee.type === 'ElementaryTypeNameExpression' || callee.type === 'TypeNameExpression')
    return true;
  if (callee.type === 'Identifier' && callee.name === 'payable') return true;
  return false;
}

/** `msg.sender`, or `_msgSender()`: the meta-transaction-aware caller (OpenZeppelin Context,
 *  ERC-2771), which is msg.sender unless a trusted forwarder relays the call. */
export function isMsgSender(node: Node): boolean {
  const u = unwrap(node);
  if (
    u?.type === 'FunctionCall' &&
    u.expression?.type === 'Identifier' &&
    u.expression.name === '_msgSender' &&
    !(u.arguments ?? []).length
  )
    return true;
  return isMember(u, 'msg', 'sender');
}
export function isTxOrigin(node: Node): boolean {
  return isMember(unwrap(node), 'tx', 'origin');
}

export type BlockValue = 'timestamp' | 'number' | 'blockhash' | 'difficulty' | 'coinbase' | 'gaslimit' | 'prevrandao';

/** Which miner-influenced or public block value a node reads, if any. */
export function blockValue(node: Node): BlockValue | null {
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

export function isHashCall(node: Node): boolean {
  if (node?.type !== 'FunctionCall') return false;
  const c = node.expression;
  return c?.type === 'Identifier' && (c.name === 'keccak256' || c.name === 'sha3' || c.name === 'sha256' || c.name === 'ripemd160');
}

/** `require(...)`, `assert(...)`. */
export function isRequireLike(node: Node): boolean {
  return (
    node?.type === 'FunctionCall' &&
    node.expression?.type === 'Identifier' &&
    (node.expression.name === 'require' || node.expression.name === 'assert')
  );
}

/** Name of the variable at the root of `a`, `a[i]`, `a.b[c].d` (null for calls and literals). */
export function rootName(node: Node): string | null {
  let n = node;
  for (;;) {
    if (!n) return null;
    if (n.type === 'Identifier') return n.name;
    if (n.type === 'IndexAccess') n = n.base;
    else if (n.type === 'IndexRangeAccess') n = n.base;
    else if (n.type === 'MemberAccess') n = n.expression;
    else if (n.type === 'TupleExpression' && n.components?.length === 1) n = n.components[0];
    else return null;
  }
}

/** Literal-only expression (numbers, strings, booleans, arithmetic over them). */
export function isConstantExpr(node: Node, constants?: Set<string>): boolean {
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
      return node.components?.length === 1 && isConstantExpr(node.components[0], constants);
    case 'FunctionCall':
      return isTypeConversion(node.expression) && node.arguments?.length === 1 && isConstantExpr(node.arguments[0], constants);
    default:
      return false;
  }
}

/** Solidity type name as text: `uint256`, `mapping(address => uint256)`, `Foo[]`. */
export function typeText(t: Node): string {
  if (!t) return 'var';
  switch (t.type) {
    case 'ElementaryTypeName':
      return t.name === 'uint' ? 'uint256' : t.name === 'int' ? 'int256' : t.name;
    case 'UserDefinedTypeName':
      return t.namePath;
    case 'Mapping':
      return `mapping(${typeText(t.keyType)} => ${typeText(t.valueType)})`;
    case 'ArrayTypeName':
      return `${typeText(t.baseTypeName)}[${t.length ? '' + (t.length.number ?? '') : ''}]`;
    case 'FunctionTypeName':
      return 'function';
    default:
      return String(t.name ?? t.type);
  }
}

/** Innermost value type of a (nested) mapping. */
export function mappingValueType(t: Node): Node {
  let n = t;
  while (n?.type === 'Mapping') n = n.valueType;
  return n;
}
