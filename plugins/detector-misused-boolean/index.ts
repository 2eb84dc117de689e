// misused-boolean: a boolean literal where a computed condition belongs. `if (true)` / `c ? … : …`
// with a literal condition runs one branch always; `x || true` is always true and `x && false`
// always false, so the check they sit in checks nothing (often a debugging leftover that disabled
// a guard, e.g. `require(isOwner || true)`).
// Avoids false positives: `while (true)` / `for (;;)` loops (deliberate), `require(false)` /
// `assert(false)` (an explicit revert), literals assigned, returned or passed as arguments, and
// `x == true` comparisons (redundant, not wrong).
import { detectorPlugin, statementLoc, unwrap, type MaybeNode, type StaticDetector } from '../../lib/analysis/static/index.ts';

const literal = (n: MaybeNode): boolean | null => {
  const u = n ? unwrap(n) : null;
  return u?.type === 'BooleanLiteral' ? u.value : null;
};

export const misusedBooleanDetector: StaticDetector = {
  meta: {
    id: 'misused-boolean',
    title: 'Boolean literal decides a condition',
    severity: 'MEDIUM',
    confidence: 0.7,
    category: 'other',
    swc: null,
    cwe: 'CWE-570',
    description: 'A condition is a boolean literal, or combines one with `&&`/`||`: its outcome is fixed at compile time.',
    recommendation: 'Remove the literal (and the dead branch), or restore the condition it replaced.',
    exploit_scenario: '`require(msg.sender == owner || true)` was left from testing: every caller passes the owner check.',
    messages: {
      condition: 'The condition of this `{{stmt}}` is the literal `{{value}}`: one branch always runs.',
      operand: '`{{op}} {{value}}` makes this expression always `{{result}}`: the other operand is never decisive.',
    },
  },
  create(context) {
    const { facts } = context;
    return {
      IfStatement(n) {
        const v = literal(n.condition);
        if (v !== null)
          context.report({
            node: n.condition,
            loc: statementLoc(n.condition, facts),
            messageId: 'condition',
            data: { stmt: 'if', value: String(v) },
          });
      },
      Conditional(n) {
        const v = literal(n.condition);
        if (v !== null)
          context.report({
            node: n,
            loc: statementLoc(n, facts),
            messageId: 'condition',
            data: { stmt: 'conditional expression', value: String(v) },
          });
      },
      BinaryOperation(n) {
        if (n.operator !== '&&' && n.operator !== '||') return;
        const v = literal(n.left) ?? literal(n.right);
        if (v === null) return;
        // `x || false` and `x && true` are only redundant; the dominating literal is the bug.
        if ((n.operator === '||') !== v) return;
        context.report({
          node: n,
          loc: statementLoc(n, facts),
          messageId: 'operand',
          data: { op: n.operator, value: String(v), result: String(v) },
        });
      },
    };
  },
};

export const detectors = [misusedBooleanDetector];
export default detectorPlugin(detectors);
