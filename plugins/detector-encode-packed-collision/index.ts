// encode-packed-collision: abi.encodePacked concatenates dynamic values without their lengths, so
// ("ab", "c") and ("a", "bc") encode to the same bytes; hashing such an encoding for a signature,
// an id or an access decision lets one input stand for another (SWC-133).
// Reports encodePacked with two adjacent non-constant variable-length arguments (string, bytes,
// dynamic arrays) whose result is hashed. Avoids false positives: one dynamic argument, dynamic
// values separated by a literal or fixed-size value (the split is pinned), string/bytes literals
// and locals holding one (constants), abi.encode.
import {
  detectorPlugin,
  isHashCall,
  statementLoc,
  unwrap,
  walk,
  type ContractFacts,
  type FunctionFacts,
  type Node,
  type StaticDetector,
  startOf,
  endOf,
  declaredVariables,
  type MaybeNode,
} from '../../lib/analysis/static/index.ts';

const isPacked = (n: Node) =>
  n?.type === 'FunctionCall' &&
  n.expression?.type === 'MemberAccess' &&
  n.expression.memberName === 'encodePacked' &&
  n.expression.expression?.type === 'Identifier' &&
  n.expression.expression.name === 'abi';
const DYNAMIC = /^(string|bytes)$|\[\]$/;
const isTextLiteral = (n: MaybeNode) => n?.type === 'StringLiteral' || n?.type === 'HexLiteral';

function literalName(name: string, fn: FunctionFacts | null, contract: ContractFacts | null): boolean {
  const sv = contract?.stateVars.get(name);
  if (sv && (!fn || !fn.locals.has(name))) return sv.constant && isTextLiteral(sv.node.expression);
  let lit = false;
  let other = false;
  if (fn?.node.body)
    walk(fn.node.body, (n) => {
      if (n.type === 'VariableDeclarationStatement' && declaredVariables(n).some((v) => v?.name === name)) {
        if (isTextLiteral(n.initialValue)) lit = true;
        else other = true;
      }
      if (n.type === 'BinaryOperation' && n.operator === '=' && n.left?.type === 'Identifier' && n.left.name === name) other = true;
    });
  return lit && !other;
}

export const encodePackedCollisionDetector: StaticDetector = {
  meta: {
    id: 'encode-packed-collision',
    title: 'Hash collision with abi.encodePacked of variable-length values',
    severity: 'MEDIUM',
    confidence: 0.7,
    category: 'other',
    swc: 'SWC-133',
    cwe: 'CWE-294',
    description: 'abi.encodePacked drops the lengths of dynamic values, so different argument lists hash to the same digest.',
    recommendation: 'Use abi.encode (lengths included), or keep at most one variable-length value in encodePacked.',
    exploit_scenario:
      'A signature over keccak256(abi.encodePacked(names, roles)) for (["admin"], ["user"]) is replayed as (["adm"], ["inuser"])-style splits; the attacker moves bytes across the boundary and obtains a different authorization under the same signature.',
    messages: { packed: '`abi.encodePacked` of `{{args}}` (variable-length) is hashed: values can shift across the boundary.' },
  },
  create(context) {
    const { facts, source } = context;
    return {
      FunctionCall(n) {
        if (!isPacked(n)) return;
        let p = facts.parent(n);
        while (p?.type === 'TupleExpression') p = facts.parent(p);
        if (!isHashCall(p)) return;
        const { fn, contract } = facts.enclosing(n);
        const isDyn = (a: Node) => {
          const u = unwrap(a);
          if (u?.type === 'StringLiteral' || u?.type === 'HexLiteral') return false;
          // A local or constant holding a literal (`string memory prefix = "\x19Ethereum..."`).
          if (u?.type === 'Identifier' && literalName(u.name, fn, contract)) return false;
          const t = facts.typeOfExpr(u, fn, contract);
          return !!t && DYNAMIC.test(t);
        };
        // Two variable-length values side by side: with a fixed-size value or a literal between
        // them the boundary is pinned (EIP-712 type strings: `"X(", name, " contents,...", type`).
        const args: Node[] = n.arguments ?? [];
        let dyn: Node[] = [];
        for (let i = 0; i + 1 < args.length && !dyn.length; i++) if (isDyn(args[i]) && isDyn(args[i + 1])) dyn = [args[i], args[i + 1]];
        if (dyn.length < 2) return;
        context.report({
          node: n,
          loc: statementLoc(n, facts),
          messageId: 'packed',
          data: { args: dyn.map((a: Node) => source.slice(startOf(a), endOf(a) + 1)).join('`, `') },
        });
      },
    };
  },
};

export const detectors = [encodePackedCollisionDetector];
export default detectorPlugin(detectors);
