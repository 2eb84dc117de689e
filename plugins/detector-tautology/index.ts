// tautology: a comparison that the operand's type already decides — an unsigned value is always
// `>= 0` and never `< 0`, a uint8 is always `< 256` — is a check that checks nothing: a guard that
// never fails, or a loop `for (uint i = n; i >= 0; i--)` that never ends (its last decrement
// reverts in 0.8 or wraps to 2**256-1 before it, so the loop runs out of gas either way).
// Avoids false positives: signed integers, operands whose type is not known (expressions of
// calls), comparisons with non-literal bounds, and redundant terms (an always-true term of `&&`
// or an always-false term of `||` beside real checks changes nothing).
import { detectorPlugin, statementLoc, unwrap, type Node, type StaticDetector, startOf, endOf } from '../../lib/analysis/static/index.ts';

const FLIP: Record<string, string> = { '<': '>', '>': '<', '<=': '>=', '>=': '<=' };

function literal(n: Node): bigint | null {
  const u = unwrap(n);
  if (u?.type !== 'NumberLiteral' || u.subdenomination) return null;
  try {
    return BigInt(String(u.number).replace(/_/g, ''));
  } catch {
    return null;
  }
}

export const tautologyDetector: StaticDetector = {
  meta: {
    id: 'tautology',
    title: 'Comparison always true or always false',
    severity: 'MEDIUM',
    confidence: 0.8,
    category: 'other',
    swc: null,
    cwe: 'CWE-571',
    description: 'The type of the operand fixes the outcome of this comparison; the check it was meant to make does not happen.',
    recommendation:
      'Compare against the bound that was meant (`> 0`, a real limit), or iterate downward with `i > 0` and use `i - 1` inside the loop.',
    exploit_scenario:
      'require(amount >= 0) was meant as require(amount > 0); zero-amount calls pass and register as participants for free.',
    messages: { always: '`{{expr}}` is always {{value}} for `{{type}}`.' },
  },
  create(context) {
    const { facts, source } = context;
    return {
      BinaryOperation(n) {
        if (!FLIP[n.operator]) return;
        let op: string = n.operator;
        let expr = n.left;
        let lit = literal(n.right);
        if (lit === null) {
          lit = literal(n.left);
          expr = n.right;
          op = FLIP[op];
        }
        if (lit === null || literal(expr) !== null) return;
        const { fn, contract } = facts.enclosing(n);
        const t = facts.typeOfExpr(unwrap(expr), fn, contract);
        const m = t ? /^uint(\d*)$/.exec(t) : null;
        if (!m) return;
        const max = (1n << BigInt(m[1] ? Number(m[1]) : 256)) - 1n;
        // expr OP lit with expr in [0, max].
        let value: boolean | null = null;
        if (op === '>=' && lit === 0n) value = true;
        else if (op === '<' && lit === 0n) value = false;
        else if (op === '<=' && lit >= max) value = true;
        else if (op === '<' && lit > max) value = true;
        else if (op === '>' && lit >= max) value = false;
        if (value === null) return;
        // Always true inside `&&`, always false inside `||`: a redundant term beside real checks.
        const p = facts.parent(n);
        if (p?.type === 'BinaryOperation' && ((p.operator === '&&' && value) || (p.operator === '||' && !value))) return;
        context.report({
          node: n,
          loc: statementLoc(n, facts),
          messageId: 'always',
          data: { expr: source.slice(startOf(n), endOf(n) + 1), value: String(value), type: t! },
        });
      },
    };
  },
};

export const detectors = [tautologyDetector];
export default detectorPlugin(detectors);
