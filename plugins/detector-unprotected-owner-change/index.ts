// unprotected-owner-change: a public function without an access check that writes the state
// the contract's own access checks rely on (owner, admins, owner tables): anyone can make
// themselves owner (SWC-105/SWC-118). This covers wrongly named constructors (a misspelled or
// renamed constructor is an ordinary public function) and public initializers.
// "Owner state" is learned from the contract itself: variables compared with msg.sender or
// tx.origin, and tables indexed by msg.sender in modifiers or membership checks.
// Avoids false positives: constructors, guarded functions (inline, modifier or helper checks),
// payable functions (paying to take a role is a game rule), callers adding themselves to a
// table, contracts that never check the caller (no owner state to protect), and writes to other
// members of a struct whose checks compare one member (`chans[id].parties[0] == msg.sender` makes
// `parties` owner state, not `chans[id].balance`), and the phase reset of a round: clearing the
// role records (`delete players`, `= address(0)`) in a function that only runs in a state the
// contract checks (`require(stage == Stage.Done)`) gives nobody a role. An unconditional reset is
// still reported (anyone could strip the owner at will). Run-once initializers whose contract's
// constructor locks them (`_disableInitializers()`) are not reported: nobody can run them there.
import {
  detectorPlugin,
  perContract,
  conditions,
  headerLoc,
  isMsgSender,
  memberPath,
  some,
  type ContractFacts,
  type FunctionFacts,
  type StaticDetector,
  isClear,
  assignedExpr,
  type MaybeNode,
  isAuthWrite,
  initializersLocked,
  openInitializers,
} from '../../lib/analysis/static/index.ts';

/** Some require/if of the function (or its modifiers) reads contract state: it runs only in a phase. */
function phaseGated(fn: FunctionFacts, c: ContractFacts): boolean {
  const bodies = [fn.node.body, ...fn.modifiers.map((m) => m.def?.node.body)].filter(Boolean);
  return bodies.some((b) =>
    conditions(b).some((cond) =>
      some(cond, (x) => x.type === 'Identifier' && c.stateVars.has(x.name) && !fn.locals.has(x.name) && !c.stateVars.get(x.name)!.constant),
    ),
  );
}

export const unprotectedOwnerChangeDetector: StaticDetector = {
  meta: {
    id: 'unprotected-owner-change',
    title: 'Unprotected change of owner / access-control state',
    severity: 'CRITICAL',
    confidence: 0.7,
    category: 'access_control',
    swc: 'SWC-105',
    cwe: 'CWE-284',
    description: 'A function anyone can call writes the variables the contract uses to authorize callers.',
    recommendation: 'Add the access check (onlyOwner) or make it a real constructor / an initializer that can only run once.',
    exploit_scenario:
      'An attacker calls the function, becomes the owner and then uses owner-only functions to drain or destroy the contract.',
    messages: { write: '`{{fn}}` writes `{{vars}}` (used for access checks) without checking the caller.' },
  },
  create: perContract((c, context) => {
    const { facts } = context;
    if (!c.authVars.size || c.kind === 'library' || c.kind === 'interface') return;
    const locked = new Set(initializersLocked(c) ? openInitializers(c) : []);
    for (const fn of c.functions) {
      if (fn.kind !== 'function' && fn.kind !== 'fallback' && fn.kind !== 'receive') continue;
      // Paying to take a role (king of the hill, registering as a player) is a game rule.
      if (!fn.isPublic || fn.senderGuard || fn.isView || fn.payable) continue;
      // A run-once initializer the constructor locks runs on no one's call here (proxies run it
      // in their deployment).
      if (locked.has(fn)) continue;
      const vars = [...authWrites(fn, c, 0, phaseGated(fn, c))];
      if (!vars.length) continue;
      // Inherited functions are reported once, in the contract that declares them.
      if (fn.contract !== c.name && facts.contractByName.get(fn.contract)?.authVars.size) continue;
      context.report({
        node: fn.node,
        loc: headerLoc(fn.node),
        messageId: 'write',
        contract: fn.contract,
        function: fn.name,
        data: { fn: fn.name, vars: vars.join('`, `') },
      });
    }
  }),
};

function keyedByCaller(lhs: MaybeNode): boolean {
  let n = lhs;
  while (n && (n.type === 'IndexAccess' || n.type === 'MemberAccess')) {
    if (n.type === 'IndexAccess' && isMsgSender(n.index)) return true;
    n = n.type === 'IndexAccess' ? n.base : n.expression;
  }
  return false;
}

/** Access-control state written by `fn` or its internal callees. A caller adding itself to a
 *  table (`members[msg.sender] = true`) is self-registration, not taking someone's role. */
function authWrites(fn: FunctionFacts, c: ContractFacts, depth: number, gated: boolean): Set<string> {
  const out = new Set<string>();
  const members = c.authMembers;
  for (const w of fn.writes) {
    // A shadowing redeclaration (before 0.6) is another slot: the checks never read it.
    if (!isAuthWrite(c, fn, w.variable)) continue;
    if (gated && isClear(w.node)) continue;
    const lhs = assignedExpr(w.node);
    // The caller's own row at any level (`isOperator[msg.sender][op] = ok`): it grants or
    // changes only the caller's permissions, as an ERC20 approve does.
    if (keyedByCaller(lhs)) continue;
    // Only the compared members of a struct are owner state; a write of the whole struct counts.
    const checked = members.get(w.variable);
    const written = lhs ? memberPath(lhs) : [];
    if (checked && written.length && !written.some((m) => checked.has(m))) continue;
    out.add(w.variable);
  }
  if (depth < 4)
    for (const ic of fn.internalCalls)
      for (const g of ic.callees) if (g !== fn && !g.senderGuard) for (const v of authWrites(g, c, depth + 1, gated)) out.add(v);
  return out;
}

export const detectors = [unprotectedOwnerChangeDetector];
export default detectorPlugin(detectors);
