// Solidity facts the fixes need: where a finding lives (contract, function or modifier), which
// names are state variables, what type an operand has, and whether a call leaves the contract.
import {
  asNodes,
  contractsOf,
  declaredVariables,
  returnParameters,
  some,
  stateVariableTypes,
  tupleComponents,
  walk,
  type AST,
  type Node,
} from '../../lib/analysis/static/ast.ts';

export type Callable = AST.FunctionDefinition | AST.ModifierDefinition;
/** A declared or inferred operand type; `literal` marks a bare number (its type adapts to the other operand). */
export type Ty = AST.TypeName & { literal?: boolean };

function within(n: Node, line: number): boolean {
  return !!n.loc && n.loc.start.line <= line && line <= n.loc.end.line;
}

/** Resolves a finding's location to its contract and function/modifier in the current source. */
export function locate(
  ast: AST.SourceUnit,
  loc: { line: number; contract?: string | null; function?: string | null },
): { contract: AST.ContractDefinition | null; fn: Callable | null } {
  const fnName = loc.function ? loc.function.replace(/\(.*$/, '').trim() : null;
  const all = contractsOf(ast);
  const byLine = all.find((c) => within(c, loc.line)) ?? null;
  const contract = (loc.contract ? all.find((c) => c.name === loc.contract) : null) ?? byLine;
  if (!contract) return { contract: null, fn: null };
  const callables = asNodes(contract.subNodes).filter(
    (s): s is Callable => s.type === 'FunctionDefinition' || s.type === 'ModifierDefinition',
  );
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

export function callableName(f: Callable): string {
  if (f.type === 'ModifierDefinition') return f.name;
  if (f.isConstructor) return 'constructor';
  if (f.isFallback) return 'fallback';
  if (f.isReceiveEther) return 'receive';
  return f.name ?? '';
}

/** Parameters, return variables and locals of a function, by name. */
export function localTypes(fn: Callable | null): Map<string, Ty | null> {
  const m = new Map<string, Ty | null>();
  if (!fn) return m;
  for (const p of [...(fn.parameters ?? []), ...returnParameters(fn)]) if (p?.name) m.set(p.name, p.typeName);
  if (fn.body) {
    walk(fn.body, (n) => {
      if (n.type === 'VariableDeclarationStatement') for (const v of declaredVariables(n)) if (v?.name) m.set(v.name, v.typeName);
    });
  }
  return m;
}

export function structFields(ast: Node): Map<string, Map<string | null, Ty | null>> {
  const out = new Map<string, Map<string | null, Ty | null>>();
  walk(ast, (n) => {
    if (n.type === 'StructDefinition') out.set(n.name, new Map((n.members ?? []).map((m) => [m.name, m.typeName])));
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
      const lhs = x.left?.type === 'TupleExpression' ? tupleComponents(x.left) : [x.left];
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
    if (x.type === 'VariableDeclarationStatement') for (const v of declaredVariables(x)) if (v?.name) out.add(v.name);
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
    if (inner?.type === 'FunctionCall') return lowLevelKind(inner);
  }
  return null;
}

/** The outermost FunctionCall node of a chained low-level call (x.call.value(v)() is two calls). */
export function isOutermostCall(n: Node, parents: readonly Node[]): boolean {
  const p = parents[parents.length - 1];
  return !(p && p.type === 'FunctionCall' && p.expression === n);
}

/** Calls that hand control to another contract: low-level calls, transfer, and calls on contract-typed values. */
export function isExternalCall(n: Node, parents: readonly Node[], types: (e: Node) => Ty | null): boolean {
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

function isAddressy(e: Node, types: (e: Node) => Ty | null): boolean {
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
export function typeResolver(ast: AST.SourceUnit, contract: AST.ContractDefinition | null, fn: Callable | null): (e: Node) => Ty | null {
  const state = contract ? stateVariableTypes(ast, contract) : new Map<string, Ty | null>();
  const locals = localTypes(fn);
  const structs = structFields(ast);
  const elementary = (name: string, literal?: boolean): Ty =>
    literal
      ? { type: 'ElementaryTypeName', name, stateMutability: null, literal }
      : { type: 'ElementaryTypeName', name, stateMutability: null };
  const uint = elementary('uint256');
  const resolve = (e: Node): Ty | null => {
    switch (e.type) {
      case 'Identifier':
        if (e.name === 'now') return uint;
        return locals.get(e.name) ?? state.get(e.name) ?? null;
      case 'NumberLiteral':
        return elementary('uint256', true);
      case 'IndexAccess': {
        const b = resolve(e.base);
        if (!b) return null;
        if (b.type === 'Mapping') return b.valueType;
        if (b.type === 'ArrayTypeName') return b.baseTypeName;
        return null;
      }
      case 'MemberAccess': {
        if (e.expression?.type === 'Identifier' && ['msg', 'block', 'tx'].includes(e.expression.name)) {
          return UINT_MEMBERS.has(e.memberName) ? uint : elementary('address');
        }
        if (UINT_MEMBERS.has(e.memberName) && (e.memberName === 'length' || e.memberName === 'balance')) return uint;
        const b = resolve(e.expression);
        if (b?.type === 'UserDefinedTypeName') return structs.get(String(b.namePath).split('.').pop()!)?.get(e.memberName) ?? null;
        return null;
      }
      case 'TupleExpression': {
        const only = tupleComponents(e);
        return only.length === 1 && only[0] ? resolve(only[0]) : null;
      }
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

export function isUnsigned(t: Ty | null): boolean {
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
export function statementInBlock(parents: readonly Node[], node: Node): { stmt: Node; block: AST.Block; index: number } | null {
  const chain = [...parents, node];
  for (let i = chain.length - 1; i > 0; i--) {
    const p = chain[i - 1];
    if (p.type === 'Block' || p.type === 'UncheckedStatement') {
      const block = p.type === 'Block' ? p : p.block;
      const idx = asNodes(block.statements).indexOf(chain[i]);
      if (idx >= 0) return { stmt: chain[i], block, index: idx };
    }
  }
  return null;
}

/** Nearest enclosing statement of any kind (for if-bodies without braces). */
export function enclosingStatement(parents: readonly Node[], node: Node): { stmt: Node; parent: Node | null } | null {
  const chain = [...parents, node];
  for (let i = chain.length - 1; i >= 0; i--) {
    if (/Statement$/.test(chain[i].type) && chain[i].type !== 'UncheckedStatement') return { stmt: chain[i], parent: chain[i - 1] ?? null };
  }
  return null;
}

export function modifierNames(fn: Callable): string[] {
  return fn.type === 'FunctionDefinition' ? fn.modifiers.map((m) => m.name) : [];
}

export function hasModifierDefinition(ast: Node, name: string): boolean {
  return some(ast, (n) => n.type === 'ModifierDefinition' && n.name === name);
}
