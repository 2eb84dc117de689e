// unchecked-erc20-transfer: ERC20 `transfer` and `transferFrom` report failure by returning
// false (many tokens never revert); a call whose result is dropped lets the contract carry on
// as if the tokens moved, so deposits are credited for nothing or payouts silently fail (SWC-104).
// Avoids false positives: results used (require/if/assigned and read/returned), SafeERC20's
// safeTransfer/safeTransferFrom (they check), `address.transfer(v)` (ether, reverts), and calls
// to a type declared in this file whose transfer returns nothing (USDT-style interfaces,
// ERC721's transferFrom): there is no result to check.
import { detectorPlugin, statementLoc, type StaticDetector, returnParameters } from '../../lib/analysis/static/index.ts';

export const uncheckedErc20TransferDetector: StaticDetector = {
  meta: {
    id: 'unchecked-erc20-transfer',
    title: 'Unchecked ERC20 transfer',
    severity: 'MEDIUM',
    confidence: 0.7,
    category: 'unchecked_low_level_calls',
    swc: 'SWC-104',
    cwe: 'CWE-252',
    description:
      'The boolean returned by an ERC20 transfer/transferFrom is ignored; tokens that signal failure by returning false (instead of reverting) are treated as paid.',
    recommendation: 'Use OpenZeppelin SafeERC20 (safeTransfer/safeTransferFrom), or require() the returned value.',
    exploit_scenario:
      'A deposit() calls token.transferFrom(msg.sender, this, amount) without checking; with a token that returns false on insufficient balance, the attacker is credited a deposit it never made and withdraws real tokens.',
    messages: { call: 'Result of `{{target}}.{{member}}(...)` is ignored.' },
  },
  create(context) {
    const { facts } = context;
    /** Whether the declared function of this name on a file-local type returns nothing. */
    const returnsNothing = (typeName: string | null, member: string, arity: number): boolean => {
      const k = typeName ? facts.contractByName.get(typeName) : null;
      if (!k) return false;
      const decl = k.functions.find((f) => f.name === member && (f.node.parameters ?? []).length === arity);
      return !!decl && !returnParameters(decl.node).length;
    };
    return {
      FunctionCall(n) {
        const c = facts.externalCallByNode.get(n);
        if (!c || c.kind !== 'external' || c.checked) return;
        const arity = (n.arguments ?? []).length;
        if (!((c.member === 'transfer' && arity === 2) || (c.member === 'transferFrom' && arity === 3))) return;
        if (facts.parent(n)?.type !== 'ExpressionStatement') return;
        // `super.transfer(...)` is the inherited implementation, an internal call.
        if (c.target?.type === 'Identifier' && c.target.name === 'super') return;
        const { fn, contract } = facts.enclosing(n);
        const t = c.target;
        let typeName: string | null = facts.typeOfExpr(t, fn, contract);
        if (t?.type === 'FunctionCall' && t.expression?.type === 'Identifier') typeName = t.expression.name;
        if (returnsNothing(typeName, c.member, arity)) return;
        context.report({
          node: n,
          loc: statementLoc(n, facts),
          messageId: 'call',
          data: { target: c.targetText.slice(0, 60), member: c.member },
        });
      },
    };
  },
};

export const detectors = [uncheckedErc20TransferDetector];
export default detectorPlugin(detectors);
