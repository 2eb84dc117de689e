// incorrect-exponent: in Solidity `^` is bitwise XOR, not exponentiation, so `10 ^ 18` is 24 and
// `2 ^ 256` is 258; a decimal-literal base next to `^` is almost always a power that was meant.
// Avoids false positives: XOR with a hexadecimal or binary-looking mask (`x ^ 0xff`), XOR of two
// variables (hashing, bit tricks), and decimal literals on the right only (`x ^ 1` flips a bit).
import { detectorPlugin, statementLoc, unwrap, type Node, type StaticDetector, startOf, endOf } from '../../lib/analysis/static/index.ts';

const decimal = (n: Node) => {
  const u = unwrap(n);
  return u?.type === 'NumberLiteral' && /^[0-9][0-9_]*$/.test(String(u.number)) && Number(String(u.number).replace(/_/g, '')) >= 2;
};

export const incorrectExponentDetector: StaticDetector = {
  meta: {
    id: 'incorrect-exponent',
    title: '`^` used as exponentiation',
    severity: 'HIGH',
    confidence: 0.8,
    category: 'arithmetic',
    swc: 'SWC-101',
    cwe: 'CWE-682',
    description: 'In Solidity `^` is bitwise XOR; `10 ^ 18` evaluates to 24, not 10**18.',
    recommendation: 'Use `**` for powers (10 ** 18, 2 ** 256 - 1), or type(uint256).max.',
    exploit_scenario:
      'A cap written as `2 ^ 128` is 130: deposits above 130 wei revert, or a fee scaled by `10 ^ 18` is 24 and rounds every fee to zero.',
    messages: { xor: '`{{expr}}` is XOR ({{value}}), not a power.' },
  },
  create(context) {
    const { facts, source } = context;
    return {
      BinaryOperation(n) {
        if (n.operator !== '^' || !decimal(n.left)) return;
        const l = unwrap(n.left);
        const r = unwrap(n.right);
        let value = '?';
        if (l?.type === 'NumberLiteral' && r?.type === 'NumberLiteral' && /^[0-9]+$/.test(String(r.number)))
          value = String(BigInt(l.number) ^ BigInt(r.number));
        context.report({
          node: n,
          loc: statementLoc(n, facts),
          messageId: 'xor',
          data: { expr: source.slice(startOf(n), endOf(n) + 1), value },
        });
      },
    };
  },
};

export const detectors = [incorrectExponentDetector];
export default detectorPlugin(detectors);
