// array-by-reference: passing a storage array to a function whose parameter is `memory` copies
// it; the callee's writes (`arr[i] = x`, `delete arr[i]`, `arr[i]++`) change the copy and are
// lost when it returns. The caller believes the state was updated (a list of claims zeroed, a
// price table adjusted) and it was not.
// Reported at the call when the argument is a state array (or a storage pointer to one), the
// callee's parameter in that position is not `storage`, and the callee writes an element of it.
// Avoids false positives: callees that only read the copy, `storage` parameters, calldata, and
// callees that return the modified array (the caller can store it back).
import {
  detectorPlugin,
  isAssignmentOperator,
  perFunction,
  rootName,
  statementLoc,
  unwrap,
  walk,
  type MaybeNode,
  type StaticDetector,
} from '../../lib/analysis/static/index.ts';

/** Whether `body` writes an element or member of `param` (not the parameter itself). */
function writesElement(body: MaybeNode, param: string): boolean {
  let hit = false;
  const elementOf = (t: MaybeNode) => {
    const u = t ? unwrap(t) : null;
    return (u?.type === 'IndexAccess' || u?.type === 'MemberAccess') && rootName(u) === param;
  };
  walk(body, (n) => {
    if (hit) return false;
    if (n.type === 'BinaryOperation' && isAssignmentOperator(n.operator) && elementOf(n.left)) hit = true;
    else if (n.type === 'UnaryOperation' && ['++', '--', 'delete'].includes(n.operator) && elementOf(n.subExpression)) hit = true;
  });
  return hit;
}

export const arrayByReferenceDetector: StaticDetector = {
  meta: {
    id: 'array-by-reference',
    title: 'Storage array modified through a memory copy',
    severity: 'HIGH',
    confidence: 0.7,
    category: 'other',
    swc: null,
    cwe: 'CWE-440',
    description:
      'A storage array is passed to a function that takes it as `memory` and writes its elements; the writes go to a copy and the stored array is unchanged.',
    recommendation: 'Declare the parameter `storage` (internal/private functions), or assign the returned copy back to the state variable.',
    exploit_scenario:
      '`_clear(pending)` sets every pending claim to 0 on a memory copy; the state still holds the claims, so each can be paid out again.',
    messages: { copy: "`{{arg}}` is copied into `{{callee}}`'s memory parameter `{{param}}`, whose writes are lost." },
  },
  create: perFunction((fn, c, context) => {
    for (const ic of fn.internalCalls) {
      const args = ic.node.arguments ?? [];
      args.forEach((a, i) => {
        const u = unwrap(a);
        if (u?.type !== 'Identifier') return;
        const name = fn.aliases.get(u.name) ?? u.name;
        const sv = c.stateVars.get(name);
        if (!sv || sv.typeNode?.type !== 'ArrayTypeName' || sv.constant) return;
        for (const callee of ic.callees) {
          const p = callee.node.parameters?.[i];
          if (!p?.name || p.storageLocation === 'storage' || p.storageLocation === 'calldata' || !callee.node.body) continue;
          if (p.typeName?.type !== 'ArrayTypeName') continue;
          // A callee that hands the array back lets the caller store it; not this bug.
          if (
            callee.node.type === 'FunctionDefinition' &&
            (callee.node.returnParameters ?? []).some((r) => r.typeName?.type === 'ArrayTypeName')
          )
            continue;
          if (!writesElement(callee.node.body, p.name)) continue;
          context.report({
            node: ic.node,
            loc: statementLoc(ic.node, context.facts),
            messageId: 'copy',
            data: { arg: u.name, callee: callee.name, param: p.name },
          });
          return;
        }
      });
    }
  }),
};

export const detectors = [arrayByReferenceDetector];
export default detectorPlugin(detectors);
