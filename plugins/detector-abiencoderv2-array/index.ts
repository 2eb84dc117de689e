// abiencoderv2-array: with `pragma experimental ABIEncoderV2`, solc 0.4.7 to 0.5.9 encode a
// storage array whose elements are arrays or structs incorrectly when it is encoded straight from
// storage (the "ABIEncoderV2 storage array" bug, fixed in 0.5.10): `abi.encode(grid)`, an event
// argument, or the return value of an external/public function. `uint[2][3] grid = [[1,2],[3,4],
// [5,6]]` comes out as [[1,2],[2,3],[3,4]]: other contracts, signatures or off-chain readers
// get wrong data.
// Reported only with ABIEncoderV2 enabled and a pragma admitting an affected compiler: HIGH when
// every admitted version is affected, MEDIUM when a fixed one may be used.
// Avoids false positives: arrays of value types (`uint[]`), copies to memory before encoding
// (`uint[2][3] memory g = grid; abi.encode(g)`), elements read one by one, and the old encoder.
import {
  admits,
  bugScope,
  detectorPlugin,
  isMember,
  perContract,
  unwrap,
  walk,
  type MaybeNode,
  type Node,
  type StaticDetector,
} from '../../lib/analysis/static/index.ts';

const AFFECTED = '>=0.4.7 <0.5.10';

export const abiEncoderV2ArrayDetector: StaticDetector = {
  meta: {
    id: 'abiencoderv2-array',
    title: 'Storage array of arrays or structs encoded by ABIEncoderV2 (solc 0.4.7–0.5.9 bug)',
    severity: 'HIGH',
    confidence: 0.8,
    category: 'other',
    swc: 'SWC-102',
    cwe: 'CWE-937',
    description:
      'With ABIEncoderV2, compilers 0.4.7 to 0.5.9 encode storage arrays of arrays or structs wrongly when they are encoded straight from storage (abi.encode, events, return values).',
    recommendation: 'Compile with 0.5.10 or later, or copy the array to memory before encoding it.',
    exploit_scenario:
      'A registry returns its `Order[] orders` from an external view; with the buggy encoder the caller decodes shifted, duplicated orders and settles the wrong ones.',
    messages: {
      bug: '`{{name}}` ({{type}}) is ABI-encoded straight from storage ({{how}}): solc 0.4.7–0.5.9 with ABIEncoderV2 encode it wrongly{{when}}.',
    },
  },
  create: perContract((c, context) => {
    const { facts } = context;
    const v2 = (facts.ast.children ?? []).some(
      (d) => d.type === 'PragmaDirective' && d.name === 'experimental' && /ABIEncoderV2/.test(String(d.value)),
    );
    const range = v2 ? admits(facts.version, AFFECTED) : 'none';
    if (range === 'none') return;
    const scope = bugScope(range, 'MEDIUM');
    // Storage arrays whose elements are arrays or structs.
    const nested = new Map<string, string>();
    for (const v of c.stateVars.values()) {
      const t = v.typeNode;
      if (t?.type !== 'ArrayTypeName') continue;
      const base = t.baseTypeName;
      if (base?.type === 'ArrayTypeName' || (base?.type === 'UserDefinedTypeName' && facts.structs.has(base.namePath)))
        nested.set(v.name, v.type);
    }
    if (!nested.size) return;
    const target = (e: MaybeNode, fnLocals: Set<string>): string | null => {
      const u = unwrap(e);
      return u?.type === 'Identifier' && !fnLocals.has(u.name) && nested.has(u.name) ? u.name : null;
    };
    const report = (node: Node, name: string, how: string) =>
      context.report({
        node,
        messageId: 'bug',
        data: { name, type: nested.get(name)!, how, when: scope.when },
        ...(scope.severity ? { severity: scope.severity } : {}),
      });
    for (const fn of c.ownFunctions) {
      if (!fn.node.body) continue;
      walk(fn.node.body, (n) => {
        if (
          n.type === 'FunctionCall' &&
          n.expression?.type === 'MemberAccess' &&
          isMember(n.expression, 'abi', n.expression.memberName) &&
          /^encode/.test(n.expression.memberName)
        ) {
          for (const a of n.arguments ?? []) {
            const name = target(a, fn.locals);
            if (name) report(n, name, `abi.${n.expression.memberName}`);
          }
        } else if (n.type === 'EmitStatement') {
          for (const a of n.eventCall?.arguments ?? []) {
            const name = target(a, fn.locals);
            if (name) report(n, name, 'event argument');
          }
        } else if (n.type === 'ReturnStatement' && fn.isPublic) {
          const name = target(n.expression, fn.locals);
          if (name) report(n, name, `returned by ${fn.visibility} \`${fn.name}\``);
        }
      });
    }
  }),
};

export const detectors = [abiEncoderV2ArrayDetector];
export default detectorPlugin(detectors);
