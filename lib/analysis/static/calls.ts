// Calls (used by the body pass, and its own pass after it): which FunctionCall nodes leave the
// contract (low-level calls, ether transfers, message calls into contract-typed values), whether
// their result is looked at, and which functions an internal call or a modifier invocation runs.
import { declaredVariables, endLine, identName, isRequireLike, line, text, tupleComponents, walk, type AST, type Node } from './ast.ts';
import type { FileScope } from './declarations.ts';
import type { CallKind, ContractFacts, ExternalCall, FunctionFacts } from './facts.ts';
import type { Typing } from './typing.ts';

type LowLevel = 'call' | 'delegatecall' | 'callcode' | 'staticcall' | 'send' | 'transfer';
const LOW_LEVEL = new Set<string>(['call', 'delegatecall', 'callcode', 'staticcall', 'send', 'transfer']);
const isLowLevel = (m: string): m is LowLevel => LOW_LEVEL.has(m);
const isRawCall = (m: string): m is 'call' | 'delegatecall' | 'callcode' => m === 'call' || m === 'delegatecall' || m === 'callcode';

/** Recognises low-level calls, ether transfers and calls into other contracts. */
export function classifyCall(
  scope: FileScope,
  types: Typing,
  n: AST.FunctionCall,
  f: FunctionFacts,
  cf: ContractFacts,
): ExternalCall | null {
  const { innerCallNodes, parent, source } = scope;
  const ex = n.expression;
  if (
    ex?.type === 'MemberAccess' &&
    (ex.memberName === 'value' || ex.memberName === 'gas') &&
    ex.expression?.type === 'MemberAccess' &&
    isRawCall(ex.expression.memberName)
  ) {
    const p = parent(n);
    if (!(p?.type === 'FunctionCall' && p.expression === n)) {
      const target = ex.expression.expression;
      return {
        node: n,
        kind: ex.expression.memberName,
        target,
        targetText: text(source, target),
        value: ex.memberName === 'value' ? (n.arguments?.[0] ?? null) : null,
        member: null,
        checked: false,
        notInvoked: true,
        inLoop: false,
        line: line(n),
        endLine: endLine(n),
        contract: cf.name,
        function: f.name,
      };
    }
  }
  let callee: AST.Expression = n.expression;
  let value: AST.Expression | null = null;
  // Peel `.value(x)` / `.gas(x)` chains and `{value: x, gas: y}` options.
  const chain: Node[] = [];
  for (;;) {
    if (callee?.type === 'NameValueExpression') {
      const names: string[] = callee.arguments?.names ?? [];
      const args: AST.Expression[] = callee.arguments?.arguments ?? [];
      const vi = names.indexOf('value');
      if (vi >= 0) value = args[vi];
      callee = callee.expression;
      continue;
    }
    if (
      callee?.type === 'FunctionCall' &&
      callee.expression?.type === 'MemberAccess' &&
      (callee.expression.memberName === 'value' || callee.expression.memberName === 'gas')
    ) {
      if (callee.expression.memberName === 'value') value = callee.arguments?.[0] ?? null;
      chain.push(callee);
      callee = callee.expression.expression;
      continue;
    }
    break;
  }
  if (callee?.type !== 'MemberAccess') return null;
  const member: string = callee.memberName;
  const target = callee.expression;
  const base = {
    node: n,
    target,
    targetText: text(source, target),
    checked: false,
    inLoop: false,
    line: line(n),
    endLine: endLine(n),
    contract: cf.name,
    function: f.name,
  };
  if (isLowLevel(member)) {
    if (member === 'transfer' || member === 'send') {
      // address.transfer(v) / send(v) take one argument; token.transfer(to, v) is a contract call.
      if ((n.arguments ?? []).length !== 1 || types.isContractTyped(target, f, cf)) {
        return { ...base, kind: 'external', value, member };
      }
      for (const c of chain) innerCallNodes.add(c);
      return { ...base, kind: member, value: n.arguments[0], member: null };
    }
    if (types.isContractTyped(target, f, cf)) return { ...base, kind: 'external', value, member };
    for (const c of chain) innerCallNodes.add(c);
    return { ...base, kind: member satisfies CallKind, value, member: null };
  }
  if (types.isContractTyped(target, f, cf)) {
    for (const c of chain) innerCallNodes.add(c);
    return { ...base, kind: 'external', value, member };
  }
  return null;
}

/** Whether the result of a call is looked at. */
export function isChecked(scope: FileScope, n: Node, f: FunctionFacts): boolean {
  const { parent } = scope;
  let cur = n;
  let p = parent(cur);
  // Climb through expressions that keep the boolean meaning.
  while (
    p &&
    (p.type === 'UnaryOperation' ||
      p.type === 'TupleExpression' ||
      (p.type === 'BinaryOperation' && (p.operator === '&&' || p.operator === '||' || p.operator === '==' || p.operator === '!=')))
  ) {
    cur = p;
    p = parent(cur);
  }
  if (!p) return false;
  if (p.type === 'ExpressionStatement') return false;
  if (p.type === 'FunctionCall') return isRequireLike(p) || p.arguments.some((a) => a === cur);
  if (
    p.type === 'IfStatement' ||
    p.type === 'WhileStatement' ||
    p.type === 'ForStatement' ||
    p.type === 'DoWhileStatement' ||
    p.type === 'Conditional'
  )
    return true;
  if (p.type === 'ReturnStatement') return true;
  if (p.type === 'VariableDeclarationStatement' || (p.type === 'BinaryOperation' && p.operator === '=')) {
    // `bool ok = a.call()` or `(ok, ) = a.call()`: checked when the success flag is read later.
    const names: string[] = [];
    if (p.type === 'VariableDeclarationStatement') {
      const first = declaredVariables(p)[0];
      if (first?.name) names.push(first.name);
    } else if (p.right === cur) {
      const target = p.left.type === 'TupleExpression' ? tupleComponents(p.left)[0] : p.left;
      const name = identName(target);
      if (name) names.push(name);
    }
    if (!names.length) return false;
    const first = names[0];
    const after = p.range?.[1] ?? 0;
    let used = false;
    walk(f.node.body, (x) => {
      if (used) return false;
      if (x.type === 'Identifier' && x.name === first && (x.range?.[0] ?? 0) > after) used = true;
    });
    return used;
  }
  return true;
}

/** Internal calls to the functions they may run (most-derived definitions of the name; a
 *  modifier only when no function has it) and modifier invocations to their definitions. */
export function resolveCalls(contracts: ContractFacts[]): void {
  for (const cf of contracts) {
    for (const f of cf.ownFunctions) {
      for (const m of f.modifiers) m.def = cf.modifiers.get(m.name) ?? null;
      for (const ic of f.internalCalls) {
        ic.callees = cf.functions.filter((g) => g.name === ic.name && g.kind !== 'modifier');
        if (!ic.callees.length) ic.callees = cf.functions.filter((g) => g.name === ic.name);
        for (const g of ic.callees) g.calledInternally = true;
      }
    }
  }
}
