// return-bomb: Solidity copies the whole return data of a low-level call into memory, even when
// the code ignores it; a callee chosen by the caller can return megabytes and make the memory
// expansion eat the rest of the gas, so the code after the call (refunds, bookkeeping, a relayer's
// payment) never runs. Matters where a failed inner call must not sink the outer transaction.
// Reported when the target comes from the function's parameters and the call forwards gas (no
// explicit `gas:` limit) and the function keeps going after a failure (the success flag is used
// in a condition rather than required). Avoids false positives: calls whose failure reverts
// everything anyway (`require(ok)`), gas-limited calls, assembly calls (they bound the copy).
import {
  detectorPlugin,
  callerControlled,
  isRequireLike,
  some,
  statementLoc,
  type StaticDetector,
  firstDeclaredName,
  identName,
  asNode,
} from '../../lib/analysis/static/index.ts';

export const returnBombDetector: StaticDetector = {
  meta: {
    id: 'return-bomb',
    title: 'Return-data bomb from a caller-chosen callee',
    severity: 'LOW',
    confidence: 0.5,
    category: 'denial_of_service',
    swc: 'SWC-113',
    cwe: 'CWE-400',
    description:
      "The return data of a call to an untrusted address is copied in full; a malicious callee can return enough data to exhaust the caller's gas.",
    recommendation:
      'Limit the gas forwarded and copy at most a bounded return size with assembly (ExcessivelySafeCall), or ignore return data in assembly.',
    exploit_scenario:
      "A relayer executes a user call that returns 1 MB; copying it costs all remaining gas, the relayer's fee transfer after the call never happens, and the relayer pays for the failed transaction.",
    messages: { bomb: 'Call to caller-chosen `{{target}}` copies all return data and execution continues after a failure.' },
  },
  create(context) {
    const { facts } = context;
    return {
      FunctionCall(n) {
        const c = facts.externalCallByNode.get(n);
        if (!c || (c.kind !== 'call' && c.kind !== 'staticcall' && c.kind !== 'delegatecall')) return;
        const { fn } = facts.enclosing(n);
        // Only where a stranger picks the callee: an unguarded entry point (a governance executor
        // or an internal helper's target was chosen by trusted or visible code).
        if (!fn || !fn.isPublic || fn.senderGuard || !callerControlled(c.target, fn)) return;
        // An explicit gas limit: `{gas: x}` or `.gas(x)`.
        if (
          some(
            n.expression,
            (x) =>
              (x.type === 'NameValueExpression' && (x.arguments?.names ?? []).includes('gas')) ||
              (x.type === 'MemberAccess' && x.memberName === 'gas'),
          )
        )
          return;
        // The success flag must be used to carry on, not to revert everything.
        const p = facts.parent(n);
        const flag =
          p?.type === 'VariableDeclarationStatement'
            ? firstDeclaredName(p)
            : p?.type === 'BinaryOperation' && p.left?.type === 'TupleExpression'
              ? identName(asNode(p.left.components?.[0]))
              : null;
        if (!flag || !fn.node.body) return;
        let required = false;
        some(fn.node.body, (x) => {
          if (isRequireLike(x) && some(x.arguments?.[0], (m) => m.type === 'Identifier' && m.name === flag)) required = true;
          if (
            x.type === 'IfStatement' &&
            some(x.condition, (m) => m.type === 'Identifier' && m.name === flag) &&
            some(x.trueBody, (m) => m.type === 'RevertStatement' || (m.type === 'FunctionCall' && identName(m.expression) === 'revert'))
          )
            required = true;
          return false;
        });
        if (required) return;
        context.report({ node: n, loc: statementLoc(n, facts), messageId: 'bomb', data: { target: c.targetText.slice(0, 60) } });
      },
    };
  },
};

export const detectors = [returnBombDetector];
export default detectorPlugin(detectors);
