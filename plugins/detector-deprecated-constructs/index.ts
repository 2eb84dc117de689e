// deprecated-constructs: throw, suicide, sha3, callcode, var, `constant` functions,
// block.blockhash and msg.gas were deprecated and later removed; their presence means an old
// compiler and often the semantics people no longer expect (throw burns all gas) (SWC-111).
// Informational, and grouped: one finding per construct and contract at its first use, with
// every line in the evidence, so an old contract yields a short list instead of noise.
import { definePlugin } from '../../kernel/index.ts';
import type { StaticDetector } from '../../lib/analysis/static/index.ts';

const REPLACEMENT: Record<string, string> = {
  throw: 'revert()/require()',
  suicide: 'selfdestruct',
  sha3: 'keccak256',
  callcode: 'delegatecall',
  var: 'an explicit type',
  constant: 'view/pure',
  'block.blockhash': 'blockhash()',
  'msg.gas': 'gasleft()',
};

export const deprecatedConstructsDetector: StaticDetector = {
  meta: {
    id: 'deprecated-constructs',
    title: 'Deprecated Solidity construct',
    severity: 'INFO',
    confidence: 0.95,
    category: 'other',
    swc: 'SWC-111',
    cwe: 'CWE-477',
    description: 'Deprecated constructs are removed from current compilers and some have surprising semantics.',
    recommendation: 'Replace them with their current equivalents and compile with a maintained compiler.',
    exploit_scenario: 'Code relying on `throw` consumes all gas on failure; `callcode` keeps msg.sender semantics nobody expects any more.',
    messages: { use: '`{{name}}` is deprecated; use {{replacement}} ({{count}} use(s) in this contract).' },
  },
  create(context) {
    const { facts } = context;
    const seen = new Map<string, { node: any; lines: number[]; name: string; contract: string | null }>();
    const hit = (name: string, node: any) => {
      const contract = facts.enclosing(node).contract?.name ?? null;
      const key = `${contract}\u0000${name}`;
      const cur = seen.get(key);
      if (cur) cur.lines.push(node.loc.start.line);
      else seen.set(key, { node, lines: [node.loc.start.line], name, contract });
    };
    return {
      ThrowStatement: (n) => hit('throw', n),
      FunctionCall(n) {
        const c = n.expression;
        if (c?.type === 'Identifier' && (c.name === 'suicide' || c.name === 'sha3')) hit(c.name, n);
      },
      MemberAccess(n) {
        if (n.memberName === 'callcode') hit('callcode', n);
        if (n.memberName === 'blockhash' && n.expression?.type === 'Identifier' && n.expression.name === 'block') hit('block.blockhash', n);
        if (n.memberName === 'gas' && n.expression?.type === 'Identifier' && n.expression.name === 'msg') hit('msg.gas', n);
      },
      VariableDeclarationStatement(n) {
        if (n.variables?.some((v: any) => v?.typeName?.type === 'ElementaryTypeName' && v.typeName.name === 'var')) hit('var', n);
      },
      FunctionDefinition(n) {
        if (n.stateMutability === 'constant' || n.isDeclaredConst) hit('constant', n);
      },
      'SourceUnit:exit'() {
        for (const s of seen.values()) {
          context.report({
            node: s.node,
            loc: { line: s.node.loc.start.line, end_line: s.node.loc.start.line },
            messageId: 'use',
            contract: s.contract,
            data: { name: s.name, replacement: REPLACEMENT[s.name], count: s.lines.length },
            evidence: { lines: s.lines },
          });
        }
      },
    };
  },
};

export default definePlugin({
  setup(ctx) {
    ctx.registerDetector(deprecatedConstructsDetector);
  },
});
