// unprotected-delegatecall: delegatecall runs foreign code on this contract's storage and
// balance. Reachable by anyone it lets callers run library functions against this contract's
// state (Parity multisig), and with a caller-chosen target or calldata anything at all (SWC-112).
// Avoids false positives: delegatecalls behind an access check, and internal functions that no
// unguarded entry point reaches.
import { definePlugin } from '../../kernel/index.ts';
import { callerControlled, statementLoc, type StaticDetector } from '../../lib/analysis/static/index.ts';

export const unprotectedDelegatecallDetector: StaticDetector = {
  meta: {
    id: 'unprotected-delegatecall',
    title: 'Unprotected delegatecall',
    severity: 'HIGH',
    confidence: 0.65,
    category: 'access_control',
    swc: 'SWC-112',
    cwe: 'CWE-829',
    description: 'delegatecall executes another contract’s code in the context of this one; without an access check callers decide what runs against this storage.',
    recommendation: 'Restrict delegatecall to trusted, fixed targets behind an access check, whitelist callable selectors, and never forward arbitrary msg.data.',
    exploit_scenario: 'An attacker sends calldata for the library’s initWallet() through the fallback’s delegatecall and becomes owner of the wallet.',
    messages: {
      target: 'delegatecall to caller-chosen address `{{target}}`.',
      data: 'delegatecall forwards caller-chosen calldata to `{{target}}`.',
      open: 'delegatecall to `{{target}}` reachable by any caller.',
    },
  },
  create(context) {
    const { facts } = context;
    return {
      FunctionCall(n) {
        const c = facts.externalCallByNode.get(n);
        if (!c || (c.kind !== 'delegatecall' && c.kind !== 'callcode')) return;
        const { fn } = facts.enclosing(n);
        if (!fn || fn.senderGuard || fn.kind === 'constructor') return;
        if (!fn.isPublic) return;
        // `require(!lib.delegatecall(d))` only proceeds when the call failed and changed nothing.
        const p = facts.parent(n);
        if (p?.type === 'UnaryOperation' && p.operator === '!' && facts.parent(p)?.type === 'FunctionCall') return;
        const args = n.arguments ?? [];
        let messageId = 'open';
        let severity: 'HIGH' | 'MEDIUM' = 'MEDIUM';
        if (callerControlled(c.target, fn)) {
          messageId = 'target';
          severity = 'HIGH';
        } else if (args.some((a: any) => callerControlled(a, fn))) {
          messageId = 'data';
          severity = 'HIGH';
        }
        context.report({ node: n, loc: statementLoc(n, facts), messageId, severity, data: { target: c.targetText } });
      },
    };
  },
};

export default definePlugin({
  setup(ctx) {
    ctx.registerDetector(unprotectedDelegatecallDetector);
  },
});
