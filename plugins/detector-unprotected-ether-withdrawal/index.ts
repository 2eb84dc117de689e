// unprotected-ether-withdrawal: a function anyone can call pays out ether unconditionally,
// either the whole contract balance, an amount read from state that it never debits, or a fixed
// amount (`msg.sender.transfer(1 ether)`) with no accounting of the caller at all, so the same
// caller can repeat it until the contract is empty (SWC-105), or an amount and a recipient both
// chosen by the caller in a function that records nothing (Slither's arbitrary-send-eth).
// Avoids false positives: guarded functions, payouts under a condition (games, checked
// claims), amounts the function debits (balances[x] = 0 / -=), payouts of msg.value
// (refunds), and recipients that are neither the caller nor a caller-chosen address.
import {
  isCallerValue,
  detectorPlugin,
  conditions,
  isConstantExpr,
  rootName,
  some,
  statementLoc,
  unwrap,
  type StaticDetector,
  startOf,
  endOf,
  assignedExpr,
  type Node,
} from '../../lib/analysis/static/index.ts';

export const unprotectedEtherWithdrawalDetector: StaticDetector = {
  meta: {
    id: 'unprotected-ether-withdrawal',
    title: 'Unprotected ether withdrawal',
    severity: 'HIGH',
    confidence: 0.6,
    category: 'access_control',
    swc: 'SWC-105',
    cwe: 'CWE-284',
    description: 'Ether leaves the contract from a function any account can call, without an access check or a debit of the amount paid.',
    recommendation:
      'Check the caller’s entitlement and debit it before paying (balances[msg.sender] = 0), or restrict the function to the owner.',
    exploit_scenario:
      'An attacker calls refund() repeatedly; the balance it pays is never reduced, so each call drains more of the contract.',
    messages: {
      balance: 'Whole contract balance sent to `{{to}}` by a function anyone can call.',
      nodebit: '`{{amount}}` paid to `{{to}}` but `{{var}}` is never debited.',
      chosen: 'The caller picks both `{{amount}}` and `{{to}}`, with no check and no record: anyone sends the contract’s ether anywhere.',
      fixed:
        'A fixed `{{amount}}` is paid to `{{to}}` on every call, with no check and no record of the caller: calling it repeatedly drains the contract.',
    },
  },
  create(context) {
    const { facts, source } = context;
    return {
      FunctionCall(n) {
        const c = facts.externalCallByNode.get(n);
        if (!c || !c.value || (c.kind !== 'transfer' && c.kind !== 'send' && c.kind !== 'call')) return;
        const { fn } = facts.enclosing(n);
        if (!fn || !fn.isPublic || fn.senderGuard || fn.kind === 'constructor') return;
        if (conditions(fn.node.body).some((cond) => startOf(cond) < startOf(n)) || facts.inLoop(n)) return;
        const to = unwrap(c.target);
        const toCaller = isCallerValue(to, fn) || (to.type === 'Identifier' && fn.params.includes(to.name));
        if (!toCaller) return;
        const amount = unwrap(c.value);
        const text = (x: Node) => source.slice(startOf(x), endOf(x) + 1);
        if (amount.type === 'MemberAccess' && amount.memberName === 'balance') {
          context.report({ node: n, loc: statementLoc(n, facts), messageId: 'balance', data: { to: text(to) } });
          return;
        }
        const { contract } = facts.enclosing(n);
        const constants = new Set([...(contract?.stateVars.values() ?? [])].filter((x) => x.constant || x.immutable).map((x) => x.name));
        if (isConstantExpr(amount, constants) && !(amount.type === 'NumberLiteral' && Number(amount.number) === 0)) {
          // Any accounting of the caller (a debit, a claimed flag keyed by msg.sender) makes it
          // something else: a bounded claim, judged by the rules for that state.
          const keyedByCaller = fn.writes.some((w) =>
            some(assignedExpr(w.node) ?? {}, (x) => x.type === 'IndexAccess' && isCallerValue(x.index, fn)),
          );
          if (!keyedByCaller && !fn.transitiveUnresolved)
            context.report({ node: n, loc: statementLoc(n, facts), messageId: 'fixed', data: { to: text(to), amount: text(amount) } });
          return;
        }
        // Slither's arbitrary-send-eth: the amount is a parameter too, and the function records
        // nothing (no state written here or in its helpers) and checks nothing before paying.
        if (
          amount.type === 'Identifier' &&
          fn.params.includes(amount.name) &&
          !fn.transitiveWrites.size &&
          !fn.transitiveUnresolved &&
          !fn.opaqueGuard
        ) {
          context.report({ node: n, loc: statementLoc(n, facts), messageId: 'chosen', data: { to: text(to), amount: text(amount) } });
          return;
        }
        const v = rootName(amount);
        const stateVar = v && (fn.aliases.get(v) ?? (facts.enclosing(n).contract?.stateVars.has(v) && !fn.locals.has(v) ? v : null));
        if (!stateVar || fn.transitiveWrites.has(stateVar)) return;
        context.report({
          node: n,
          loc: statementLoc(n, facts),
          messageId: 'nodebit',
          data: { to: text(to), amount: text(amount), var: stateVar },
        });
      },
    };
  },
};

export const detectors = [unprotectedEtherWithdrawalDetector];
export default detectorPlugin(detectors);
