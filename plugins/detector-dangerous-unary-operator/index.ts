// dangerous-unary-operator: `x =+ 1` and `x =- 1` compile (before 0.5 for `+`, always for `-`) as an
// assignment of `+1` / `-1`, where `x += 1` / `x -= 1` was meant: a balance is overwritten instead
// of credited (SWC-129, typographical error).
// Decided on the source text of the assignment: `=` immediately followed by the sign and then the
// operand with no space (`x =-1`, `x =- 1`). Avoids false positives: `x = -1` (space after `=`),
// compound operators, comparisons.
import { detectorPlugin, endOf, startOf, statementLoc, unwrap, type StaticDetector } from '../../lib/analysis/static/index.ts';

export const dangerousUnaryOperatorDetector: StaticDetector = {
  meta: {
    id: 'dangerous-unary-operator',
    title: '`=+` / `=-` where `+=` / `-=` was meant',
    severity: 'MEDIUM',
    confidence: 0.7,
    category: 'other',
    swc: 'SWC-129',
    cwe: 'CWE-480',
    description: '`x =- y` assigns `-y` to `x`; the compound operator `x -= y` was almost certainly meant.',
    recommendation: 'Write `x += y` / `x -= y`, or `x = -y` with a space after `=` if the negation is intended.',
    exploit_scenario: '`balances[to] =+ amount` sets the receiver balance to `amount` instead of adding it: funds already there vanish.',
    messages: { typo: '`{{text}}`: `={{sign}}` assigns; `{{sign}}=` was probably meant.' },
  },
  create(context) {
    const { source, facts } = context;
    return {
      BinaryOperation(n) {
        if (n.operator !== '=') return;
        const r = unwrap(n.right);
        if (r?.type !== 'UnaryOperation' || (r.operator !== '+' && r.operator !== '-') || !r.isPrefix) return;
        // The characters between the left side and the operand: `=` then the sign, adjacent.
        const gap = source.slice(endOf(n.left) + 1, startOf(r) + 1);
        const m = /^\s*=([+-])$/.exec(gap);
        if (!m) return;
        context.report({
          node: n,
          loc: statementLoc(n, facts),
          messageId: 'typo',
          data: { text: source.slice(startOf(n), endOf(n) + 1), sign: m[1] },
        });
      },
    };
  },
};

export const detectors = [dangerousUnaryOperatorDetector];
export default detectorPlugin(detectors);
