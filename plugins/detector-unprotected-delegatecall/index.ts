// unprotected-delegatecall: delegatecall runs foreign code on this contract's storage and
// balance. Reachable by anyone it lets callers run library functions against this contract's
// state (Parity multisig), and with a caller-chosen target or calldata anything at all (SWC-112).
// Avoids false positives: delegatecalls behind an access check, internal functions that no
// unguarded entry point reaches, delegatecall to `this` (the contract's own code), and the proxy
// pattern: caller calldata forwarded to a fixed or owner-set implementation is not reported
// unless the file holds a contract whose public functions write state without an access check
// (what Parity's wallet library and storage-colliding libraries expose through the proxy). A
// target any caller can set (a parameter, or a state variable an unguarded function writes) is
// as bad as a caller-chosen one.
import {
  detectorPlugin,
  callerControlled,
  rootName,
  statementLoc,
  unwrap,
  type ContractFacts,
  type StaticDetector,
  type StaticFacts,
} from '../../lib/analysis/static/index.ts';

/** Unguarded entry points (not constructors) that write the state variable `name`. */
function openWriters(name: string, c: ContractFacts): string[] {
  return c.functions
    .filter((f) => f.isPublic && !f.senderGuard && f.kind !== 'constructor' && !f.isView && f.transitiveWrites.has(name))
    .map((f) => f.name);
}

/** Whether another contract of the file (not `c` or its bases) lets anyone write its storage:
 *  through a delegatecall those writes land in the caller's storage. */
function exposesOpenWriters(c: ContractFacts, facts: StaticFacts): boolean {
  const own = new Set(c.linearization);
  return facts.contracts.some(
    (o) =>
      !own.has(o.name) &&
      o.kind !== 'interface' &&
      o.ownFunctions.some((f) => f.isPublic && !f.senderGuard && f.kind === 'function' && !f.isView && f.writes.length > 0),
  );
}

export const unprotectedDelegatecallDetector: StaticDetector = {
  meta: {
    id: 'unprotected-delegatecall',
    title: 'Unprotected delegatecall',
    severity: 'HIGH',
    confidence: 0.65,
    category: 'access_control',
    swc: 'SWC-112',
    cwe: 'CWE-829',
    description:
      'delegatecall executes another contract’s code in the context of this one; without an access check callers decide what runs against this storage.',
    recommendation:
      'Restrict delegatecall to trusted, fixed targets behind an access check, whitelist callable selectors, and never forward arbitrary msg.data.',
    exploit_scenario:
      'An attacker sends calldata for the library’s initWallet() through the fallback’s delegatecall and becomes owner of the wallet.',
    messages: {
      target: 'delegatecall to caller-chosen address `{{target}}`.',
      data: 'delegatecall forwards caller-chosen calldata to `{{target}}`.',
      open: 'delegatecall to `{{target}}` reachable by any caller.',
      settable: 'delegatecall to `{{target}}`, which anyone can set through `{{writers}}`.',
    },
  },
  create(context) {
    const { facts } = context;
    return {
      FunctionCall(n) {
        const c = facts.externalCallByNode.get(n);
        if (!c || (c.kind !== 'delegatecall' && c.kind !== 'callcode')) return;
        const { fn, contract } = facts.enclosing(n);
        if (!fn || !contract || fn.senderGuard || fn.kind === 'constructor') return;
        let t = unwrap(c.target);
        // `address(this)`: the parser may give `address` as a plain identifier.
        if (
          t?.type === 'FunctionCall' &&
          t.expression?.type === 'Identifier' &&
          t.expression.name === 'address' &&
          t.arguments?.length === 1
        )
          t = unwrap(t.arguments[0]);
        if (t?.type === 'Identifier' && t.name === 'this') return;
        if (!fn.isPublic) return;
        // `require(!lib.delegatecall(d))` only proceeds when the call failed and changed nothing.
        const p = facts.parent(n);
        if (p?.type === 'UnaryOperation' && p.operator === '!' && facts.parent(p)?.type === 'FunctionCall') return;
        const args = n.arguments ?? [];
        let messageId = 'open';
        let severity: 'HIGH' | 'MEDIUM' = 'MEDIUM';
        const root = rootName(c.target);
        const stateTarget = root && contract.stateVars.has(root) && !fn.locals.has(root) ? root : null;
        const writers = stateTarget ? openWriters(stateTarget, contract) : [];
        if (callerControlled(c.target, fn)) {
          messageId = 'target';
          severity = 'HIGH';
        } else if (writers.length) {
          messageId = 'settable';
          severity = 'HIGH';
        } else if (args.some((a) => callerControlled(a, fn))) {
          // The proxy pattern (caller calldata to a fixed or owner-set implementation) is the
          // design, not a finding, unless the file exposes open writers through it.
          if (!exposesOpenWriters(contract, facts)) return;
          messageId = 'data';
          severity = 'HIGH';
        }
        context.report({
          node: n,
          loc: statementLoc(n, facts),
          messageId,
          severity,
          data: { target: c.targetText, writers: writers.join('`, `') },
        });
      },
    };
  },
};

export const detectors = [unprotectedDelegatecallDetector];
export default detectorPlugin(detectors);
