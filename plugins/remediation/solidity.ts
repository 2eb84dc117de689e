// Solidity facts the fixes need: where a finding lives (contract, function or modifier), which
// names are state variables, what type an operand has, and whether a call leaves the contract.
import { findAll, isNode, span, walk, type Node } from './source.ts';

export function contracts(ast: Node): Node[] {
  return (ast.children ?? []).filter((c: Node) => c.type === 'ContractDefinition');
}

export function contractByName(ast: Node, name: string): Node | undefined {
  return contracts(ast).find((c) => c.name === name);
}

/** The contract and its bases declared in the same file, nearest first. */
export function lineage(ast: Node, c: Node): Node[] {
  const out: Node[] = [];
  const seen = new Set<string>();
  const visit = (n: Node) => {
    if (seen.has(n.name)) return;
    seen.add(n.name);
    out.push(n);
    for (const b of [...(n.baseContracts ?? [])].reverse()) {
      const base = contractByName(ast, b.baseName?.namePath);
      if (base) visit(base);
    }
  };
  visit(c);
  return out;
}

export type Callable = Node & { type: 'FunctionDefinition' | 'ModifierDefinition' };

function within(n: Node, line: number): boolean {
  return !!n.loc && n.loc.start.line <= line && line <= n.loc.end.line;
}

