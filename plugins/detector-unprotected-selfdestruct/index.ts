// unprotected-selfdestruct: selfdestruct (or its old name suicide) in a function that any
// account can call destroys the contract and sends its ether to a chosen address (SWC-106).
// Avoids false positives: constructors, functions guarded by a msg.sender/tx.origin check
// (inline, in a modifier or in a helper they call) and internal functions.
import { definePlugin } from '../../kernel/index.ts';
import { statementLoc, type StaticDetector } from '../../lib/analysis/static/index.ts';

export const unprotectedSelfdestructDetector: StaticDetector = {
  meta: {
    id: 'unprotected-selfdestruct',
    title: 'Unprotected selfdestruct',
    severity: 'CRITICAL',
    confidence: 0.8,
    category: 'access_control',
    swc: 'SWC-106',
    cwe: 'CWE-284',
    description: 'Any caller can destroy the contract: selfdestruct is reachable without an access check.',
    recommendation: 'Restrict the function to the owner (onlyOwner / require(msg.sender == owner)) or remove selfdestruct.',
    exploit_scenario: 'An attacker calls the function and the contract is destroyed, its ether sent to the attacker and every dependent contract broken.',
    messages: { call: '`{{name}}` in `{{fn}}`, callable by anyone.' },
  },
  create(context) {
    const { facts } = context;
    return {
      FunctionCall(n) {
        const c = n.expression;
        if (c?.type !== 'Identifier' || (c.name !== 'selfdestruct' && c.name !== 'suicide')) return;
        const { fn } = facts.enclosing(n);
        if (!fn || fn.kind === 'constructor' || fn.kind === 'modifier' || !fn.isPublic || fn.senderGuard) return;
        context.report({ node: n, loc: statementLoc(n, facts), messageId: 'call', data: { name: c.name, fn: fn.name } });
      },
    };
  },
};

export default definePlugin({
  setup(ctx) {
    ctx.registerDetector(unprotectedSelfdestructDetector);
  },
});
