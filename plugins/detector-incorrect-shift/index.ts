// incorrect-shift: in Yul `shl(s, v)`, `shr(s, v)` and `sar(s, v)` take the shift amount FIRST,
// unlike `v << s` in Solidity; `shl(x, 8)` shifts the constant 8 by x bits. A constant value
// operand next to a variable shift amount is the swapped form, and a constant shift of 256 bits
// or more always yields 0 (or all ones for sar of a negative value).
// Avoids false positives: both operands constant (the compiler-style folding of masks) or both
// variable (no evidence which is which), and constant values that are not shift amounts
// (`shl(x, 1)` computes 2**x; `shl(x, 0xff)` places a mask).
import { detectorPlugin, type Node, type StaticDetector, startOf, endOf } from '../../lib/analysis/static/index.ts';

const lit = (n: Node): bigint | null => {
  if (n?.type !== 'DecimalNumber' && n?.type !== 'HexNumber' && n?.type !== 'NumberLiteral') return null;
  try {
    return BigInt(String(n.type === 'NumberLiteral' ? n.number : n.value));
  } catch {
    return null;
  }
};

export const incorrectShiftDetector: StaticDetector = {
  meta: {
    id: 'incorrect-shift',
    title: 'Shift operands swapped in assembly',
    severity: 'MEDIUM',
    confidence: 0.7,
    category: 'arithmetic',
    swc: null,
    cwe: 'CWE-682',
    description: 'Yul shl/shr/sar take the shift amount as the first argument; the arguments here look swapped.',
    recommendation: 'Write shl(bits, value): `shl(8, x)` shifts x left by 8 bits.',
    exploit_scenario:
      'A packed-slot decoder writes shr(data, 96) instead of shr(96, data); the decoded address is 0 for most inputs and funds are sent to it.',
    messages: {
      swapped: '`{{op}}({{a}}, {{b}})` shifts the constant {{b}} by a variable amount: the operands look swapped.',
      wide: '`{{op}}` by {{a}} bits always yields 0.',
    },
  },
  create(context) {
    const { source } = context;
    return {
      AssemblyCall(n) {
        if (!['shl', 'shr', 'sar'].includes(n.functionName) || (n.arguments ?? []).length !== 2) return;
        const [a, b] = n.arguments;
        const la = lit(a);
        const lb = lit(b);
        const t = (x: Node) => source.slice(startOf(x), endOf(x) + 1);
        // `shl(x, 1)` is 2**x, `shl(x, 0xff)` a mask moved into place: only a value that reads like
        // a shift amount (a multiple of 8 below 256: 8, 96, 160, 224) is taken as swapped.
        if (la === null && lb !== null && lb % 8n === 0n && lb > 0n && lb < 256n)
          context.report({ node: n, messageId: 'swapped', data: { op: n.functionName, a: t(a), b: t(b) } });
        else if (la !== null && la >= 256n && n.functionName !== 'sar')
          context.report({ node: n, messageId: 'wide', data: { op: n.functionName, a: String(la) } });
      },
    };
  },
};

export const detectors = [incorrectShiftDetector];
export default detectorPlugin(detectors);
