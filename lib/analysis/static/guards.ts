// The guard pass of computeFacts, run after effects are transitive: locals that carry the caller
// (or an authorization answer about it), whether a function checks its caller (in its body, a
// modifier or a helper it calls, or possibly in imported code: `opaqueGuard`), and the state
// variables that access checks compare the caller against (a contract's auth variables).
import {
  isMsgSender,
  isRequireLike,
  isTxOrigin,
  isTypeConversion,
  mappingValueType,
  memberPath,
  rootName,
  some,
  typeText,
  unwrap,
  walk,
  declaredVariables,
  type MaybeNode,
  type Node,
} from './ast.ts';
import { isStateName } from './bodies.ts';
import type { FileScope } from './declarations.ts';
import type { ContractFacts, FunctionFacts } from './facts.ts';
import type { Typing } from './typing.ts';

/** Modifier names that announce a check other than the caller's identity. */
const NOT_CALLER_CHECKS = /reentr|nonReentrant|lock|[pP]aused|initializ|valid|deadline|expire|gas|payable|nonZero/i;

const isCaller = (a: MaybeNode) => isMsgSender(a) || isTxOrigin(a);
/** An address literal, possibly converted (`0x9797...`, `address(0x9797...)`); not zero. */
const isAddressConstant = (a: MaybeNode): boolean => {
  const u = unwrap(a);
  if (u?.type === 'FunctionCall' && isTypeConversion(u.expression) && u.arguments?.length === 1) return isAddressConstant(u.arguments[0]);
  return u?.type === 'NumberLiteral' && /^0x[0-9a-fA-F]{40}$/.test(String(u.number)) && !/^0x0+$/.test(String(u.number));
};

