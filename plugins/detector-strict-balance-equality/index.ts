// strict-balance-equality: a contract's ether balance (and a token balance) can be raised by
// anyone without calling it (selfdestruct, coinbase rewards, a plain token transfer), so a
// condition that needs it to equal an exact value can be made false forever, or true on demand:
// `require(this.balance == totalDeposits)` locks the contract after a 1-wei gift (SWC-132).
// Only the contract's own balance: another account's `balanceOf(user) == 0` is an ownership test
// the user controls, not a value strangers can push into the contract.
// Avoids false positives: ordering comparisons (`>=`), and comparisons that decide nothing (a
// public getter returning `this.balance == 0`: only conditions and helpers the file calls count).
import {
  detectorPlugin,
  conditions,
  statementLoc,
  unwrap,
  within,
  type Node,
  type StaticDetector,
  startOf,
  endOf,
} from '../../lib/analysis/static/index.ts';

const isThis = (n: Node): boolean => {
  const u = unwrap(n);
  // `address(this)`: some parser versions give `address` as a plain identifier callee.
  if (
    u?.type === 'FunctionCall' &&
    u.expression?.type === 'Identifier' &&
    u.expression.name === 'address' &&
    (u.arguments ?? []).length === 1
  )
    return isThis(u.arguments[0]);
  return u?.type === 'Identifier' && u.name === 'this';
};
/** The contract's own balance: address(this).balance, this.balance, token.balanceOf(this). */
const isBalance = (n: Node) => {
  const u = unwrap(n);
  if (u?.type === 'MemberAccess' && u.memberName === 'balance') return isThis(u.expression);
  return (
    u?.type === 'FunctionCall' &&
    u.expression?.type === 'MemberAccess' &&
    u.expression.memberName === 'balanceOf' &&
    (u.arguments ?? []).length === 1 &&
    isThis(u.arguments[0])
  );
};

export const strictBalanceEqualityDetector: StaticDetector = {
  meta: {
    id: 'strict-balance-equality',
    title: 'Strict equality on a balance',
    severity: 'MEDIUM',
    confidence: 0.7,
    category: 'denial_of_service',
    swc: 'SWC-132',
    cwe: 'CWE-667',
    description:
      'Balances can be changed from outside (forced ether, direct token transfers); an exact == / != test on them can be broken by anyone.',
    recommendation: 'Compare with >= / <=, or track the expected amount in a state variable instead of reading the live balance.',
    exploit_scenario:
      'The game ends only when this.balance == target; the attacker force-sends 1 wei through selfdestruct and the balance never equals the target again, locking every deposit.',
    messages: { eq: '`{{expr}}` tests a balance for exact equality.' },
  },
  create(context) {
    const { facts, source } = context;
    return {
      BinaryOperation(n) {
        if (n.operator !== '==' && n.operator !== '!=') return;
        if (!isBalance(n.left) && !isBalance(n.right)) return;
        // It must decide something: a require/if/loop condition, or the result of a helper that
        // other code of the file calls. A public getter returning the comparison gates nothing.
        const { fn } = facts.enclosing(n);
        if (!fn?.node.body) return;
        const inCondition = conditions(fn.node.body).some((c) => within(n, c));
        if (!inCondition && !fn.calledInternally) return;
        context.report({
          node: n,
          loc: statementLoc(n, facts),
          messageId: 'eq',
          data: { expr: source.slice(startOf(n), endOf(n) + 1).slice(0, 80) },
        });
      },
    };
  },
};

export const detectors = [strictBalanceEqualityDetector];
export default detectorPlugin(detectors);
