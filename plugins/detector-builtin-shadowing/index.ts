// builtin-shadowing: a declaration named like a Solidity built-in (`now`, `require`, `sha3`,
// `msg`, `block`, `ecrecover`...) hides the built-in in its scope; code written for the built-in
// then silently uses the declaration (a local `now` read as the block time, a `require` that does
// not revert).
// Names checked: state and local variables, parameters, return values, functions, modifiers and
// events. Avoids false positives: struct members and mapping keys (they do not shadow), and names
// that only resemble a built-in (`nowTime`, `_block`).
import { detectorPlugin, line, endLine, type AST, type StaticDetector } from '../../lib/analysis/static/index.ts';

const BUILTINS = new Set([
  'now',
  'assert',
  'require',
  'revert',
  'sha3',
  'sha256',
  'keccak256',
  'ripemd160',
  'ecrecover',
  'addmod',
  'mulmod',
  'selfdestruct',
  'suicide',
  'blockhash',
  'gasleft',
  'msg',
  'block',
  'tx',
  'abi',
  'this',
  'super',
]);

export const builtinShadowingDetector: StaticDetector = {
  meta: {
    id: 'builtin-shadowing',
    title: 'Declaration shadows a built-in',
    severity: 'LOW',
    confidence: 0.9,
    category: 'other',
    swc: 'SWC-119',
    cwe: 'CWE-710',
    description: 'A variable, parameter, function, modifier or event has the name of a Solidity built-in and hides it.',
    recommendation: 'Rename the declaration (`nowTs`, `requireOwner`, `hash`).',
    exploit_scenario:
      'A parameter named `now` shadows the block time: `require(now < deadline)` compares caller input, so anyone passes any deadline check.',
    messages: { shadow: '`{{name}}` ({{what}}) shadows the built-in `{{name}}`.' },
  },
  create(context) {
    const report = (n: { name?: string | null } & AST.BaseASTNode, what: string) => {
      if (!n.name || !BUILTINS.has(n.name)) return;
      context.report({
        node: n,
        loc: { line: line(n), end_line: Math.min(endLine(n), line(n) + 2) },
        messageId: 'shadow',
        data: { name: n.name, what },
      });
    };
    return {
      VariableDeclaration(n) {
        // Struct members and mapping key names are not in scope as plain names.
        const p = context.facts.parent(n);
        if (p?.type === 'StructDefinition' || p?.type === 'Mapping') return;
        report(n, n.isStateVar ? 'state variable' : 'variable');
      },
      FunctionDefinition(n) {
        if (!n.isConstructor) report(n, 'function');
      },
      ModifierDefinition(n) {
        report(n, 'modifier');
      },
      EventDefinition(n) {
        report(n, 'event');
      },
    };
  },
};

export const detectors = [builtinShadowingDetector];
export default detectorPlugin(detectors);
