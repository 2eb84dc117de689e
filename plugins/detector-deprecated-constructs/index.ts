// deprecated-constructs: deprecated constructs whose behaviour differs from what replaced them
// (SWC-111): `throw` consumes all remaining gas where revert() refunds it; `var` infers the
// smallest type that holds its initialiser (`var i = 0` is a uint8, so a loop to 300 never ends
// and arithmetic wraps at 255); `callcode` runs foreign code with msg.sender/msg.value rewritten,
// unlike delegatecall. Informational, and grouped: one finding per construct and file at its
// first use, with every line (and the contracts) in the evidence.
// Avoids false positives: pure renames with identical semantics (sha3, suicide, `constant`
// functions, block.blockhash, msg.gas) are not reported: they cannot make code behave
// differently from what its author reads, and any current compiler rejects them by name anyway.
// For the same reason `var` is reported only where its initialiser is a number literal (or an
// expression of literals): from a typed value it takes that value's type, a rename.
import {
  detectorPlugin,
  type StaticDetector,
  line,
  declaredVariables,
  type MaybeNode,
  type Node,
  asNode,
} from '../../lib/analysis/static/index.ts';

const REPLACEMENT: Record<string, string> = {
  throw: 'revert()/require(), which refund the unused gas',
  callcode: 'delegatecall, which keeps msg.sender and msg.value',
  var: 'an explicit type (`var` picks the smallest type that fits the initial value)',
};

/** A number literal, or arithmetic/negation/tuple made only of them: a value whose type the
 *  compiler infers as the smallest that holds it. */
function literalTyped(n: MaybeNode): boolean {
  // Not `unwrap`: a conversion (`uint256(0)`) gives the literal its type.
  const u = n?.type === 'TupleExpression' && n.components?.length === 1 ? asNode(n.components[0]) : n;
  if (!u) return false;
  if (u.type === 'NumberLiteral') return true;
  if (u.type === 'UnaryOperation') return literalTyped(u.subExpression);
  if (u.type === 'BinaryOperation') return literalTyped(u.left) && literalTyped(u.right);
  if (u.type === 'TupleExpression') return (u.components ?? []).some((c) => literalTyped(asNode(c)));
  return false;
}

export const deprecatedConstructsDetector: StaticDetector = {
  meta: {
    id: 'deprecated-constructs',
    title: 'Deprecated Solidity construct',
    severity: 'INFO',
    confidence: 0.95,
    category: 'other',
    swc: 'SWC-111',
    cwe: 'CWE-477',
    description:
      'Deprecated constructs whose semantics differ from their replacements: throw burns all gas, var picks the smallest integer type, callcode rewrites msg.sender.',
    recommendation: 'Replace them with their current equivalents and compile with a maintained compiler.',
    exploit_scenario: 'Code relying on `throw` consumes all gas on failure; `callcode` keeps msg.sender semantics nobody expects any more.',
    messages: { use: '`{{name}}` is deprecated; use {{replacement}} ({{count}} use(s) in this file).' },
  },
  create(context) {
    const { facts } = context;
    const seen = new Map<string, { node: Node; lines: number[]; name: string; contract: string | null; contracts: string[] }>();
    const hit = (name: string, node: Node) => {
      const contract = facts.enclosing(node).contract?.name ?? null;
      const cur = seen.get(name);
      if (cur) {
        cur.lines.push(line(node));
        if (contract && !cur.contracts.includes(contract)) cur.contracts.push(contract);
      } else seen.set(name, { node, lines: [line(node)], name, contract, contracts: contract ? [contract] : [] });
    };
    return {
      ThrowStatement: (n) => hit('throw', n),
      MemberAccess(n) {
        if (n.memberName === 'callcode') hit('callcode', n);
      },
      VariableDeclarationStatement(n) {
        // `var` takes the type of its initialiser: only a number literal (or an expression of
        // literals) gets a type narrower than intended (`var i = 0` is a uint8). From any typed
        // value (`var acc = Acc[msg.sender]`, `var x = msg.value`) it is a rename, like sha3.
        if (
          declaredVariables(n).some((v) => v?.typeName?.type === 'ElementaryTypeName' && v.typeName.name === 'var') &&
          literalTyped(n.initialValue)
        )
          hit('var', n);
      },
      'SourceUnit:exit'() {
        for (const s of seen.values()) {
          context.report({
            node: s.node,
            loc: { line: line(s.node), end_line: line(s.node) },
            messageId: 'use',
            contract: s.contract,
            data: { name: s.name, replacement: REPLACEMENT[s.name], count: s.lines.length },
            evidence: { lines: s.lines, contracts: s.contracts },
          });
        }
      },
    };
  },
};

export const detectors = [deprecatedConstructsDetector];
export default detectorPlugin(detectors);
