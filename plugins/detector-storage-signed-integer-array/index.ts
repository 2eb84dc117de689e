// storage-signed-integer-array: solc 0.4.7 to 0.5.9 miscompile the copy of a signed integer array
// into a storage array of a different signed type (the "signed integer array" storage bug, fixed
// in 0.5.10): negative elements are not sign-extended correctly, so `int256[3] x = [-1, 2, -3]`
// (the literal is an `int8[3]`) stores large positive numbers where -1 and -3 were meant. Balances,
// offsets or votes held there are silently wrong.
// Reported only when the pragma admits an affected compiler: HIGH when every admitted version is
// affected, MEDIUM when a fixed one may be used (the outcome depends on the compiler chosen).
// Avoids false positives: literals without a negative element, literals whose element type is the
// storage array's own (`int8[3] x = [int8(-1), 2, 3]`), unsigned arrays, memory arrays, and
// pragmas that admit only fixed compilers.
import {
  admits,
  bugScope,
  detectorPlugin,
  perContract,
  rootName,
  unwrap,
  walk,
  asNodes,
  type AST,
  type MaybeNode,
  type Node,
  type StaticDetector,
} from '../../lib/analysis/static/index.ts';

export const AFFECTED = '>=0.4.7 <0.5.10';

/** Bits of a signed integer type name (`int` → 256); null otherwise. */
const signedBits = (name: string | null | undefined) => {
  const m = name ? /^int(\d*)$/.exec(name) : null;
  return m ? (m[1] ? Number(m[1]) : 256) : null;
};

/** The element type (bits) of an inline array with a negative element; null for any other value. */
function negativeLiteralBits(e: MaybeNode): number | null {
  const u = unwrap(e);
  if (u?.type !== 'TupleExpression' || !u.isArray) return null;
  let negative = false;
  let explicit: number | null = null;
  let magnitude = 0n;
  for (const x of asNodes(u.components)) {
    let v = unwrap(x);
    if (v.type === 'FunctionCall' && v.expression?.type === 'ElementaryTypeName' && v.arguments?.length === 1) {
      explicit ??= signedBits(v.expression.name);
      v = unwrap(v.arguments[0]);
    }
    const neg = v.type === 'UnaryOperation' && v.operator === '-';
    const lit = v.type === 'UnaryOperation' && neg ? unwrap(v.subExpression) : v;
    if (neg) negative = true;
    if (lit?.type === 'NumberLiteral' && /^\d+$/.test(String(lit.number))) {
      const n = BigInt(String(lit.number));
      if (n > magnitude) magnitude = n;
    }
  }
  if (!negative) return null;
  if (explicit) return explicit;
  // Without a conversion the literal's element type is the narrowest signed type holding every value.
  let bits = 8;
  while (bits < 256 && magnitude >= 2n ** BigInt(bits - 1)) bits += 8;
  return bits;
}

export const storageSignedIntegerArrayDetector: StaticDetector = {
  meta: {
    id: 'storage-signed-integer-array',
    title: 'Signed integer array literal stored corrupted (solc 0.4.7–0.5.9 bug)',
    severity: 'HIGH',
    confidence: 0.8,
    category: 'other',
    swc: 'SWC-102',
    cwe: 'CWE-937',
    description:
      'An array literal with negative values is assigned to a storage array of another signed integer type; compilers 0.4.7 to 0.5.9 store the negative elements with wrong values.',
    recommendation: 'Compile with 0.5.10 or later (pin the pragma), or write the elements one by one with the storage array’s type.',
    exploit_scenario:
      'Penalties are kept in `int256[3] penalty = [-1, -5, -10]`; the compiler stores them as huge positive numbers, and every penalty becomes a bonus.',
    messages: {
      bug: '`{{name}}` ({{type}}) is assigned an int{{bits}} array literal with negative values: solc 0.4.7–0.5.9 store them wrongly{{when}}.',
    },
  },
  create: perContract((c, context) => {
    const { facts } = context;
    const range = admits(facts.version, AFFECTED);
    if (range === 'none') return;
    const scope = bugScope(range, 'MEDIUM');
    const arrays = new Map<string, { bits: number; type: string }>();
    for (const v of c.stateVars.values()) {
      const t = v.typeNode;
      if (t?.type !== 'ArrayTypeName' || t.baseTypeName?.type !== 'ElementaryTypeName') continue;
      const bits = signedBits(t.baseTypeName.name);
      if (bits) arrays.set(v.name, { bits, type: v.type });
    }
    if (!arrays.size) return;
    const report = (node: Node, name: string, bits: number) =>
      context.report({
        node,
        messageId: 'bug',
        data: { name, type: arrays.get(name)!.type, bits: String(bits), when: scope.when },
        ...(scope.severity ? { severity: scope.severity } : {}),
      });
    for (const v of c.stateVars.values()) {
      if (v.contract !== c.name) continue;
      const bits = negativeLiteralBits((v.node as AST.StateVariableDeclarationVariable & { expression?: Node }).expression);
      if (bits && arrays.has(v.name) && bits !== arrays.get(v.name)!.bits) report(v.node, v.name, bits);
    }
    for (const fn of c.ownFunctions) {
      if (!fn.node.body) continue;
      walk(fn.node.body, (n) => {
        if (n.type !== 'BinaryOperation' || n.operator !== '=') return;
        const l = unwrap(n.left);
        if (l?.type !== 'Identifier') return;
        const name = fn.aliases.get(l.name) ?? (fn.locals.has(l.name) ? null : rootName(l));
        const arr = name ? arrays.get(name) : undefined;
        const bits = negativeLiteralBits(n.right);
        if (name && arr && bits && bits !== arr.bits) report(n, name, bits);
      });
    }
  }),
};

export const detectors = [storageSignedIntegerArrayDetector];
export default detectorPlugin(detectors);
