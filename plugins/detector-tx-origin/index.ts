// tx-origin: authorizing with tx.origin lets any contract the owner interacts with act as the
// owner (phishing through an intermediate contract, SWC-115).
// Avoids false positives: `tx.origin == msg.sender` (a common "caller is an EOA" check, not
// authorization) and tx.origin used outside comparisons (logging, forwarding).
import {
  isCallerValue,
  detectorPlugin,
  isTxOrigin,
  statementLoc,
  unwrap,
  type StaticDetector,
  startOf,
  endOf,
} from '../../lib/analysis/static/index.ts';

export const txOriginDetector: StaticDetector = {
  meta: {
    id: 'tx-origin',
    title: 'Authorization through tx.origin',
    severity: 'HIGH',
    confidence: 0.85,
    category: 'access_control',
    swc: 'SWC-115',
    cwe: 'CWE-477',
    description:
      'tx.origin is the account that started the transaction, not the immediate caller; checks on it can be satisfied through a malicious contract.',
    recommendation: 'Use msg.sender for authorization.',
    exploit_scenario:
      'The owner is lured into calling an attacker contract, which then calls the wallet; tx.origin is still the owner, so the wallet pays the attacker.',
    messages: { cmp: 'Access decided by comparing tx.origin with `{{other}}`.' },
  },
  create(context) {
    const { facts, source } = context;
    return {
      BinaryOperation(n) {
        if (n.operator !== '==' && n.operator !== '!=') return;
        const l = unwrap(n.left);
        const r = unwrap(n.right);
        const origin = isTxOrigin(l) ? l : isTxOrigin(r) ? r : null;
        if (!origin) return;
        const other = origin === l ? r : l;
        if (isCallerValue(other, facts.enclosing(n).fn)) return;
        context.report({
          node: n,
          loc: statementLoc(n, facts),
          messageId: 'cmp',
          data: { other: source.slice(startOf(other), endOf(other) + 1) },
        });
      },
    };
  },
};

export const detectors = [txOriginDetector];
export default detectorPlugin(detectors);
