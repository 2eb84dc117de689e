// reentrancy-balance: a function copies a balance (address(this).balance, token.balanceOf(x))
// into a local, calls out, and then uses the copy: during the call the callee can re-enter and
// move that balance, so the code after the call computes with a stale number (double-counted
// deposits, payouts from a balance that is already gone).
// Avoids false positives: functions with a reentrancy lock, balances re-read after the call
// (the `before`/`after` measurement pattern reads it again and compares the two, which is the
// fix), copies not used after the call, and calls into the contract's trusted, owner-set addresses.
import {
  detectorPlugin,
  perFunction,
  hasReentrancyLock,
  ownerSetOnly,
  rootName,
  statementLoc,
  unwrap,
  walk,
  type Node,
  type StaticDetector,
  startOf,
  endOf,
  firstDeclaredName,
  line,
} from '../../lib/analysis/static/index.ts';

const isBalance = (n: Node) => {
  const u = unwrap(n);
  if (u?.type === 'MemberAccess' && u.memberName === 'balance') return true;
  return (
    u?.type === 'FunctionCall' &&
    u.expression?.type === 'MemberAccess' &&
    u.expression.memberName === 'balanceOf' &&
    (u.arguments ?? []).length === 1
  );
};

export const reentrancyBalanceDetector: StaticDetector = {
  meta: {
    id: 'reentrancy-balance',
    title: 'Balance read before an external call, used after it',
    severity: 'HIGH',
    confidence: 0.6,
    category: 'reentrancy',
    swc: 'SWC-107',
    cwe: 'CWE-841',
    description:
      'A balance is cached before an external call and used afterwards; a reentrant call can change the real balance in between.',
    recommendation: 'Re-read the balance after the call, or apply checks-effects-interactions and a reentrancy guard (nonReentrant).',
    exploit_scenario:
      'deposit() caches token.balanceOf(this), calls the token (an ERC777 hook re-enters deposit()), then credits the difference against the stale cache: the attacker is credited twice for one transfer.',
    messages: { stale: '`{{local}}` caches `{{balance}}` before the call to `{{target}}` and is used after it (line {{use}}).' },
  },
  create: perFunction((fn, c, context) => {
    const { facts, source } = context;
    if (!fn.node.body || !fn.isPublic || fn.isView || hasReentrancyLock(fn) || !fn.transitiveExternal.length) return;
    const caches: Array<{ name: string; at: number; node: Node }> = [];
    walk(fn.node.body, (n) => {
      if (
        n.type === 'VariableDeclarationStatement' &&
        n.initialValue &&
        isBalance(n.initialValue) &&
        n.variables?.length === 1 &&
        firstDeclaredName(n)
      )
        caches.push({ name: firstDeclaredName(n)!, at: endOf(n), node: n.initialValue });
    });
    for (const k of caches) {
      const balanceText = source.slice(startOf(k.node), endOf(k.node) + 1).replace(/\s+/g, '');
      const call = fn.externalCalls.find(
        (e) =>
          (e.node.range?.[0] ?? 0) > k.at &&
          !(rootName(e.target) && c.stateVars.has(rootName(e.target)!) && ownerSetOnly(c, rootName(e.target)!)) &&
          !isBalance(e.node),
      );
      if (!call) continue;
      const after = endOf(call.node);
      // Assigned in the walk's callback: the cast keeps TypeScript from narrowing it to null.
      let use = null as Node | null;
      let reread = false;
      walk(fn.node.body, (n) => {
        if ((n.range?.[0] ?? 0) <= after) return;
        if (n.type === 'Identifier' && n.name === k.name && !use) use = n;
        if (isBalance(n) && source.slice(startOf(n), endOf(n) + 1).replace(/\s+/g, '') === balanceText) reread = true;
      });
      if (!use || reread) continue;
      context.report({
        node: call.node,
        loc: statementLoc(call.node, facts),
        messageId: 'stale',
        data: { local: k.name, balance: balanceText, target: call.targetText.slice(0, 60), use: line(use) },
      });
      break;
    }
  }),
};

export const detectors = [reentrancyBalanceDetector];
export default detectorPlugin(detectors);
