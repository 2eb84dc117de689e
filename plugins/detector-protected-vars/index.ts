// protected-vars: when the contract's own code protects a state variable in one writer (an
// owner-only setFee) but another entry point writes the same variable with no caller check, the
// protection is bypassed: the check shows the variable is meant to be restricted, and the
// unguarded writer is the missing modifier.
// Learned from the contract itself, no annotations. Avoids false positives: access-control state
// (owners, admins: unprotected-owner-change reports it), values users update arithmetically
// (balances, counters: every user writes them legitimately), the caller's own row (`x[msg.sender]`),
// resets (`delete x`, `= 0`) and state-machine steps (a condition of the writer reads the variable:
// `if (start > 1 && block.number > start + n) start = 0`), constructors and payable writers (paying
// for a slot is a rule of the game), guards out of sight.
import {
  isCallerValue,
  detectorPlugin,
  perContract,
  conditions,
  headerLoc,
  reachableFunctions,
  some,
  unwrap,
  type FunctionFacts,
  type Node,
  type StaticDetector,
  isClear,
  assignedExpr,
  identName,
} from '../../lib/analysis/static/index.ts';

/** A write of `v` that sets a value anyone may choose: not a reset, not the caller's own row,
 *  and not a state-machine step (a condition of the same function reads `v` first). */
function openWrite(fn: FunctionFacts, v: string): boolean {
  return reachableFunctions(fn, 4).some((g) => {
    if (!g.node.body || g.writes.every((w) => w.variable !== v)) return false;
    const phase = conditions(g.node.body).some((c) => some(c, (x) => x.type === 'Identifier' && x.name === v));
    const own = (w: Node) =>
      some(assignedExpr(w) ?? {}, (x) => {
        if (x.type !== 'IndexAccess') return false;
        const key = identName(unwrap(x.index));
        return isCallerValue(x.index, g) || (key !== null && g.senderKeys.has(key));
      });
    return !phase && g.writes.some((w) => w.variable === v && !isClear(w.node) && !own(w.node));
  });
}

export const protectedVarsDetector: StaticDetector = {
  meta: {
    id: 'protected-vars',
    title: 'State protected in one writer, open in another',
    severity: 'MEDIUM',
    confidence: 0.55,
    category: 'access_control',
    swc: 'SWC-105',
    cwe: 'CWE-284',
    description:
      'A state variable is written behind a caller check in one function and without any check in another; anyone can make the restricted change through the open one.',
    recommendation: 'Add the same access check (modifier) to every function that writes the variable, or remove the open writer.',
    exploit_scenario:
      'setFee() is onlyOwner, but initializeFees() writes the same `fee` for anyone; an attacker sets a 100% fee and collects every payment.',
    messages: { open: '`{{fn}}` writes `{{var}}` for anyone, while `{{guarded}}` requires a caller check for it.' },
  },
  create: perContract((c, context) => {
    if (c.kind !== 'contract') return;
    const entry = c.functions.filter((f) => f.isPublic && f.kind === 'function' && !f.isView);
    const arithmetic = new Set(c.functions.flatMap((f) => [...f.arithmeticWrites]));
    const reported = new Set<string>();
    for (const [v, sv] of c.stateVars) {
      if (sv.constant || sv.immutable || c.authVars.has(v) || arithmetic.has(v)) continue;
      const writers = entry.filter((f) => f.transitiveWrites.has(v));
      const guarded = writers.find((f) => f.senderGuard && !f.opaqueGuard);
      if (!guarded) continue;
      for (const f of writers) {
        if (f.senderGuard || f.payable || !openWrite(f, v)) continue;
        const key = `${f.contract}.${f.name}`;
        if (reported.has(key)) continue;
        reported.add(key);
        context.report({
          node: f.node,
          loc: headerLoc(f.node),
          messageId: 'open',
          contract: f.contract,
          function: f.name,
          data: { fn: f.name, var: v, guarded: guarded.name },
        });
      }
    }
  }),
};

export const detectors = [protectedVarsDetector];
export default detectorPlugin(detectors);
