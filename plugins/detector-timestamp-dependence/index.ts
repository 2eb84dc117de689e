// timestamp-dependence: miners choose block.timestamp (`now`) within a tolerance of several
// seconds, so logic where it decides who wins, whether a payout happens or which state comes
// next can be nudged (SWC-116). Reports a timestamp used in a condition or comparison, in a
// random draw, returned to callers, or stored in a variable that such a condition later reads.
// Avoids false positives: timestamps only emitted in events or recorded and never compared,
// deadlines being computed (`now + 1 days`), and per-account locks (`now > lockTime[msg.sender]`)
// where a few seconds of drift give an attacker nothing, including the timestamp stored into the
// caller's own record for such a lock; a min/max clamp (`t > now ? t : now`), which computes a
// bound instead of choosing between behaviours (also written as `if (now > t) d = now - t;`,
// a saturating difference); a timestamp passed into a struct field that no
// condition reads (`Monarch(addr, name, 0, now)` whose `coronationTimestamp` is only recorded);
// a draw that also mixes blockhash/number/difficulty/coinbase (one weakness at one place, reported
// by bad-randomness: the whole draw is predictable, not just the miner's few seconds). A draw from
// the timestamp alone is reported here only (HIGH: predictable in the same block), not again by
// bad-randomness.
// Windows and buckets of an hour or more (`last + 12 hours < now`, `now / 1 days`) and deadlines
// the caller passes in (`require(block.timestamp <= deadline)`) are not reported either, nor
// stored timeouts: a field every write of which sets `now + d` (or zero) with d not a literal
// under an hour (a channel's dispute window): whoever set d chose the window's scale.
// Fields a condition only tests against zero (`birthTime != 0`) are existence flags, not times.
// One finding per stored variable: every store into the same variable feeds the same condition.
import {
  isCallerValue,
  detectorPlugin,
  blockValue,
  conditions,
  entropyFacts,
  identityTruncation,
  norm,
  statementLoc,
  unwrap,
  walk,
  type Node,
  type StaticDetector,
  firstDeclaredName,
  type MaybeNode,
  type AST,
  asNodes,
} from '../../lib/analysis/static/index.ts';

const COMPARE = /^(<|<=|>|>=|==|!=)$/;
const isZero = (n: Node) => {
  const u = unwrap(n);
  return u?.type === 'NumberLiteral' && Number(u.number) === 0;
};

const UNIT: Record<string, number> = { seconds: 1, minutes: 60, hours: 3600, days: 86400, weeks: 604800, years: 31536000 };
/** A window of an hour or more: miners' seconds of drift move nothing that matters across it. */
const COARSE_SECONDS = 3600;

/** Seconds a literal or a constant state variable stands for (`12 hours`, `TWELVE_HOURS`). */
function seconds(n: MaybeNode, constants: Map<string, Node>, depth = 0): number | null {
  const u = unwrap(n);
  if (!u || depth > 4) return null;
  if (u.type === 'NumberLiteral') {
    const v = Number(String(u.number).replace(/_/g, ''));
    return Number.isFinite(v) ? v * (u.subdenomination ? (UNIT[u.subdenomination] ?? 0) : 1) : null;
  }
  if (u.type === 'Identifier' && constants.has(u.name)) return seconds(constants.get(u.name), constants, depth + 1);
  if (u.type === 'BinaryOperation' && u.operator === '*') {
    const a = seconds(u.left, constants, depth + 1);
    const b = seconds(u.right, constants, depth + 1);
    return a !== null && b !== null ? a * b : null;
  }
  return null;
}

