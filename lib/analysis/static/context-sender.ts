// The context-sender pass of computeFacts, run right after declarations so that every later pass
// (sender locals, guards, summaries) and every rule asks one question, `isMsgSender`, and gets
// the same answer: is this expression the caller? Besides `msg.sender` itself, a zero-argument
// internal call is the caller when the function it resolves to in the file returns the caller:
// OpenZeppelin's `Context._msgSender()`, an ERC-2771 override that unpacks the relayed sender
// from `msg.data` and otherwise defers to `super`, or a helper of any other name. A function the
// file defines that returns something else (a stored address) is not the caller, whatever its
// name. Calls the file cannot resolve keep the library's API name (see `isMsgSender`).
import { isMsgSender, markCallerCall, returnParameters, some, unwrap, walk, elementaryName, type AST, type Node } from './ast.ts';
import type { FileScope } from './declarations.ts';
import type { ContractFacts, FunctionFacts } from './facts.ts';

/** The function a zero-argument call resolves to, seen from a function declared in `from`. */
function resolveZeroArg(call: AST.FunctionCall, from: ContractFacts, scope: FileScope): FunctionFacts | null {
  const e = call.expression;
  const pick = (c: ContractFacts | undefined, name: string) =>
    c?.functions.find((f) => f.kind === 'function' && f.name === name && f.params.length === 0 && !(f.node.parameters ?? []).length) ??
    null;
  if (e?.type === 'Identifier') return pick(from, e.name);
  if (e?.type !== 'MemberAccess' || e.expression?.type !== 'Identifier') return null;
  const base = e.expression.name;
  if (base === 'super') {
    // The next definition after the declaring contract in its linearization.
    for (const name of from.linearization.slice(1)) {
      const f = scope.contractByName
        .get(name)
        ?.ownFunctions.find((g) => g.kind === 'function' && g.name === e.memberName && !(g.node.parameters ?? []).length);
      if (f) return f;
    }
    return null;
  }
  return from.linearization.includes(base) ? pick(scope.contractByName.get(base), e.memberName) : null;
}

/** Every zero-argument call in a body that resolves in the file, with its callee. */
function zeroArgCalls(f: FunctionFacts, scope: FileScope): Array<[AST.FunctionCall, FunctionFacts]> {
  const from = scope.contractByName.get(f.contract);
  if (!from || !f.node.body) return [];
  const out: Array<[AST.FunctionCall, FunctionFacts]> = [];
  walk(f.node.body, (n) => {
    if (n.type !== 'FunctionCall' || (n.arguments ?? []).length) return;
    const g = resolveZeroArg(n, from, scope);
    if (g) out.push([n, g]);
  });
  return out;
}

export function contextSenders(scope: FileScope): void {
  const all = scope.contracts.flatMap((c) => c.ownFunctions);
  const calls = new Map(all.map((f) => [f, zeroArgCalls(f, scope)] as const));
  // Candidates: non-public, state-preserving, no parameters, one address returned.
  const candidates = all.filter((f) => {
    if (f.kind !== 'function' || f.isPublic || f.node.type !== 'FunctionDefinition' || !f.node.body) return false;
    if ((f.node.parameters ?? []).length || !f.isView) return false;
    const rets = returnParameters(f.node);
    return rets.length === 1 && /^address/.test(elementaryName(rets[0]?.typeName) ?? '');
  });
  const senders = new Set<FunctionFacts>();
  const callerExpr = (f: FunctionFacts, e: Node): boolean => {
    const u = unwrap(e);
    if (u.type === 'MemberAccess' && u.expression?.type === 'Identifier' && u.expression.name === 'msg' && u.memberName === 'sender')
      return true;
    if (u.type === 'FunctionCall') {
      const hit = calls.get(f)?.find(([c]) => c === u);
      if (hit) return senders.has(hit[1]);
      // Not defined in the file (`super._msgSender()` into an imported Context): the API name.
      return isMsgSender(u);
    }
    return false;
  };
  // The relayed sender of ERC-2771: an address taken from the call data.
  const fromCalldata = (e: Node) =>
    some(
      e,
      (m) => m.type === 'MemberAccess' && m.expression?.type === 'Identifier' && m.expression.name === 'msg' && m.memberName === 'data',
    );
  // A function returns the caller when some return gives it and every other return gives it or
  // the relayed sender; helpers returning helpers settle in a few rounds.
  for (let changed = true; changed;) {
    changed = false;
    for (const f of candidates) {
      if (senders.has(f)) continue;
      const rets: Node[] = [];
      walk(f.node.body, (n) => {
        if (n.type === 'ReturnStatement' && n.expression) rets.push(n.expression);
      });
      if (!rets.some((r) => callerExpr(f, r)) || !rets.every((r) => callerExpr(f, r) || fromCalldata(r))) continue;
      senders.add(f);
      changed = true;
    }
  }
  for (const f of senders) f.returnsCaller = true;
  for (const list of calls.values()) for (const [call, g] of list) markCallerCall(call, senders.has(g));
}
