// reentrancy: an external call hands control to the callee, which can call back before the
// state written after the call is updated (SWC-107, the DAO bug). Uses the shared facts: state
// written after a call in the same function, in internal functions called after it, or in a
// body run after a modifier that calls out. Rated by what the call forwards: value-carrying
// low-level calls HIGH, other calls MEDIUM. send/transfer are not reported: they forward a
// 2300-gas stipend, too little for the callee to write storage or make another call, so the
// stale state cannot be re-entered through them (EIP-1884/2929 repricing only made it smaller).
// Avoids false positives: checks-effects-interactions code (writes before the call), view
// functions, constructors, staticcall/delegatecall, calls on `this`, functions behind a
// reentrancy-lock modifier or a hand-written one (a flag set before the call that every
// re-enterable entry point checks), `.call.value(x)` that is never invoked, and calls
// into other contracts unless the state written afterwards was read before the call; behind an
// owner check only value-carrying calls remain, one severity level lower, and only when an entry
// point without a caller check (the callee can call only those) reads or updates the state left
// stale (a multisig's confirmed transaction, deleted after the call, is not); writes in the other
// branch of an `if` than the call (outside loops), which never follow it; calls (through an
// interface or a low-level call) into an address only the deployer or a sound owner sets that
// pass it no caller-chosen address. Also not reported:
// writes after the call to write-only bookkeeping (`totalDonated += amount`, a counter no
// function reads except to update itself or in a view nothing calls internally): a re-entrant
// call that sees the stale value decides nothing with it.
import {
  detectorPlugin,
  perFunction,
  conditions,
  hasReentrancyLock,
  isMsgSender,
  isTxOrigin,
  namesFor,
  ownerSetOnly,
  some,
  statementLoc,
  walk,
  type ContractFacts,
  type FunctionFacts,
  type Node,
  type StaticDetector,
  type StaticFacts,
  calleeName,
  line,
  endLine,
  elementaryName,
  type MaybeNode,
  type AST,
  within,
} from '../../lib/analysis/static/index.ts';