export function guardFacts(scope: FileScope, types: Typing): void {
  const { contracts, contractByName, parent } = scope;
  const arithmeticVars = new Set(contracts.flatMap((c) => c.ownFunctions).flatMap((f) => [...f.arithmeticWrites]));

  /** A table keyed by caller that is not a balance: membership (owners, admins, whitelists). */
  function isMembershipTable(base: MaybeNode, f: FunctionFacts, cf: ContractFacts): boolean {
    const r = rootName(base);
    return !!r && isStateName(r, f, cf) && !arithmeticVars.has(r);
  }

  function senderLocals(f: FunctionFacts, cf: ContractFacts) {
    if (!f.node.body) return;
    walk(f.node.body, (n) => {
      if (n.type !== 'VariableDeclarationStatement' || !n.initialValue) return;
      const vars = declaredVariables(n);
      const init = unwrap(n.initialValue);
      const fromSender = isCaller(init) || (init.type === 'IndexAccess' && isCaller(init.index) && isMembershipTable(init.base, f, cf));
      if (fromSender) for (const v of vars) if (v?.name) f.senderLocals.add(v.name);
      const bySender = (x: MaybeNode) => isCaller(x) || (x?.type === 'Identifier' && f.senderLocals.has(x.name));
      // The answer of an authorization query about the caller (`(bool ok, ) = _canCall(caller, ...)`,
      // `bool allowed = hasRole(role, msg.sender)`): a bool that a later condition checks.
      if (!fromSender && init.type === 'FunctionCall' && !isTypeConversion(init.expression) && (init.arguments ?? []).some(bySender))
        for (const v of vars) if (v?.name && typeText(v.typeName) === 'bool') f.senderLocals.add(v.name);
      // Values computed from the caller (`bytes32 id = hashOperation(caller, target, data)`): keys
      // of the caller's own records.
      if (some(init, bySender)) for (const v of vars) if (v?.name) f.senderKeys.add(v.name);
    });
  }

  function opaqueGuard(f: FunctionFacts, cf: ContractFacts): boolean {
    if (!cf.unresolvedBase) return false;
    for (const m of f.modifiers) {
      if (!m.def) {
        // An unresolved name that is not a base constructor call of this file. Modifiers that
        // name a lock or a pause switch (nonReentrant, whenNotPaused) say what they check, and it
        // is not the caller.
        if (!contractByName.has(m.name) && f.kind !== 'constructor' && !NOT_CALLER_CHECKS.test(m.name)) return true;
        continue;
      }
      if (m.def.unresolvedCalls.some((c) => !(c.node.arguments ?? []).length || (c.node.arguments ?? []).some(isCaller))) return true;
    }
    return f.unresolvedCalls.some((c) => (c.node.arguments ?? []).some(isCaller));
  }

  function hasGuard(f: FunctionFacts, cf: ContractFacts, depth: number): boolean {
    if (depth > 4) return false;
    const body = f.node.body;
    let found = false;
    if (body)
      walk(body, (n) => {
        if (found) return false;
        if (isRequireLike(n) && n.arguments?.[0] && isGuardCondition(n.arguments[0], f, cf, depth)) found = true;
        else if ((n.type === 'IfStatement' || n.type === 'WhileStatement') && isGuardCondition(n.condition, f, cf, depth)) found = true;
      });
    if (found) return true;
    for (const m of f.modifiers) if (m.def && hasGuard(m.def, cf, depth + 1)) return true;
    for (const ic of f.internalCalls) if (ic.callees.some((g) => g !== f && hasGuard(g, cf, depth + 1))) return true;
    return false;
  }

  function isGuardCondition(c: MaybeNode, f: FunctionFacts, cf: ContractFacts, depth: number): boolean {
    if (!c) return false;
    const u = unwrap(c);
    if (u.type === 'UnaryOperation' && u.operator === '!') return isGuardCondition(u.subExpression, f, cf, depth);
    if (u.type === 'BinaryOperation') {
      if (u.operator === '&&' || u.operator === '||')
        return isGuardCondition(u.left, f, cf, depth) || isGuardCondition(u.right, f, cf, depth);
      if (u.operator === '==' || u.operator === '!=') {
        const sides = [unwrap(u.left), unwrap(u.right)];
        if (sides.some((s) => isCaller(s) || (s.type === 'Identifier' && f.senderLocals.has(s.name)))) return true;
        // `owners[msg.sender] != 0`: membership in an owner table.
        const isZero = (s: Node) => s.type === 'NumberLiteral' && Number(s.number) === 0;
        if (sides.some((s) => s.type === 'IndexAccess' && isCaller(s.index) && isMembershipTable(s.base, f, cf)) && sides.some(isZero))
          return true;
        return false;
      }
      return false;
    }
    if (u.type === 'IndexAccess' && isCaller(u.index) && isMembershipTable(u.base, f, cf)) return true;
    if (u.type === 'Identifier' && f.senderLocals.has(u.name) && types.typeOfName(u.name, f, cf) === 'bool') return true;
    if (u.type === 'FunctionCall') {
      if ((u.arguments ?? []).some((a) => isCaller(a) || (a?.type === 'Identifier' && f.senderLocals.has(a.name) && f.locals.has(a.name))))
        return true;
      const callee = u.expression;
      if (callee?.type === 'Identifier') {
        const g = cf.functions.find((x) => x.name === callee.name);
        if (g && g !== f && depth < 4) {
          let ret = false;
          walk(g.node.body ?? {}, (n) => {
            if (ret) return false;
            if (n.type === 'ReturnStatement' && n.expression && isGuardCondition(n.expression, g, cf, depth + 1)) ret = true;
          });
          return ret;
        }
      }
    }
    return false;
  }

  function collectAuthVars(cf: ContractFacts) {
    const fns = [...cf.functions, ...cf.modifiers.values()];
    // The declarations the checks read, as seen from the contract declaring the checking code.
    const decls = new Set<Node>();
    const addAuth = (name: string, member: string | null, from: string) => {
      cf.authVars.add(name);
      const d = contractByName.get(from)?.stateVars.get(name)?.node;
      if (d) decls.add(d);
      if (member === null) cf.authMembers.set(name, null);
      else if (!cf.authMembers.has(name)) cf.authMembers.set(name, new Set([member]));
      else cf.authMembers.get(name)?.add(member);
    };
    for (const f of fns) {
      if (!f.node.body) continue;
      walk(f.node.body, (n) => {
        if (n.type === 'BinaryOperation' && (n.operator === '==' || n.operator === '!=')) {
          const l = unwrap(n.left);
          const r = unwrap(n.right);
          for (const [a, b] of [
            [l, r],
            [r, l],
          ]) {
            if (isCaller(a)) {
              const name = rootName(b);
              if (name && cf.stateVars.has(name) && !f.locals.has(name)) addAuth(name, memberPath(b).at(-1) ?? null, f.contract);
              else if (isAddressConstant(b)) cf.constantAuth = true;
            }
          }
        }
        if (isRequireLike(n) || n.type === 'IfStatement') {
          const cond = n.type === 'IfStatement' ? n.condition : n.arguments?.[0];
          walk(cond ?? {}, (x) => {
            if (x.type === 'FunctionCall' && x.expression?.type === 'Identifier' && (x.arguments ?? []).some(isCaller)) {
              const called = x.expression.name;
              for (const g of cf.functions)
                if (g.name === called) for (const r of g.transitiveReads) if (!cf.stateVars.get(r)?.constant) addAuth(r, null, g.contract);
            }
          });
        }
        if (n.type === 'IndexAccess' && isCaller(n.index)) {
          const name = rootName(n.base);
          const sv = name ? cf.stateVars.get(name) : null;
          if (name && sv && sv.typeNode?.type === 'Mapping' && typeText(mappingValueType(sv.typeNode)) === 'bool') {
            const p = parent(n);
            if (p && (isRequireLike(p) || p.type === 'IfStatement' || (p.type === 'UnaryOperation' && p.operator === '!')))
              addAuth(name, memberPath(n.base).at(-1) ?? null, f.contract);
          }
          const p = parent(n);
          if (name && sv && p?.type === 'BinaryOperation' && (p.operator === '==' || p.operator === '!=')) {
            const other = p.left === n ? p.right : p.left;
            if (other?.type === 'NumberLiteral' && Number(other.number) === 0) addAuth(name, memberPath(n.base).at(-1) ?? null, f.contract);
          }
        }
      });
    }
    for (const x of cf.linearization) {
      const scope = contractByName.get(x);
      if (!scope) continue;
      const names = new Set<string>();
      for (const name of cf.authVars) {
        const d = scope.stateVars.get(name)?.node;
        if (!d || decls.has(d)) names.add(name);
      }
      cf.authVarsBy.set(x, names);
    }
  }

  for (const cf of contracts) for (const f of cf.ownFunctions) senderLocals(f, cf);
  for (const cf of contracts)
    for (const f of cf.ownFunctions) {
      f.opaqueGuard = opaqueGuard(f, cf);
      f.senderGuard = f.opaqueGuard || hasGuard(f, cf, 0);
    }
  for (const cf of contracts) collectAuthVars(cf);
}
