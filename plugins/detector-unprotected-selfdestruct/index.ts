// unprotected-selfdestruct: selfdestruct (or its old name suicide) in a function that any
// account can call destroys the contract and sends its ether to a chosen address (SWC-106).
// Also reported: a guard that means nothing because a non-payable entry point without a caller
// check writes the very state the guard reads (an initializer anyone can call: Parity's
// `initWallet` then `kill`) - the trust model of rule-helpers' ownerSound.
// Avoids false positives: constructors, functions guarded by a msg.sender/tx.origin check
// (inline, in a modifier or in a helper they call) whose owner state only the constructor or
// guarded code sets, internal functions, and owner state set only by run-once initializers that
// the constructor locks (`_disableInitializers()`: no one can initialize the implementation).
import {
  detectorPlugin,
  headerLoc,
  initializersLocked,
  isAuthWrite,
  openInitializers,
  ownerSound,
  statementLoc,
  type StaticDetector,
} from '../../lib/analysis/static/index.ts';

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
    exploit_scenario:
      'An attacker calls the function and the contract is destroyed, its ether sent to the attacker and every dependent contract broken.',
    messages: {
      call: '`{{name}}` in `{{fn}}`, callable by anyone.',
      takeover: '`{{name}}` in `{{fn}}` is guarded by `{{vars}}`, which `{{by}}` lets anyone set first.',
    },
  },
  create(context) {
    const { facts } = context;
    return {
      FunctionCall(n) {
        const c = n.expression;
        if (c?.type !== 'Identifier' || (c.name !== 'selfdestruct' && c.name !== 'suicide')) return;
        const { fn } = facts.enclosing(n);
        if (!fn || fn.kind === 'constructor' || fn.kind === 'modifier' || !fn.isPublic) return;
        if (!fn.senderGuard) {
          context.report({ node: n, loc: statementLoc(n, facts), messageId: 'call', data: { name: c.name, fn: fn.name } });
          return;
        }
        const contract = facts.enclosing(n).contract;
        if (!contract || fn.opaqueGuard || ownerSound(contract) || !contract.authVars.size) return;
        // Run-once initializers that a constructor locks cannot be run on this contract, and a
        // proxy runs them in its own deployment: they let nobody take the role.
        const locked = initializersLocked(contract) ? new Set(openInitializers(contract)) : new Set<unknown>();
        const by = contract.functions.find(
          (f) =>
            f.isPublic &&
            f.kind === 'function' &&
            !f.senderGuard &&
            !f.payable &&
            !locked.has(f) &&
            [...f.transitiveWrites].some((v) => isAuthWrite(contract, f, v)),
        );
        if (!by) return;
        const vars = [...by.transitiveWrites].filter((v) => isAuthWrite(contract, by, v));
        // The weakness is the guard in the header: span header to the selfdestruct when close.
        const at = statementLoc(n, facts);
        const head = headerLoc(fn.node).line;
        const loc = at.end_line - head <= 8 ? { line: head, end_line: at.end_line } : at;
        context.report({ node: n, loc, messageId: 'takeover', data: { name: c.name, fn: fn.name, vars: vars.join('`, `'), by: by.name } });
      },
    };
  },
};

export const detectors = [unprotectedSelfdestructDetector];
export default detectorPlugin(detectors);