export const reentrancyDetector: StaticDetector = {
  meta: {
    id: 'reentrancy',
    title: 'Reentrancy: state written after an external call',
    severity: 'HIGH',
    confidence: 0.8,
    category: 'reentrancy',
    swc: 'SWC-107',
    cwe: 'CWE-841',
    description:
      'The contract calls an external address and only afterwards updates its own state; the callee can re-enter and act on the stale state.',
    recommendation:
      'Apply checks-effects-interactions: update balances and flags before the external call, or guard the function with a reentrancy lock.',
    exploit_scenario:
      'An attacker contract calls withdraw(); in its fallback it calls withdraw() again before its balance is zeroed, draining the contract in a loop.',
    messages: {
      value: 'Call to `{{target}}` sends ether and forwards gas; `{{vars}}` written afterwards (line {{writeLine}}).',
      call: 'External call to `{{target}}` before `{{vars}}` is written (line {{writeLine}}).',
      internal: 'Call of `{{callee}}` reaches an external call to `{{target}}`; `{{vars}}` written afterwards (line {{writeLine}}).',
      modifier: 'Modifier `{{callee}}` calls `{{target}}` before the body writes `{{vars}}`.',
    },
  },
  create: perFunction((fn, c, context) => {
    const { facts } = context;
    if (fn.kind === 'constructor' || fn.kind === 'modifier' || fn.isView) return;
    if (hasReentrancyLock(fn)) return;
    const seen = new Set<unknown>();
    for (const p of fn.reentrancy) {
      if (seen.has(p.at)) continue;
      const call = p.call;
      if (call.kind === 'delegatecall' || call.kind === 'staticcall' || call.notInvoked) continue;
      if (call.target?.type === 'Identifier' && call.target.name === 'this') continue;
      if (heldLock(c, fn, call.node.range?.[0] ?? 0)) continue;
      // The deployer's or a sound owner's chosen address runs code they vetted, whether it
      // is called through its interface or with a low-level call.
      if ((call.kind === 'external' || call.kind === 'call') && trustedCallee(c, fn, call.target, call.node)) continue;
      // send/transfer: the 2300-gas stipend cannot re-enter (see the header).
      if (call.kind === 'send' || call.kind === 'transfer') continue;
      // A call into another contract is only a problem when the state it leaves stale
      // was consulted before the call (read-call-write), the pattern re-entry exploits.
      // Re-entering an owner-only function needs the owner's cooperation: only
      // value-carrying calls stay reported there, one level lower.
      if (fn.senderGuard && call.kind === 'external') continue;
      if (
        call.kind === 'external' &&
        !p.writes.some((w) =>
          p.via === 'modifier'
            ? readBeforeModifierCall(fn, p.at, w.variable, call.node.range?.[0] ?? 0)
            : readBefore(fn, w.variable, call.node.range?.[0] ?? 0),
        )
      )
        continue;
      // A write in the other branch of an `if` than the call never follows it (outside loops).
      const writes = p.via === 'modifier' ? p.writes : p.writes.filter((w) => !exclusiveBranches(p.at, w.node, facts));
      if (!writes.length) continue;
      if (writes.every((w) => writeOnly(c, w.variable, facts))) continue;
      // Behind a caller check the callee cannot re-enter this function, nor any other guarded
      // one: the stale state matters only if an entry point open to it reads or updates it.
      // (Only a check that admits a role: `!claimed[msg.sender]` admits every new address, and a
      // callee that is the caller passed the check already.)
      if (
        fn.senderGuard &&
        roleGuard(fn, 0) &&
        !some(call.target, (x) => callerValue(x, fn)) &&
        !(p.via === 'internal' && some(p.at, (x) => callerValue(x, fn))) &&
        !writes.some((w) => touchedOpenly(c, w.variable))
      )
        continue;
      seen.add(p.at);
      const vars = [...new Set(writes.map((w) => w.variable))].join('`, `');
      const writeLine = Math.min(...writes.map((w) => w.line));
      const sendsValue = !!call.value && !(call.value.type === 'NumberLiteral' && Number(call.value.number) === 0);
      let severity: 'HIGH' | 'MEDIUM' | 'LOW' | 'INFO' = 'MEDIUM';
      let confidence = 0.5;
      let messageId = 'call';
      if (call.kind === 'call' || call.kind === 'callcode') {
        severity = sendsValue ? 'HIGH' : 'MEDIUM';
        confidence = sendsValue ? 0.85 : 0.6;
        messageId = 'value';
      }
      if (fn.senderGuard) {
        severity = severity === 'HIGH' ? 'MEDIUM' : severity === 'MEDIUM' ? 'LOW' : severity;
        confidence *= 0.6;
      }
      if (p.via === 'internal') messageId = 'internal';
      if (p.via === 'modifier') messageId = 'modifier';
      const callee = p.at.type === 'ModifierInvocation' ? p.at.name : p.via === 'internal' ? (calleeName(p.at.expression) ?? '') : '';
      const loc = p.via === 'modifier' ? { line: line(p.at), end_line: endLine(p.at) } : statementLoc(p.at, facts);
      context.report({
        node: p.at,
        loc,
        messageId,
        severity,
        confidence,
        contract: c.name,
        function: fn.name,
        data: { target: call.targetText, vars, writeLine, kind: call.kind, callee },
        evidence: { call_line: call.line, writes: writes.map((w) => ({ variable: w.variable, line: w.line })) },
      });
    }
  }),
};

/**
 * A call into an owner-configured contract (a state address only the constructor or a sound
 * owner check sets) that hands it no address the caller chose: the callee is code the owner
 * vetted, and it is given no attacker contract to call back through (a token transfer to
 * msg.sender would be, so that stays reported).
 */
function trustedCallee(c: ContractFacts, fn: FunctionFacts, target: Node, callNode: AST.FunctionCall): boolean {
  const root = target?.type === 'Identifier' ? target.name : null;
  if (!root || fn.locals.has(root) || fn.params.includes(root) || !ownerSetOnly(c, root)) return false;
  const addressParams = new Set<string | null>(
    (fn.node.parameters ?? []).filter((p) => /^address/.test(elementaryName(p?.typeName) ?? '')).map((p) => p.name),
  );
  const callerAddress = (x: Node) => isMsgSender(x) || isTxOrigin(x) || (x.type === 'Identifier' && addressParams.has(x.name));
  return !(callNode.arguments ?? []).some((a) => some(a, callerAddress));
}

/**
 * A hand-written mutex held across the call: the function sets a state flag (`busy = true`)
 * before the call and every entry point a stranger can re-enter that changes state checks that
 * flag first (`if (busy) throw;`), so a re-entrant call is turned away.
 */
