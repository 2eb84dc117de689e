// inverted-balance-check: a function debits `amount` from a balance (`balances[k] -= amount`) but
// its check says `amount >= balances[k]` (or `balances[k] <= amount`): the comparison is the wrong
// way round, so any amount ABOVE the balance passes; before 0.8 the debit then wraps and the
// caller walks away with ether or tokens it never had (SWC-105; SmartBugs' "confused sign").
// Only conditions that must hold for the debit to run count (require/assert, an `if` whose
// then-branch debits): `if (balances[k] < amount) return false;` guards the negation and is right.
// Avoids false positives: checks in the right direction (`balances[k] >= amount`), checks of
// other variables, and full withdrawals that require the amount to EQUAL the balance.
import {
  detectorPlugin,
  perFunction,
  isRequireLike,
  norm,
  statementLoc,
  within,
  walk,
  type Node,
  type StaticDetector,
  startOf,
  endOf,
  operatorOf,
} from '../../lib/analysis/static/index.ts';

export const invertedBalanceCheckDetector: StaticDetector = {
  meta: {
    id: 'inverted-balance-check',
    title: 'Balance check written backwards',
    severity: 'HIGH',
    confidence: 0.8,
    category: 'access_control',
    swc: 'SWC-105',
    cwe: 'CWE-697',
    description:
      'The check before a debit requires the amount to be at least the balance, so amounts larger than the balance are accepted.',
    recommendation: 'Require balance >= amount (require(balances[msg.sender] >= amount)).',
    exploit_scenario:
      'With 1 wei deposited, the attacker withdraws the whole contract balance: `amount >= balances[msg.sender]` holds for every large amount, and the debit underflows.',
    messages: { inverted: '`{{cond}}` lets `{{amount}}` exceed `{{balance}}`, which is then debited by it.' },
  },
  create: perFunction((fn, c, context) => {
    const { facts, source } = context;
    if (!fn.node.body || !fn.isPublic) return;
    // Debits: `m[k] -= x` of state.
    const debits: Array<{ bal: string; amt: string }> = [];
    for (const w of fn.writes)
      if (w.node?.type === 'BinaryOperation' && w.node.operator === '-=')
        debits.push({ bal: norm(source, w.node.left), amt: norm(source, w.node.right) });
    if (!debits.length) return;
    // Conditions that must HOLD for the debit to run: require/assert arguments, and `if`
    // conditions whose then-branch holds the debit (`if (c) throw;` guards the negation).
    const must: Node[] = [];
    walk(fn.node.body, (n) => {
      if (isRequireLike(n) && n.arguments?.[0]) must.push(n.arguments[0]);
      if (n.type === 'IfStatement' && n.condition && fn.writes.some((w) => operatorOf(w.node) === '-=' && within(w.node, n.trueBody)))
        must.push(n.condition);
    });
    for (const cond of must) {
      walk(cond, (n) => {
        if (n.type !== 'BinaryOperation' || !['>=', '>', '<=', '<'].includes(n.operator)) return;
        // Normalise to "big >= small".
        const [big, small] = n.operator === '>=' || n.operator === '>' ? [n.left, n.right] : [n.right, n.left];
        const b = norm(source, big);
        const s = norm(source, small);
        const d = debits.find((x) => x.amt === b && x.bal === s);
        if (!d || !within(n, cond)) return;
        context.report({
          node: n,
          loc: statementLoc(n, facts),
          messageId: 'inverted',
          data: { cond: source.slice(startOf(n), endOf(n) + 1), amount: d.amt, balance: d.bal },
        });
      });
    }
  }),
};

export const detectors = [invertedBalanceCheckDetector];
export default detectorPlugin(detectors);
