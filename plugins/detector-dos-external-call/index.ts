// dos-external-call: when progress depends on every recipient accepting a payment, one
// recipient that reverts (or burns gas) blocks everyone: a send/transfer/call inside a loop, or
// a required payment to an address that other users set (the current leader of an auction).
// SWC-113. Avoids false positives: payments to msg.sender or to recipients the caller passes as
// arguments of an entry point (the caller only blocks itself),
// unchecked sends outside loops (reported as unchecked calls instead), unchecked sends inside
// loops (a refusing recipient makes its own send return false and the loop goes on; the 2300-gas
// stipend cannot burn the loop's gas), functions only the owner can call, and recipients fixed
// at deployment.
import {
  isCallerValue,
  detectorPlugin,
  isRequireLike,
  rootName,
  statementLoc,
  unwrap,
  type StaticDetector,
} from '../../lib/analysis/static/index.ts';

export const dosExternalCallDetector: StaticDetector = {
  meta: {
    id: 'dos-external-call',
    title: 'Denial of service through a failing external call',
    severity: 'MEDIUM',
    confidence: 0.6,
    category: 'denial_of_service',
    swc: 'SWC-113',
    cwe: 'CWE-703',
    description: 'A payment that must succeed for the function to proceed lets one recipient block it for everybody.',
    recommendation:
      'Use pull payments (let each recipient withdraw), never require a push payment to a third party, and avoid payments inside loops.',
    exploit_scenario:
      'The current highest bidder is a contract whose fallback reverts; every new bid tries to refund it, fails, and the auction is frozen.',
    messages: {
      loop: '{{kind}} to `{{target}}` inside a loop: one failing recipient stops the whole loop.',
      required: 'Payment to `{{target}}`, an address other users set, must succeed for `{{fn}}` to proceed.',
    },
  },
  create(context) {
    const { facts } = context;
    // State variables set by functions anyone can call: their value is chosen by users.
    const userSet = new Map<string, Set<string>>();
    for (const c of facts.contracts) {
      const s = new Set<string>();
      for (const f of c.functions)
        if (f.isPublic && !f.senderGuard && f.kind !== 'constructor') for (const w of f.transitiveWrites) s.add(w);
      userSet.set(c.name, s);
    }
    return {
      FunctionCall(n) {
        const c = facts.externalCallByNode.get(n);
        if (!c || !['send', 'transfer', 'call'].includes(c.kind) || c.notInvoked) return;
        const { contract, fn } = facts.enclosing(n);
        if (!fn || !contract || fn.kind === 'constructor') return;
        const target = unwrap(c.target);
        const p = facts.parent(n);
        // An unchecked send: a refusing recipient only gets `false`, the loop carries on.
        const uncheckedSend = c.kind === 'send' && p?.type === 'ExpressionStatement';
        // Recipients the caller passes in (`addr`, `_tos[i]`) of an entry point no other code
        // calls: a refusing one only stops the caller's own transaction, nobody else's.
        const r0 = rootName(target);
        const callerChosen = !!r0 && fn.params.includes(r0) && fn.isPublic && !fn.calledInternally;
        if (c.inLoop && (c.kind !== 'call' || c.value) && !uncheckedSend && !callerChosen) {
          context.report({ node: n, loc: statementLoc(n, facts), messageId: 'loop', data: { kind: c.kind, target: c.targetText } });
          return;
        }
        if (isCallerValue(target, fn) || fn.senderGuard || !fn.isPublic) return;
        const mustSucceed =
          c.kind === 'transfer' ||
          (p && isRequireLike(p)) ||
          (p?.type === 'UnaryOperation' && p.operator === '!' && facts.parent(p)?.type === 'IfStatement');
        if (!mustSucceed) return;
        const r = rootName(target);
        if (!r || !contract.stateVars.has(r) || fn.locals.has(r) || !userSet.get(contract.name)?.has(r)) return;
        context.report({ node: n, loc: statementLoc(n, facts), messageId: 'required', data: { target: c.targetText, fn: fn.name } });
      },
    };
  },
};

export const detectors = [dosExternalCallDetector];
export default detectorPlugin(detectors);