function heldLock(c: ContractFacts, fn: FunctionFacts, callPos: number): boolean {
  if (!fn.node.body) return false;
  // The last write of each state variable before the call, and whether it set a literal "held" value.
  const last = new Map<string, { pos: number; held: boolean }>();
  walk(fn.node.body, (n) => {
    if (n.type !== 'BinaryOperation' || n.operator !== '=' || n.left?.type !== 'Identifier') return;
    const v = n.left.name;
    if (!c.stateVars.has(v) || fn.locals.has(v)) return;
    const pos = n.range?.[0] ?? Infinity;
    if (pos >= callPos || (last.get(v)?.pos ?? -1) > pos) return;
    const r = n.right;
    const held = (r?.type === 'BooleanLiteral' && r.value === true) || (r?.type === 'NumberLiteral' && Number(r.number) !== 0);
    last.set(v, { pos, held });
  });
  const held = [...last].filter(([, w]) => w.held).map(([v]) => v);
  if (!held.length) return false;
  const checkedIn = (body: MaybeNode, v: string) =>
    !!body && conditions(body).some((cond) => some(cond, (x) => x.type === 'Identifier' && x.name === v));
  const checks = (g: FunctionFacts, v: string) => checkedIn(g.node.body, v) || g.modifiers.some((m) => checkedIn(m.def?.node.body, v));
  const open = c.functions.filter(
    (g) =>
      g.isPublic &&
      g.kind !== 'constructor' &&
      !g.isView &&
      !g.senderGuard &&
      !!g.node.body &&
      (g.transitiveWrites.size > 0 || g.transitiveExternal.length > 0),
  );
  return held.some((v) => open.every((g) => checks(g, v)));
}

/** msg.sender, tx.origin or a local computed from them. */
function callerValue(x: Node, fn: FunctionFacts): boolean {
  return isMsgSender(x) || isTxOrigin(x) || (x.type === 'Identifier' && (fn.senderLocals.has(x.name) || fn.senderKeys.has(x.name)));
}

/**
 * The function (its body, modifiers or the helpers they call) checks that the caller holds a
 * role: compares it with stored state (`msg.sender == owner`), looks it up positively
 * (`owners[msg.sender]`, `ownerIndex == 0` of a caller local) or asks a helper about it
 * (`hasRole(r, msg.sender)`). A negated lookup alone (`!claimed[msg.sender]`) admits every
 * address that has not acted yet, a fresh attacker contract included.
 */
function roleGuard(fn: FunctionFacts, depth: number): boolean {
  if (depth > 3) return false;
  const byCaller = (x: MaybeNode) => !!x && some(x, (y) => callerValue(y, fn));
  const falsy = (x: MaybeNode) =>
    (x?.type === 'BooleanLiteral' && x.value === false) || (x?.type === 'NumberLiteral' && Number(x.number) === 0);
  let role = false;
  for (const cond of conditions(fn.node.body)) {
    walk(cond, (x) => {
      if (role) return false;
      if (x.type === 'UnaryOperation' && x.operator === '!' && x.subExpression?.type === 'IndexAccess' && byCaller(x.subExpression.index))
        return false;
      if (x.type === 'BinaryOperation' && (x.operator === '==' || x.operator === '!=')) {
        const [a, b] = [x.left, x.right];
        const lookup = (s: MaybeNode) => s?.type === 'IndexAccess' && byCaller(s.index);
        // `seen[msg.sender] == false`: the negated lookup again.
        if ((lookup(a) && falsy(b)) || (lookup(b) && falsy(a))) {
          if (x.operator === '!=') role = true;
          return false;
        }
        // `msg.sender != address(0)` admits everyone (a caller's table entry against 0 is a lookup).
        const zero = (y: MaybeNode) => {
          const z = y?.type === 'FunctionCall' && y.arguments?.length === 1 ? y.arguments[0] : y;
          return z?.type === 'NumberLiteral' && /^(0x)?0+$/.test(String(z.number));
        };
        const sender = (y: MaybeNode) => !!y && (isMsgSender(y) || isTxOrigin(y));
        if ((byCaller(a) && !(sender(a) && zero(b))) || (byCaller(b) && !(sender(b) && zero(a)))) role = true;
        return false;
      }
      if (x.type === 'IndexAccess' && byCaller(x.index)) role = true;
      if (x.type === 'FunctionCall' && x.expression?.type === 'Identifier' && (x.arguments ?? []).some(byCaller)) role = true;
      if (x.type === 'Identifier' && fn.senderLocals.has(x.name)) role = true;
    });
    if (role) return true;
  }
  const subs = [...fn.modifiers.map((m) => m.def), ...fn.internalCalls.flatMap((ic) => ic.callees)];
  return subs.some((g) => !!g && g !== fn && roleGuard(g, depth + 1));
}

/** `a` and `b` sit in opposite branches of one `if` that no loop repeats: they never both run. */
function exclusiveBranches(a: Node, b: Node, facts: StaticFacts): boolean {
  for (let q = facts.parent(a); q; q = facts.parent(q)) {
    if (q.type === 'FunctionDefinition' || q.type === 'ModifierDefinition') return false;
    if (q.type !== 'IfStatement' || !within(b, q)) continue;
    const t = q.trueBody;
    const f = q.falseBody;
    const split = !!t && !!f && ((within(a, t) && within(b, f)) || (within(a, f) && within(b, t)));
    return split && !facts.inLoop(q);
  }
  return false;
}

