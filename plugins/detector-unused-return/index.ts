// unused-return: an external call to a function that returns values (an amount actually moved,
// a success flag, an id) is made as a bare statement: the contract proceeds on what it asked for,
// not on what happened (Uniswap's swap returns the amounts, a router's addLiquidity the shares).
// Judged against declarations in this file: only a called function whose interface or contract
// here declares return values is reported, so unknown callees are left alone. ERC20 transfer and
// transferFrom belong to unchecked-erc20-transfer; views are not reported (a bare view call does
// nothing at all, which is a different mistake).
import { detectorPlugin, statementLoc, type StaticDetector, returnParameters, elementaryName } from '../../lib/analysis/static/index.ts';

export const unusedReturnDetector: StaticDetector = {
  meta: {
    id: 'unused-return',
    title: 'Return value of an external call ignored',
    severity: 'MEDIUM',
    confidence: 0.55,
    category: 'unchecked_low_level_calls',
    swc: 'SWC-104',
    cwe: 'CWE-252',
    description: 'The called function returns a result that says what happened (an amount, a flag); the caller ignores it.',
    recommendation: 'Use the returned values (the amounts actually received, the success flag) or require() them.',
    exploit_scenario:
      'addLiquidity returns the liquidity actually minted; the vault credits the requested amounts instead, and a depositor is credited shares the pool never issued.',
    messages: { ignored: '`{{target}}.{{member}}(...)` returns {{returns}}, which is ignored.' },
  },
  create(context) {
    const { facts } = context;
    return {
      FunctionCall(n) {
        const c = facts.externalCallByNode.get(n);
        if (!c || c.kind !== 'external' || !c.member || facts.parent(n)?.type !== 'ExpressionStatement') return;
        if (c.member === 'transfer' || c.member === 'transferFrom') return;
        const { fn, contract } = facts.enclosing(n);
        const t = c.target;
        let typeName: string | null = facts.typeOfExpr(t, fn, contract);
        if (t?.type === 'FunctionCall' && t.expression?.type === 'Identifier') typeName = t.expression.name;
        const k = typeName ? facts.contractByName.get(typeName) : null;
        const arity = (n.arguments ?? []).length;
        const decl = k?.functions.find((f) => f.name === c.member && (f.node.parameters ?? []).length === arity);
        if (!decl || decl.isView || !returnParameters(decl.node).length) return;
        const returns = returnParameters(decl.node)
          .map((p) => p.name || elementaryName(p.typeName) || 'a value')
          .join(', ');
        context.report({
          node: n,
          loc: statementLoc(n, facts),
          messageId: 'ignored',
          data: { target: c.targetText.slice(0, 60), member: c.member, returns },
        });
      },
    };
  },
};

export const detectors = [unusedReturnDetector];
export default detectorPlugin(detectors);
