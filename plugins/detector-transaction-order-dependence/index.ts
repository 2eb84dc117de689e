// transaction-order-dependence: outcomes that the order of pending transactions decides
// (SWC-114). Two shapes: (1) a function pays whoever first submits a value matching a stored
// secret or hash: the solution is visible in the mempool and can be copied with a higher gas
// price; (2) a payout of a global amount that another public function changes, so the payee
// can be raced (the owner lowers the reward while a claim is pending).
// Avoids false positives: per-account amounts (balances[msg.sender]), amounts only set at
// deployment, checks that do not involve a caller-supplied value, and payouts from a function
// only a privileged account can call (the owner collecting accrued fees): nobody can submit a
// competing claim, and the payer chooses the moment itself, so no ordering costs anyone value.
import {
  isCallerValue,
  detectorPlugin,
  perFunction,
  conditions,
  rootName,
  some,
  statementLoc,
  unwrap,
  type Node,
  type StaticDetector,
  identName,
  type MaybeNode,
  type AST,
} from '../../lib/analysis/static/index.ts';

export const transactionOrderDependenceDetector: StaticDetector = {
  meta: {
    id: 'transaction-order-dependence',
    title: 'Transaction order dependence (front-running)',
    severity: 'MEDIUM',
    confidence: 0.5,
    category: 'front_running',
    swc: 'SWC-114',
    cwe: 'CWE-362',
    description:
      'The result of a transaction depends on which pending transaction is mined first; observers of the mempool can jump the queue.',
    recommendation:
      'Use commit-reveal for submitted answers, and make reward changes take effect only after pending claims (or bind claims to the expected amount).',
    exploit_scenario:
      'A user submits the correct solution; a bot copies it from the mempool with a higher gas price and collects the prize first.',
    messages: {
      solution:
        'Caller-supplied `{{param}}` is checked against stored `{{secret}}` before paying the caller: the answer can be copied from the mempool.',
      reward: 'Payout of `{{amount}}`, which `{{setter}}` changes: the result depends on transaction order.',
    },
  },
  create: perFunction((fn, c, context) => {
    const { facts } = context;
    if (!fn.isPublic || fn.kind === 'constructor') return;
    const payouts = fn.externalCalls.filter((e) => e.value && (e.kind === 'transfer' || e.kind === 'send' || e.kind === 'call'));
    if (!payouts.length) return;
    // (1) solution checks
    if (payouts.some((p) => isCallerValue(p.target, fn))) {
      for (const cond of conditions(fn.node.body)) {
        const cmp = findCmp(cond);
        if (!cmp) continue;
        const sides = [cmp.left, cmp.right];
        const param = sides.find((s) => some(s, (x) => x.type === 'Identifier' && fn.params.includes(x.name)));
        const secret = sides.find(
          (s) => s !== param && rootName(unwrap(s)) && c.stateVars.has(rootName(unwrap(s))!) && !fn.locals.has(rootName(unwrap(s))!),
        );
        if (param && secret) {
          const pname = fn.params.find((p) => some(param, (x: Node) => x.type === 'Identifier' && x.name === p)) ?? '';
          context.report({
            node: cond,
            loc: statementLoc(cond, facts),
            messageId: 'solution',
            contract: c.name,
            function: fn.name,
            data: { param: pname, secret: rootName(unwrap(secret))! },
          });
        }
      }
    }
    // (2) global reward raced by its setter
    for (const p of fn.senderGuard ? [] : payouts) {
      const amt = unwrap(p.value);
      if (amt?.type !== 'Identifier' || fn.locals.has(amt.name) || !c.stateVars.has(amt.name)) continue;
      const setter = [...c.functions].find(
        (g) => g !== fn && g.isPublic && g.kind === 'function' && g.writes.some((w) => w.variable === amt.name),
      );
      if (!setter) continue;
      context.report({
        node: p.node,
        loc: statementLoc(p.node, facts),
        messageId: 'reward',
        contract: c.name,
        function: fn.name,
        data: { amount: amt.name, setter: setter.name },
      });
      if (setter.externalCalls.some((e) => e.value && identName(unwrap(e.value)) === amt.name)) {
        for (const e of setter.externalCalls.filter((e) => e.value && nameOf(unwrap(e.value)) === amt.name))
          context.report({
            node: e.node,
            loc: statementLoc(e.node, facts),
            messageId: 'reward',
            contract: c.name,
            function: setter.name,
            data: { amount: amt.name, setter: setter.name },
          });
      }
    }
  }),
};

/** The `name` a node carries, whatever its kind (an identifier, an elementary type name, …). */
function nameOf(n: MaybeNode): string | undefined {
  return n && 'name' in n && typeof n.name === 'string' ? n.name : undefined;
}

function findCmp(cond: Node): AST.BinaryOperation | null {
  const u = unwrap(cond);
  if (u?.type === 'BinaryOperation' && (u.operator === '==' || u.operator === '!=')) return u;
  return null;
}

export const detectors = [transactionOrderDependenceDetector];
export default detectorPlugin(detectors);
