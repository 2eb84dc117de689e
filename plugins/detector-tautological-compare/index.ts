// tautological-compare: a comparison of an expression with itself (`a == a`, `x >= x`,
// `balances[from] != balances[from]`) always gives the same answer. It is nearly always a typo
// for another variable (`from == from` for `from == to`), so the check it was written for is
// missing.
// Compared by normalised source text (white space removed) of two side-effect-free operands.
// Avoids false positives: operands with calls (`f() == f()` can differ between calls).
import { detectorPlugin, endOf, some, startOf, statementLoc, type Node, type StaticDetector } from '../../lib/analysis/static/index.ts';

const COMPARE = new Set(['==', '!=', '<', '>', '<=', '>=']);
const ALWAYS: Record<string, string> = { '==': 'true', '<=': 'true', '>=': 'true', '!=': 'false', '<': 'false', '>': 'false' };

export const tautologicalCompareDetector: StaticDetector = {
  meta: {
    id: 'tautological-compare',
    title: 'Expression compared with itself',
    severity: 'MEDIUM',
    confidence: 0.8,
    category: 'other',
    swc: null,
    cwe: 'CWE-571',
    description: 'Both sides of a comparison are the same expression, so the result is constant.',
    recommendation: 'Compare against the intended second value (often another parameter: `from != to`).',
    exploit_scenario:
      '`require(newOwner != newOwner)` was meant as `require(newOwner != owner)`; it always fails, or, written with `==`, never guards anything.',
    messages: { same: '`{{text}}` compares a value with itself: always {{value}}.' },
  },
  create(context) {
    const { source, facts } = context;
    const txt = (n: Node) => source.slice(startOf(n), endOf(n) + 1).replace(/\s+/g, '');
    return {
      BinaryOperation(n) {
        if (!COMPARE.has(n.operator)) return;
        const l = txt(n.left);
        if (!l || l !== txt(n.right)) return;
        if (some(n.left, (x) => x.type === 'FunctionCall')) return;
        context.report({
          node: n,
          loc: statementLoc(n, facts),
          messageId: 'same',
          data: { text: source.slice(startOf(n), endOf(n) + 1), value: ALWAYS[n.operator] },
        });
      },
    };
  },
};

export const detectors = [tautologicalCompareDetector];
export default detectorPlugin(detectors);