/** Resolves a finding's location to its contract and function/modifier in the current source. */
export function locate(
  ast: Node,
  loc: { line: number; contract?: string | null; function?: string | null },
): { contract: Node | null; fn: Callable | null } {
  const fnName = loc.function ? loc.function.replace(/\(.*$/, '').trim() : null;
  const byLine = contracts(ast).find((c) => within(c, loc.line)) ?? null;
  const contract = (loc.contract ? contractByName(ast, loc.contract) : null) ?? byLine;
  if (!contract) return { contract: null, fn: null };
  const callables = (contract.subNodes as Node[]).filter(
    (s) => s.type === 'FunctionDefinition' || s.type === 'ModifierDefinition',
  ) as Callable[];
  const containing = callables.find((f) => within(f, loc.line));
  if (containing && (!fnName || callableName(containing) === fnName || fnName === 'constructor' || fnName === 'fallback'))
    return { contract, fn: containing };
  if (fnName) {
    const named = callables.filter((f) => callableName(f) === fnName);
    if (named.length === 1) return { contract, fn: named[0] };
    const near = named.find((f) => within(f, loc.line));
    if (near) return { contract, fn: near };
  }
  return { contract, fn: containing ?? null };
}

export function callableName(f: Node): string {
  if (f.type === 'ModifierDefinition') return f.name;
  if (f.isConstructor) return 'constructor';
  if (f.isFallback) return 'fallback';
  if (f.isReceiveEther) return 'receive';
  return f.name ?? '';
}

export function stateVarTypes(ast: Node, contract: Node): Map<string, Node> {
  const m = new Map<string, Node>();
  for (const c of [...lineage(ast, contract)].reverse()) {
    for (const s of c.subNodes as Node[]) {
      if (s.type !== 'StateVariableDeclaration') continue;
      for (const v of s.variables ?? []) if (v?.name) m.set(v.name, v.typeName);
    }
  }
  return m;
}

/** Parameters, return variables and locals of a function, by name. */
export function localTypes(fn: Node | null): Map<string, Node> {
  const m = new Map<string, Node>();
  if (!fn) return m;
  for (const p of [...(fn.parameters ?? []), ...(fn.returnParameters ?? [])]) if (p?.name) m.set(p.name, p.typeName);
  if (fn.body) {
    walk(fn.body, (n) => {
      if (n.type === 'VariableDeclarationStatement') for (const v of n.variables ?? []) if (v?.name) m.set(v.name, v.typeName);
    });
  }
  return m;
}

export function structFields(ast: Node): Map<string, Map<string, Node>> {
  const out = new Map<string, Map<string, Node>>();
  walk(ast, (n) => {
    if (n.type === 'StructDefinition') out.set(n.name, new Map((n.members ?? []).map((m: Node) => [m.name, m.typeName])));
  });
  return out;
}

/** The root identifier an lvalue writes (balances in balances[a].x), or null. */
export function rootIdentifier(n: Node | null | undefined): string | null {
  let cur = n;
  while (cur) {
    if (cur.type === 'Identifier') return cur.name;
    if (cur.type === 'IndexAccess') cur = cur.base;
    else if (cur.type === 'MemberAccess') cur = cur.expression;
    else return null;
  }
  return null;
}

const ASSIGN_OPS = new Set(['=', '+=', '-=', '*=', '/=', '%=', '|=', '&=', '^=', '<<=', '>>=']);

/** Names written by a statement: assignments, ++/--, delete (roots only). */
export function writtenNames(n: Node): Set<string> {
  const out = new Set<string>();
  walk(n, (x) => {
    if (x.type === 'BinaryOperation' && ASSIGN_OPS.has(x.operator)) {
      const lhs = x.left?.type === 'TupleExpression' ? x.left.components : [x.left];
      for (const l of lhs) {
        const r = rootIdentifier(l);
        if (r) out.add(r);
      }
    } else if (x.type === 'UnaryOperation' && (x.operator === '++' || x.operator === '--' || x.operator === 'delete')) {
      const r = rootIdentifier(x.subExpression);
      if (r) out.add(r);
    }
  });
  return out;
}

export function referencedNames(n: Node): Set<string> {
  const out = new Set<string>();
  walk(n, (x) => {
    if (x.type === 'Identifier') out.add(x.name);
  });
  return out;
}

export function declaredNames(n: Node): Set<string> {
  const out = new Set<string>();
  walk(n, (x) => {
    if (x.type === 'VariableDeclarationStatement') for (const v of x.variables ?? []) if (v?.name) out.add(v.name);
  });
  return out;
}

const LOW_LEVEL = new Set(['call', 'send', 'delegatecall', 'callcode', 'staticcall']);

/** `x.call(...)`, `x.call.value(v)(...)`, `x.call{value: v}(...)`, `x.send(v)`, `x.delegatecall(...)`. */
export function lowLevelKind(call: Node): string | null {
  if (call.type !== 'FunctionCall') return null;
  let e = call.expression;
  if (e?.type === 'NameValueExpression') e = e.expression;
  if (e?.type === 'MemberAccess' && LOW_LEVEL.has(e.memberName)) return e.memberName;
  // x.call.value(v)(...) / x.call.gas(g)(...): the outer call's callee is itself a call of .value/.gas
  if (
    e?.type === 'FunctionCall' &&
    e.expression?.type === 'MemberAccess' &&
    (e.expression.memberName === 'value' || e.expression.memberName === 'gas')
  ) {
    const inner = e.expression.expression;
    if (inner?.type === 'MemberAccess' && LOW_LEVEL.has(inner.memberName)) return inner.memberName;
    if (inner?.type === 'FunctionCall') return lowLevelKind({ ...inner, type: 'FunctionCall' });
  }
  return null;
}

/** The outermost FunctionCall node of a chained low-level call (x.call.value(v)() is two calls). */
export function isOutermostCall(n: Node, parents: Node[]): boolean {
  const p = parents[parents.length - 1];
  return !(p && p.type === 'FunctionCall' && p.expression === n);
}

/** Calls that hand control to another contract: low-level calls, transfer, and calls on contract-typed values. */
export function isExternalCall(n: Node, parents: Node[], types: (e: Node) => Node | null): boolean {
  if (n.type !== 'FunctionCall' || !isOutermostCall(n, parents)) return false;
  if (lowLevelKind(n)) return true;
  let e = n.expression;
  if (e?.type === 'NameValueExpression') e = e.expression;
  if (e?.type === 'FunctionCall' && e.expression?.type === 'MemberAccess' && ['value', 'gas'].includes(e.expression.memberName))
    e = e.expression.expression;
  if (e?.type !== 'MemberAccess') return false;
  if (e.memberName === 'transfer' && e.expression && isAddressy(e.expression, types)) return true;
  const base = e.expression;
  if (!base || (base.type === 'Identifier' && (base.name === 'this' || base.name === 'super'))) return false;
  const t = types(base);
  return !!t && t.type === 'UserDefinedTypeName';
}

function isAddressy(e: Node, types: (e: Node) => Node | null): boolean {
  if (e.type === 'MemberAccess' && e.expression?.type === 'Identifier' && ['msg', 'tx'].includes(e.expression.name)) return true;
  const t = types(e);
  return !!t && t.type === 'ElementaryTypeName' && String(t.name).startsWith('address');
}

const UINT_MEMBERS = new Set([
  'value',
  'timestamp',
  'number',
  'gas',
  'gasprice',
  'balance',
  'length',
  'difficulty',
  'gaslimit',
  'chainid',
  'basefee',
  'prevrandao',
]);

/** Static type of a simple expression, or null when it cannot be told without the compiler. */
export function typeResolver(ast: Node, contract: Node | null, fn: Node | null): (e: Node) => Node | null {
  const state = contract ? stateVarTypes(ast, contract) : new Map<string, Node>();
  const locals = localTypes(fn);
  const structs = structFields(ast);
  const uint: Node = { type: 'ElementaryTypeName', name: 'uint256' };
  const resolve = (e: Node): Node | null => {
    switch (e.type) {
      case 'Identifier':
        if (e.name === 'now') return uint;
        return locals.get(e.name) ?? state.get(e.name) ?? null;
      case 'NumberLiteral':
        return { type: 'ElementaryTypeName', name: 'uint256', literal: true };
      case 'IndexAccess': {
        const b = resolve(e.base);
        if (!b) return null;
        if (b.type === 'Mapping') return b.valueType;
        if (b.type === 'ArrayTypeName') return b.baseTypeName;
        return null;
      }
      case 'MemberAccess': {
        if (e.expression?.type === 'Identifier' && ['msg', 'block', 'tx'].includes(e.expression.name)) {
          return UINT_MEMBERS.has(e.memberName) ? uint : { type: 'ElementaryTypeName', name: 'address' };
        }
        if (UINT_MEMBERS.has(e.memberName) && (e.memberName === 'length' || e.memberName === 'balance')) return uint;
        const b = resolve(e.expression);
        if (b?.type === 'UserDefinedTypeName') return structs.get(String(b.namePath).split('.').pop()!)?.get(e.memberName) ?? null;
        return null;
      }
      case 'TupleExpression':
        return e.components?.length === 1 && e.components[0] ? resolve(e.components[0]) : null;
      case 'BinaryOperation':
        if (['+', '-', '*', '/', '%'].includes(e.operator)) {
          const l = resolve(e.left);
          const r = resolve(e.right);
          if (l && !l.literal) return l;
          return r;
        }
        return null;
      default:
        return null;
    }
  };
  return resolve;
}

export function isUnsigned(t: Node | null): boolean {
  return !!t && t.type === 'ElementaryTypeName' && /^uint\d*$/.test(String(t.name));
}

/** True when evaluating the expression twice cannot change anything (no calls, writes or ++). */
export function sideEffectFree(e: Node): boolean {
  let ok = true;
  walk(e, (x) => {
    if (
      x.type === 'FunctionCall' ||
      (x.type === 'UnaryOperation' && ['++', '--', 'delete'].includes(x.operator)) ||
      (x.type === 'BinaryOperation' && ASSIGN_OPS.has(x.operator))
    )
      ok = false;
  });
  return ok;
}

/** Nearest enclosing statement that sits directly in a Block, with that Block. */
export function statementInBlock(parents: Node[], node: Node): { stmt: Node; block: Node; index: number } | null {
  const chain = [...parents, node];
  for (let i = chain.length - 1; i > 0; i--) {
    const p = chain[i - 1];
    if (p.type === 'Block' || p.type === 'UncheckedStatement') {
      const block = p.type === 'Block' ? p : p.block;
      const idx = (block.statements as Node[]).indexOf(chain[i]);
      if (idx >= 0) return { stmt: chain[i], block, index: idx };
    }
  }
  return null;
}

/** Nearest enclosing statement of any kind (for if-bodies without braces). */
export function enclosingStatement(parents: Node[], node: Node): { stmt: Node; parent: Node | null } | null {
  const chain = [...parents, node];
  for (let i = chain.length - 1; i >= 0; i--) {
    if (/Statement$/.test(chain[i].type) && chain[i].type !== 'UncheckedStatement') return { stmt: chain[i], parent: chain[i - 1] ?? null };
  }
  return null;
}

export function modifierNames(fn: Node): string[] {
  return (fn.modifiers ?? []).map((m: Node) => m.name);
}

export function hasModifierDefinition(ast: Node, name: string): boolean {
  return findAll(ast, (n) => n.type === 'ModifierDefinition' && n.name === name).length > 0;
}

export { span, isNode };
