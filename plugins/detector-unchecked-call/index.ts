// unchecked-call: a low-level `call`/`delegatecall`/`callcode`/`send` returns false instead of
// reverting, so ignoring that flag lets a failed payment or call pass silently (SWC-104).
// Avoids false positives: results used in require/assert/if/return, results stored in a
// variable that is read later, `transfer` (it reverts), and high-level contract calls.
import { detectorPlugin, statementLoc, type StaticDetector } from '../../lib/analysis/static/index.ts';

export const uncheckedCallDetector: StaticDetector = {
  meta: {
    id: 'unchecked-call',
    title: 'Unchecked low-level call',
    severity: 'MEDIUM',
    confidence: 0.85,
    category: 'unchecked_low_level_calls',
    swc: 'SWC-104',
    cwe: 'CWE-252',
    description: 'Low-level calls and send() report failure through their return value; execution continues when it is ignored.',
    recommendation:
      'Check the return value (require(ok)) or use transfer()/a high-level call that reverts; prefer the withdrawal pattern for payments.',
    exploit_scenario:
      'A payout to a contract whose fallback reverts (or runs out of gas) fails silently; the contract records the payment as done and the funds stay locked or are lost to the payee.',
    messages: {
      call: 'Return value of {{kind}} to `{{target}}` is not checked.',
      send: 'Return value of send() to `{{target}}` is not checked.',
      notInvoked: '`{{target}}.call.value(...)` is configured but never invoked (missing `()`), and nothing checks it.',
    },
  },
  create(context) {
    const facts = context.facts;
    return {
      FunctionCall(node) {
        const c = facts.externalCallByNode.get(node);
        if (!c || c.checked) return;
        if (!['call', 'delegatecall', 'callcode', 'send', 'staticcall'].includes(c.kind)) return;
        const messageId = c.notInvoked ? 'notInvoked' : c.kind === 'send' ? 'send' : 'call';
        context.report({ node, loc: statementLoc(node, facts), messageId, data: { kind: c.kind, target: c.targetText } });
      },
    };
  },
};

export const detectors = [uncheckedCallDetector];
export default detectorPlugin(detectors);