export const timestampDependenceDetector: StaticDetector = {
  meta: {
    id: 'timestamp-dependence',
    title: 'Block timestamp dependence',
    severity: 'LOW',
    confidence: 0.6,
    category: 'time_manipulation',
    swc: 'SWC-116',
    cwe: 'CWE-829',
    description: 'block.timestamp is set by the miner within a tolerance; decisions based on it can be manipulated by a few seconds.',
    recommendation:
      'Do not use timestamps for randomness or fine-grained decisions; tolerate ~15 s of drift, or use block numbers / oracles for time windows.',
    exploit_scenario: 'A miner sets the block timestamp so that `now % 15 == 0` or a short deadline check passes, winning the pot.',
    messages: {
      condition: 'Timestamp decides a condition.',
      draw: 'Timestamp used as entropy: any contract in the same block computes the same value, and the block proposer can pick it.',
      returned: 'Timestamp returned to callers that use it for decisions.',
      stored: 'Timestamp stored in `{{name}}`, which a condition reads later.',
    },
  },
  create(context) {
    const { facts, source } = context;
    const ef = entropyFacts(facts);
    const constants = new Map<string, Node>();
    for (const c of facts.contracts)
      for (const v of c.stateVars.values()) if (v.constant && v.node?.expression) constants.set(v.name, v.node.expression);
    // `last + 12 hours < now`, `now - start > 1 days`, `now / 1 days`: a window (or bucket) of an
    // hour or more, which a few seconds of drift cannot meaningfully move.
    const coarse = (cmp: Node): boolean => {
      let hit = false;
      walk(cmp, (x) => {
        if (x.type === 'BinaryOperation' && ['+', '-', '/'].includes(x.operator))
          for (const side of [x.left, x.right]) if ((seconds(side, constants) ?? 0) >= COARSE_SECONDS) hit = true;
      });
      return hit;
    };
    // `if (now > start) elapsed = now - start;` (no else): a saturating difference, max(a - b, 0)
    // written as a branch. Like the `?:` clamp below it computes a bound; it decides nothing.
    const saturating = (cmp: Node): boolean => {
      if (cmp.type !== 'BinaryOperation' || !/^(<|<=|>|>=)$/.test(cmp.operator)) return false;
      let q = facts.parent(cmp);
      let c: Node = cmp;
      while (q?.type === 'TupleExpression' && q.components?.length === 1) {
        c = q;
        q = facts.parent(q);
      }
      if (q?.type !== 'IfStatement' || q.condition !== c || q.falseBody) return false;
      const body: Node[] = q.trueBody?.type === 'Block' ? asNodes(q.trueBody.statements) : q.trueBody ? [q.trueBody] : [];
      if (body.length !== 1 || body[0].type !== 'ExpressionStatement') return false;
      const st = unwrap(body[0].expression);
      if (st?.type !== 'BinaryOperation' || st.operator !== '=') return false;
      const diff = unwrap(st.right);
      if (diff?.type !== 'BinaryOperation' || diff.operator !== '-') return false;
      const [hi, lo] = cmp.operator.startsWith('>') ? [cmp.left, cmp.right] : [cmp.right, cmp.left];
      return norm(source, diff.left) === norm(source, hi) && norm(source, diff.right) === norm(source, lo);
    };
    const condNames = new Set<string>();
    for (const c of facts.contracts)
      for (const f of [...c.ownFunctions])
        for (const cond of conditions(f.node.body))
          walk(cond, (x) => {
            // `t != 0`, `t > 0`: an existence check; no timestamp a miner can pick is zero.
            if (x.type === 'BinaryOperation' && COMPARE.test(x.operator) && (isZero(x.left) || isZero(x.right))) return false;
            if (x.type === 'BinaryOperation' && COMPARE.test(x.operator) && coarse(x)) return false;
            if (saturating(x)) return false;
            if (x.type === 'Identifier') condNames.add(x.name);
            if (x.type === 'MemberAccess') condNames.add(x.memberName);
          });
    const perAccount = (e: Node, at: Node): boolean => {
      const fn = facts.enclosing(at).fn;
      let hit = false;
      walk(e, (x) => {
        if (x.type === 'IndexAccess' && isCallerValue(x.index, fn)) hit = true;
        if (x.type === 'MemberAccess' && x.expression?.type === 'Identifier' && fn?.aliases.has(x.expression.name)) hit = true;
      });
      return hit;
    };
    const structMembers = new Map<string, string[]>();
    walk(facts.ast, (x) => {
      if (x.type === 'StructDefinition')
        structMembers.set(
          x.name,
          (x.members ?? []).map((m) => m?.name ?? ''),
        );
    });
    // The struct field a constructor argument lands in (`S(a, b)` positional or `S({f: b})`).
    const structField = (call: AST.FunctionCall, arg: Node): string | null => {
      if (call.expression?.type !== 'Identifier') return null;
      const members = structMembers.get(call.expression.name);
      const i = (call.arguments ?? []).findIndex((a) => a === arg);
      if (!members || i < 0) return null;
      return call.names?.length ? (call.names[i] ?? null) : (members[i] ?? null);
    };
    // Timeouts: a stored field or state variable whose every write is `now + d` (or a reset to
    // zero) with a duration d that is not a literal under an hour (a channel's dispute window, a
    // configured lock period). The window is d long; drift moves each end by seconds, and who
    // set d chose its scale (SWC-116's 15-second rule). A short literal window stays reported.
    // A duration read from a state variable no function writes is its initial value (`uint
    // ONE_MINUTE = 1 minutes;` without `constant`).
    const fixed = new Map(constants);
    for (const c of facts.contracts)
      for (const v of c.stateVars.values())
        if (v.node?.expression && !c.functions.some((f) => f.writes.some((w) => w.variable === v.name)))
          fixed.set(v.name, v.node.expression);
    const deadlineWrites = new Map<string, boolean>();
    const noteWrite = (name: string | null, value: Node) => {
      if (!name) return;
      const v = unwrap(value);
      const isNow = (x: MaybeNode) => blockValue(unwrap(x)) === 'timestamp';
      let ok: boolean | null = isZero(v) ? null : false;
      if (v?.type === 'BinaryOperation' && v.operator === '+' && (isNow(v.left) || isNow(v.right))) {
        const d = isNow(v.left) ? v.right : v.left;
        const secs = seconds(d, fixed);
        ok = !isNow(d) && (secs === null ? !isZero(d) : secs >= COARSE_SECONDS);
      }
      if (ok === null) return;
      deadlineWrites.set(name, (deadlineWrites.get(name) ?? true) && ok);
    };
    const lhsName = (l: MaybeNode) => (l?.type === 'Identifier' ? l.name : l?.type === 'MemberAccess' ? l.memberName : null);
    // Every write: assignments, declarations, and struct values built field by field
    // (`Channel(a, 0, now + t)`).
    walk(facts.ast, (x) => {
      if (x.type === 'BinaryOperation' && /^[-+*/%|&^]?=$|^(<<|>>)=$/.test(x.operator) && !COMPARE.test(x.operator)) {
        const name = lhsName(unwrap(x.left));
        if (x.operator === '=') noteWrite(name, x.right);
        else if (name) deadlineWrites.set(name, false);
      }
      if (x.type === 'UnaryOperation' && (x.operator === '++' || x.operator === '--')) {
        const name = lhsName(unwrap(x.subExpression));
        if (name) deadlineWrites.set(name, false);
      }
      if (x.type === 'StateVariableDeclaration' && x.initialValue && x.variables?.[0]?.name) noteWrite(x.variables[0].name, x.initialValue);
      if (x.type === 'FunctionCall' && x.expression?.type === 'Identifier' && structMembers.has(x.expression.name))
        for (const arg of x.arguments ?? []) noteWrite(structField(x, arg), arg);
      if (x.type === 'VariableDeclarationStatement' && x.initialValue) {
        const name = firstDeclaredName(x);
        if (name) noteWrite(name, x.initialValue);
      }
    });
    const timeoutField = (n: MaybeNode): boolean => {
      const u = unwrap(n);
      const name = lhsName(u);
      if (!name || !deadlineWrites.get(name)) return false;
      // A local of the same name is not the stored deadline.
      return !(u?.type === 'Identifier' && facts.enclosing(u).fn?.locals.has(name));
    };
    const otherBlockValue = (e: Node, at: Node): boolean => {
      const enc = facts.enclosing(at);
      const carried = ef.carries(e, { contract: enc.contract?.name ?? null, fn: enc.fn?.name ?? null });
      return [...carried].some((b) => b !== 'timestamp' && b !== 'gaslimit');
    };
    const classify = (n: Node): { id: string; name?: string } | null => {
      let p = facts.parent(n);
      let child = n;
      while (p && !/Statement$|^Block$|^StateVariableDeclaration$/.test(p.type)) {
        if (p.type === 'BinaryOperation' && COMPARE.test(p.operator)) {
          // A per-account lock (`now > lockTime[msg.sender]`, `now > acc.unlockTime`) gains an
          // attacker nothing from a few seconds of drift.
          const other = p.left === child ? p.right : p.left;
          if (perAccount(other, n)) return null;
          if (timeoutField(other)) return null;
          if (coarse(p) || saturating(p)) return null;
          // A deadline the caller passes (`require(block.timestamp <= deadline)`): drift only
          // moves the caller's own cut-off by seconds.
          const u = unwrap(other);
          if (u?.type === 'Identifier' && facts.enclosing(n).fn?.params.includes(u.name)) return null;
          // `t > now ? t : now` (or the reverse): a clamp to a bound, not a decision.
          const q = facts.parent(p);
          if (q?.type === 'Conditional' && q.condition === p) {
            const ops = new Set([norm(source, p.left), norm(source, p.right)]);
            const arms = new Set([norm(source, q.trueExpression), norm(source, q.falseExpression)]);
            if (ops.size === 2 && [...ops].every((o) => arms.has(o))) return null;
          }
          return { id: 'condition' };
        }
        // A bucket of an hour or more (`now / 1 days`): drift moves it only at the boundary.
        if (p.type === 'BinaryOperation' && p.operator === '/' && p.left === child && (seconds(p.right, constants) ?? 0) >= COARSE_SECONDS)
          return null;
        // Creating a deadline (`t = now + 1 days`) decides nothing by itself.
        if (p.type === 'BinaryOperation' && p.operator === '+') return null;
        if (p.type === 'FunctionCall' && p.expression?.type === 'Identifier' && /^(require|assert)$/.test(p.expression.name))
          return { id: 'condition' };
        // `block.timestamp % 2**32`, `uint32(block.timestamp)` keep the time intact (packing).
        if (ef.isSink(p) && !identityTruncation(p)) return otherBlockValue(p, n) ? null : { id: 'draw' };
        // Stored as a struct field: what matters is whether a condition reads that field.
        const field = p.type === 'FunctionCall' ? structField(p, child) : null;
        if (field !== null) return condNames.has(field) ? { id: 'stored', name: field } : null;
        if (p.type === 'Conditional' && p.condition === child) return { id: 'condition' };
        if (p.type === 'BinaryOperation' && p.operator === '=') {
          const name = p.left?.type === 'Identifier' ? p.left.name : p.left?.type === 'MemberAccess' ? p.left.memberName : null;
          // The caller's own lock time (`acc.unlockTime = now`): drift only moves their own lock.
          if (perAccount(p.left, n)) return null;
          return name && condNames.has(name) ? { id: 'stored', name } : null;
        }
        child = p;
        p = facts.parent(p);
      }
      if (!p) return null;
      if ((p.type === 'IfStatement' || p.type === 'WhileStatement') && p.condition === child) return { id: 'condition' };
      if (p.type === 'ReturnStatement') return { id: 'returned' };
      if (
        (p.type === 'VariableDeclarationStatement' || p.type === 'StateVariableDeclaration') &&
        firstDeclaredName(p) &&
        condNames.has(firstDeclaredName(p)!)
      )
        return { id: 'stored', name: firstDeclaredName(p)! };
      return null;
    };
    const storedReported = new Set<string>();
    const check = (n: Node) => {
      if (blockValue(n) !== 'timestamp') return;
      const k = classify(n);
      if (k?.id === 'stored') {
        const key = `${facts.enclosing(n).contract?.name}.${k.name}`;
        if (storedReported.has(key)) return;
        storedReported.add(key);
      }
      if (!k) return;
      // A draw from the timestamp alone is predictable by any contract in the same block, as
      // bad randomness is (that rule leaves it to this one): rated like it.
      const severity = k.id === 'draw' ? { severity: 'HIGH' as const } : {};
      context.report({ node: n, loc: statementLoc(n, facts), messageId: k.id, data: { name: k.name ?? '' }, ...severity });
    };
    return { Identifier: check, MemberAccess: check };
  },
};

export const detectors = [timestampDependenceDetector];
export default detectorPlugin(detectors);
