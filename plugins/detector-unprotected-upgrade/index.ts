// unprotected-upgrade: an upgradeable logic (implementation) contract is deployed on its own and
// used through proxies, which keep their state and delegatecall its code. Its `initializer` runs
// once per storage — the proxy's is initialised, the implementation's own copy is not. If nothing
// locks the implementation (a constructor calling `_disableInitializers()` or running the
// initializer), anyone calls `initialize()` on the implementation directly, becomes its owner, and
// uses an owner-only function that delegatecalls an address they choose (`upgradeToAndCall`) to
// run `selfdestruct` in the implementation's context: every proxy now delegates to empty code and
// is bricked, with its funds (OpenZeppelin UUPS advisory, 2021; Slither `unprotected-upgrade`).
// Reported on the owner-gated function whose delegatecall target the caller picks, when an
// `initializer`/`reinitializer` entry point without a caller check sets the owner state that
// function's guard reads. The selfdestruct form of the same class is unprotected-selfdestruct's
// ("guarded by state an open initializer sets").
// Avoids false positives: a constructor that locks the initializers (calls `_disableInitializers`,
// the initializer, or carries the `initializer` modifier), initializers behind a caller check,
// delegatecalls to fixed or owner-configured targets, and guards reading state the initializer
// does not set.
import {
  callerControlled,
  detectorPlugin,
  headerLoc,
  initializersLocked,
  openInitializers,
  perContract,
  type FunctionFacts,
  type StaticDetector,
} from '../../lib/analysis/static/index.ts';

export const unprotectedUpgradeDetector: StaticDetector = {
  meta: {
    id: 'unprotected-upgrade',
    title: 'Implementation can be initialized by anyone and made to delegatecall',
    severity: 'HIGH',
    confidence: 0.6,
    category: 'access_control',
    swc: 'SWC-118',
    cwe: 'CWE-665',
    description:
      'The logic contract’s initializer can be called on the implementation itself by anyone, and the owner it installs can make the implementation delegatecall an address of their choice; a delegated selfdestruct destroys the code every proxy uses.',
    recommendation:
      'Lock the implementation in its constructor (`constructor() { _disableInitializers(); }`), and never let the implementation delegatecall outside a proxy context (`onlyProxy`).',
    exploit_scenario:
      'The attacker calls `initialize()` on the bare implementation, becomes owner, then `upgradeToAndCall(bomb, data)`: the delegatecall runs `selfdestruct` in the implementation, and every proxy pointing at it stops working, funds locked.',
    messages: {
      open: '`{{fn}}` delegatecalls a caller-chosen address behind `{{vars}}`, which `{{init}}` lets anyone set on the implementation (no constructor locks the initializers).',
    },
  },
  create: perContract((c, context) => {
    if (c.kind !== 'contract') return;
    const inits = openInitializers(c);
    if (!inits.length) return;
    // A constructor anywhere in the linearization that locks the initializers (shared rule).
    if (initializersLocked(c)) return;
    const owners = new Map<string, FunctionFacts>();
    for (const i of inits) for (const v of i.transitiveWrites) if (c.authVars.has(v) && !owners.has(v)) owners.set(v, i);
    if (!owners.size) return;
    const byName = (contract: string | null, name: string | null) =>
      c.functions.find((f) => f.contract === contract && f.name === name) ?? null;
    for (const d of c.functions) {
      if (!d.isPublic || !d.senderGuard || inits.includes(d) || !c.ownFunctions.includes(d)) continue;
      const gate = [...d.transitiveReads].filter((v) => owners.has(v));
      if (!gate.length) continue;
      const chosen = d.transitiveExternal.some((x) => {
        if (x.kind !== 'delegatecall') return false;
        const at = byName(x.contract, x.function);
        return !!at && callerControlled(x.target, at);
      });
      if (!chosen) continue;
      context.report({
        node: d.node,
        loc: headerLoc(d.node),
        messageId: 'open',
        data: { fn: d.name, vars: gate.join('`, `'), init: owners.get(gate[0])!.name },
      });
    }
  }),
};

export const detectors = [unprotectedUpgradeDetector];
export default detectorPlugin(detectors);