/** Whether some entry point without a caller check (or code it reaches internally or through its
 *  modifiers) mentions state variable `v`: reads it or updates it. */
function touchedOpenly(c: ContractFacts, v: string): boolean {
  const mentions = new Map<FunctionFacts, boolean>();
  const reads = (f: FunctionFacts): boolean => {
    let hit = mentions.get(f);
    if (hit !== undefined) return hit;
    hit = false;
    if (f.node.body && !f.params.includes(v))
      walk(f.node.body, (n) => {
        if (hit) return false;
        if (n.type === 'Identifier' && (n.name === v || f.aliases.get(n.name) === v) && !(f.locals.has(v) && n.name === v)) hit = true;
      });
    mentions.set(f, hit);
    return hit;
  };
  const reaches = (f: FunctionFacts, seen: Set<FunctionFacts>): boolean => {
    if (seen.has(f)) return false;
    seen.add(f);
    if (reads(f)) return true;
    const subs = [...f.internalCalls.flatMap((ic) => ic.callees), ...f.modifiers.map((m) => m.def).filter((d): d is FunctionFacts => !!d)];
    return subs.some((g) => reaches(g, seen));
  };
  return c.functions.some((g) => g.isPublic && g.kind !== 'constructor' && !g.senderGuard && reaches(g, new Set()));
}

/** Whether state variable `v` is only ever updated, never consulted: every mention in a function
 *  that can change state (or a view other code calls) sits on the left of an assignment. */
function writeOnly(c: ContractFacts, v: string, facts: StaticFacts): boolean {
  for (const f of c.functions) {
    if (!f.node.body || f.locals.has(v) || f.params.includes(v)) continue;
    if (f.isView && !f.calledInternally) continue;
    let read = false;
    walk(f.node.body, (n) => {
      if (read) return false;
      if (n.type === 'Identifier' && (n.name === v || f.aliases.get(n.name) === v) && !assignedOnly(n, facts)) read = true;
    });
    if (read) return false;
  }
  for (const f of c.functions)
    for (const m of f.modifiers)
      if (m.def?.node.body && some(m.def.node.body, (n) => n.type === 'Identifier' && n.name === v)) return false;
  return true;
}

/** The identifier is (the base of) an assignment target, and the assignment's value is not used. */
function assignedOnly(id: Node, facts: StaticFacts): boolean {
  let child = id;
  let p = facts.parent(id);
  while (p && ((p.type === 'IndexAccess' && p.base === child) || (p.type === 'MemberAccess' && p.expression === child))) {
    child = p;
    p = facts.parent(p);
  }
  if (!p) return false;
  const isTarget =
    (p.type === 'BinaryOperation' && /^(=|\+=|-=|\*=|\/=|%=|\|=|&=|\^=|<<=|>>=)$/.test(p.operator) && p.left === child) ||
    (p.type === 'UnaryOperation' && /^(\+\+|--|delete)$/.test(p.operator));
  return isTarget && facts.parent(p)?.type === 'ExpressionStatement';
}

/** For a call made by a modifier: whether `variable` was read before it, i.e. by a modifier
 *  listed earlier or earlier in the calling modifier. Modifiers listed later and the body run
 *  after the call and see the fresh value (`airDrop() callsOut checksBalance`: a re-entrant
 *  call's write is visible to the outer check). */
function readBeforeModifierCall(fn: FunctionFacts, at: unknown, variable: string, pos: number): boolean {
  const idx = fn.modifiers.findIndex((m) => m.node === at);
  if (idx < 0) return true;
  for (const m of fn.modifiers.slice(0, idx))
    if (m.def && (m.def.transitiveReads.has(variable) || readBefore(m.def, variable, Infinity))) return true;
  const def = fn.modifiers[idx].def;
  return !!def && readBefore(def, variable, pos);
}

/** Whether `variable` (or a storage pointer to it) is read in `fn` before source offset `pos`. */
function readBefore(fn: FunctionFacts, variable: string, pos: number): boolean {
  const names = namesFor(variable, fn);
  let hit = false;
  walk(fn.node.body ?? {}, (n) => {
    if (hit) return false;
    if (n.type === 'Identifier' && names.has(n.name) && (n.range?.[0] ?? Infinity) < pos) hit = true;
  });
  return hit;
}

export const detectors = [reentrancyDetector];
export default detectorPlugin(detectors);
