// wrong-constructor-name: before `constructor()` (0.4.22) a constructor was the function named
// exactly like the contract; a case difference, a typo or a rename after copying makes it an
// ordinary public function anyone can call later (SWC-118, e.g. Rubixi).
// Flags a public, state-writing function of a contract without a constructor whose name is the
// contract name in other case, contains it, or is literally "constructor"/"Constructor".
// Avoids false positives: contracts that have a constructor, functions that write nothing, and
// functions whose re-run changes nothing the contract decides on: every write stores a constant
// into a variable no other function changes (a second run stores the same value), or lands in a
// variable no code reads and no getter exposes (a redeclared, shadowing copy before 0.6).
import {
  detectorPlugin,
  perContract,
  headerLoc,
  isConstantExpr,
  type ContractFacts,
  type FunctionFacts,
  type Node,
  type StaticDetector,
  type StaticFacts,
} from '../../lib/analysis/static/index.ts';

/** Running `fn` again (after deployment, by anyone) changes state some code decides on. */
function reinitializes(fn: FunctionFacts, c: ContractFacts, facts: StaticFacts): boolean {
  if (fn.internalCalls.some((ic) => ic.callees.some((g) => g.transitiveWrites.size))) return true;
  // Each function reads a name in the scope of the contract declaring it.
  const readDecls = new Set<Node>();
  for (const g of [...c.functions, ...c.modifiers.values()]) {
    const scope = facts.contractByName.get(g.contract);
    for (const r of g.reads) {
      const d = scope?.stateVars.get(r)?.node;
      if (d) readDecls.add(d);
    }
  }
  const scope = facts.contractByName.get(fn.contract);
  for (const w of fn.writes) {
    const sv = scope?.stateVars.get(w.variable);
    if (!sv) return true;
    if (sv.visibility !== 'public' && !readDecls.has(sv.node)) continue;
    const n = w.node;
    const stored = n.type === 'BinaryOperation' && n.operator === '=' ? n.right : null;
    const once =
      isConstantExpr(stored) && !c.functions.some((g) => g !== fn && g.kind !== 'constructor' && g.transitiveWrites.has(w.variable));
    if (!once) return true;
  }
  return false;
}

export const wrongConstructorNameDetector: StaticDetector = {
  meta: {
    id: 'wrong-constructor-name',
    title: 'Incorrect constructor name',
    severity: 'HIGH',
    confidence: 0.75,
    category: 'access_control',
    swc: 'SWC-118',
    cwe: 'CWE-665',
    description: 'A function that looks like the constructor is not one; it stays callable by anyone after deployment.',
    recommendation: 'Use the `constructor` keyword (Solidity >= 0.4.22) and compile with a recent compiler.',
    exploit_scenario: 'An attacker calls the mis-named function and re-initializes the contract, setting themselves as owner.',
    messages: { name: '`{{fn}}` in contract `{{contract}}` is an ordinary public function, not a constructor.' },
  },
  create: perContract((c, context) => {
    const { facts } = context;
    if (c.hasConstructor || c.kind !== 'contract') return;
    const lc = c.name.toLowerCase();
    for (const fn of c.ownFunctions) {
      if (fn.kind !== 'function' || !fn.isPublic || !fn.writes.length) continue;
      const n = fn.name.toLowerCase();
      const looksLike = (n === lc && fn.name !== c.name) || (n !== lc && lc.length >= 4 && n.includes(lc)) || n === 'constructor';
      if (!looksLike || !reinitializes(fn, c, facts)) continue;
      context.report({
        node: fn.node,
        loc: headerLoc(fn.node),
        messageId: 'name',
        contract: c.name,
        function: fn.name,
        data: { fn: fn.name, contract: c.name },
      });
    }
  }),
};

export const detectors = [wrongConstructorNameDetector];
export default detectorPlugin(detectors);
