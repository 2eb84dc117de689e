// msg-value-loop: msg.value is the ether of the whole call; reading it once per iteration of a
// loop (or in a helper the loop calls, or through delegatecall in a loop, which keeps msg.value)
// credits the same payment several times: pay for one, get N (batch mint, multicall).
// Avoids false positives: msg.value read outside loops; loops in functions that cannot receive
// ether (non-payable entry points revert on value, so msg.value is 0 there).
import {
  detectorPlugin,
  isMember,
  reachableFunctions,
  statementLoc,
  walk,
  type FunctionFacts,
  type Node,
  type StaticDetector,
} from '../../lib/analysis/static/index.ts';

const isMsgValue = (n: Node) => isMember(n, 'msg', 'value');

export const msgValueLoopDetector: StaticDetector = {
  meta: {
    id: 'msg-value-loop',
    title: 'msg.value used inside a loop',
    severity: 'HIGH',
    confidence: 0.7,
    category: 'other',
    swc: null,
    cwe: 'CWE-837',
    description: 'msg.value does not change between iterations: using it per item counts one payment many times.',
    recommendation:
      'Read msg.value once before the loop, sum what each item costs and require(msg.value == total); track the ether spent in a local.',
    exploit_scenario: 'batchBuy(ids) credits msg.value for every id; the attacker pays for one item and receives ten.',
    messages: {
      loop: '`msg.value` read inside a loop of `{{fn}}`: every iteration sees the same payment.',
      callee: '`{{callee}}` reads msg.value and is called inside a loop of `{{fn}}`.',
    },
  },
  create(context) {
    const { facts } = context;
    const readsValue = (g: FunctionFacts) => reachableFunctions(g, 3).some((h) => !!h.node.body && some1(h.node.body, isMsgValue));
    return {
      MemberAccess(n) {
        if (!isMsgValue(n) || !facts.inLoop(n)) return;
        const { fn } = facts.enclosing(n);
        if (!fn || fn.kind === 'modifier') return;
        // Only reachable with value from a payable entry point (or an internal function).
        if (fn.isPublic && !fn.payable) return;
        context.report({ node: n, loc: statementLoc(n, facts), messageId: 'loop', data: { fn: fn.name } });
      },
      FunctionCall(n) {
        if (!facts.inLoop(n)) return;
        const { fn } = facts.enclosing(n);
        if (!fn || !fn.payable) return;
        const ic = fn.internalCalls.find((c) => c.node === n);
        const g = ic?.callees.find((x) => x !== fn && readsValue(x));
        if (g) context.report({ node: n, loc: statementLoc(n, facts), messageId: 'callee', data: { fn: fn.name, callee: g.name } });
      },
    };
  },
};

function some1(body: Node, pred: (n: Node) => boolean): boolean {
  let hit = false;
  walk(body, (n) => {
    if (hit) return false;
    if (pred(n)) hit = true;
  });
  return hit;
}

export const detectors = [msgValueLoopDetector];
export default detectorPlugin(detectors);
