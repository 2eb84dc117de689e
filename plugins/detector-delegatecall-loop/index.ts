// delegatecall-loop: delegatecall keeps the caller's msg.value, so a payable function that
// delegatecalls in a loop (multicall, batch) lets every inner call see, and credit, the whole
// payment again: pay once, deposit N times.
// Avoids false positives: loops in functions that cannot receive ether (non-payable entry points,
// where msg.value is 0), and delegatecall outside loops.
import { detectorPlugin, statementLoc, type StaticDetector } from '../../lib/analysis/static/index.ts';

export const delegatecallLoopDetector: StaticDetector = {
  meta: {
    id: 'delegatecall-loop',
    title: 'delegatecall inside a loop of a payable function',
    severity: 'HIGH',
    confidence: 0.7,
    category: 'other',
    swc: null,
    cwe: 'CWE-837',
    description: 'Each delegatecall runs with the original msg.value; in a loop, one payment is seen by every iteration.',
    recommendation: 'Make the batching function non-payable, or forbid msg.value in the delegated calls and account for the ether once.',
    exploit_scenario:
      'multicall([deposit(), deposit(), deposit()]) with 1 ether credits 3 ether: each delegated deposit() reads msg.value = 1 ether.',
    messages: { loop: 'delegatecall to `{{target}}` inside a loop of payable `{{fn}}`: each iteration reuses msg.value.' },
  },
  create(context) {
    const { facts } = context;
    return {
      FunctionCall(n) {
        const c = facts.externalCallByNode.get(n);
        if (!c || c.kind !== 'delegatecall' || !c.inLoop) return;
        const { fn } = facts.enclosing(n);
        if (!fn || !fn.payable) return;
        context.report({
          node: n,
          loc: statementLoc(n, facts),
          messageId: 'loop',
          data: { fn: fn.name, target: c.targetText.slice(0, 60) },
        });
      },
    };
  },
};

export const detectors = [delegatecallLoopDetector];
export default detectorPlugin(detectors);
