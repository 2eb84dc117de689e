// integer-overflow: before Solidity 0.8 (and inside `unchecked {}` after it) +, -, * wrap
// around silently (SWC-101). Flags arithmetic on caller-controlled values or written into state.
// Avoids false positives: code compiled with checked arithmetic, constant-only expressions,
// library code (SafeMath's own body), values the caller cannot choose, operations whose
// operands are compared against each other in a require/assert/if of the same function
// (`require(a >= b); a -= b;`, `assert(c >= a)`, `require(c / a == b)`), additions of msg.value
// or block time (bounded in practice), msg.value times a constant, counters stepped by a literal,
// and parameters used only as keys (`bal[_id] += bal2[_id]`): choosing which slot is read does not
// let the caller choose the magnitude.
// Not reported either: a credit of an amount the same function first debited from another entry
// of the same table in checked arithmetic (a transfer: the sum of the entries is conserved).
// Not reported: arithmetic only the deployer (constructor) or a soundly guarded owner can reach;
// the owner is trusted unless some unguarded entry point can take the role.
// Not reported: a sum or product whose caller-chosen operands a require, or an `if` that always
// leaves, bounds by a small constant first (`require(_sadd <= hashesSize); n + _sadd`,
// `if (fees == 0 || _pcent > 100) throw;`). An owner fixed to an address literal is sound.
// Not reported: a sum with an amount the contract has just received, required equal to msg.value
// or pulled in by a required `token.transferFrom(msg.sender, this, x)` (bounded like msg.value),
// also when that require sits in an `if (x != 0)` (skipped only for a zero amount).
// Not reported: arithmetic over parameters used nowhere else with a lone parameter operand
// (`v * 10 ** decimals`): the caller can pass any result directly, so a wrap gives it nothing.
// Rated LOW: a credit next to a checked debit of the same amount from state before 0.8 (the
// sum is conserved: only a total above 2^256, issued elsewhere, could wrap it).
// Rated LOW: a wrap whose result only goes back to the caller (the function writes no state,
// calls out to nobody and is reached only from such functions) - real, but the caller only gets
// the wrapped value of operands it chose itself; it matters when another contract relies on it.
import {
  detectorPlugin,
  asNodes,
  identName,
  isMsgSender,
  isRequireLike,
  type MaybeNode,
  blockValue,
  conditions,
  callerControlled,
  boundedParam,
  isConstantExpr,
  norm,
  ownerSound,
  rootName,
  some,
  statementLoc,
  unwrap,
  walk,
  type FunctionFacts,
  type Node,
  type StaticDetector,
  type StaticFacts,
  startOf,
  endOf,
  firstDeclaredName,
  type FunctionNode,
} from '../../lib/analysis/static/index.ts';

const ARITH = new Set(['+', '-', '*', '+=', '-=', '*=', '**']);

function isEtherAmount(n: Node): boolean {
  const u = unwrap(n);
  if (u?.type === 'MemberAccess' && u.memberName === 'value' && u.expression?.type === 'Identifier' && u.expression.name === 'msg')
    return true;
  if (u?.type === 'MemberAccess' && u.memberName === 'balance') return true;
  return false;
}

function isTime(n: Node): boolean {
  const b = blockValue(unwrap(n));
  return b === 'timestamp' || b === 'number';
}

/** The parameters of `fn` that appear in `n` as values, not only as mapping/array keys. */
function paramsAsValue(n: Node, params: string[], out = new Set<string>()): Set<string> {
  walk(n, (x) => {
    if (x.type === 'IndexAccess') {
      // The base can carry a caller value (`_amounts[i]`), the index only selects a slot.
      if (x.base) paramsAsValue(x.base, params, out);
      return false;
    }
    if (x.type === 'Identifier' && params.includes(x.name)) out.add(x.name);
  });
  return out;
}

/** Functions whose result only goes back to whoever called them: no state written, no external
 *  call (directly or through callees), and every internal caller is such a function too. */
function resultOnlyFunctions(facts: StaticFacts): Set<FunctionFacts> {
  const all = facts.contracts.flatMap((c) => c.ownFunctions);
  const callers = new Map<FunctionFacts, FunctionFacts[]>();
  for (const f of all) for (const ic of f.internalCalls) for (const g of ic.callees) callers.set(g, [...(callers.get(g) ?? []), f]);
  const memo = new Map<FunctionFacts, boolean>();
  const pure = (f: FunctionFacts, stack: Set<FunctionFacts>): boolean => {
    const m = memo.get(f);
    if (m !== undefined) return m;
    if (stack.has(f)) return true; // recursion: decided by the other members of the cycle
    stack.add(f);
    const selfdestructs =
      !!f.node.body &&
      some(
        f.node.body,
        (x) =>
          x.type === 'FunctionCall' &&
          x.expression?.type === 'Identifier' &&
          (x.expression.name === 'selfdestruct' || x.expression.name === 'suicide'),
      );
    const ok =
      f.kind !== 'modifier' &&
      f.kind !== 'constructor' &&
      !f.transitiveWrites.size &&
      !f.transitiveExternal.length &&
      !selfdestructs &&
      (callers.get(f) ?? []).every((g) => pure(g, stack));
    stack.delete(f);
    memo.set(f, ok);
    return ok;
  };
  return new Set(all.filter((f) => pure(f, new Set())));
}

/** A require that runs before `at` on every path to it (a statement before it in its own block or
 *  an enclosing one) checks that the contract received `amount` (an operand, compared by its
 *  text: `_value`, `_balances[0]`): `msg.value == amount`, or a token
 *  `transferFrom(msg.sender, this, amount)` whose success is required. The require may sit in an
 *  `if (amount != 0)` (or `> 0`) without else: when it is skipped the amount is zero. */
function receivedAmount(fn: FunctionFacts, amount: Node, at: Node, facts: StaticFacts, source: string): boolean {
  const text = norm(source, amount);
  const isName = (x: MaybeNode) => !!x && norm(source, x) === text;
  const isThis = (x: MaybeNode) => {
    const u = unwrap(x);
    return (
      identName(u) === 'this' || (u?.type === 'FunctionCall' && u.arguments?.length === 1 && identName(unwrap(u.arguments[0])) === 'this')
    );
  };
  const receives = (cond: Node) =>
    some(
      cond,
      (x) =>
        (x.type === 'BinaryOperation' &&
          x.operator === '==' &&
          ((isEtherAmount(x.left) && isName(x.right)) || (isEtherAmount(x.right) && isName(x.left)))) ||
        (x.type === 'FunctionCall' &&
          x.expression?.type === 'MemberAccess' &&
          x.expression.memberName === 'transferFrom' &&
          x.arguments?.length === 3 &&
          isMsgSender(x.arguments[0]) &&
          isThis(x.arguments[1]) &&
          isName(x.arguments[2])),
    );
  const requiresReceipt = (st: Node) => {
    const call = st.type === 'ExpressionStatement' ? unwrap(st.expression) : null;
    return !!call && isRequireLike(call) && !!call.arguments?.[0] && receives(call.arguments[0]);
  };
  const isZero = (x: MaybeNode) => {
    const u = unwrap(x);
    return u?.type === 'NumberLiteral' && Number(u.number) === 0;
  };
  // `if (amount != 0) { …; require(received amount); … }`: zero or received on every path.
  const nonZeroBranch = (st: Node) => {
    if (st.type !== 'IfStatement' || st.falseBody) return false;
    const c = unwrap(st.condition);
    if (c?.type !== 'BinaryOperation') return false;
    const nonZero =
      (c.operator === '!=' && ((isName(c.left) && isZero(c.right)) || (isZero(c.left) && isName(c.right)))) ||
      (c.operator === '>' && isName(c.left) && isZero(c.right)) ||
      (c.operator === '<' && isZero(c.left) && isName(c.right));
    if (!nonZero) return false;
    const body = st.trueBody?.type === 'Block' ? asNodes(st.trueBody.statements) : st.trueBody ? [st.trueBody] : [];
    return body.some(requiresReceipt);
  };
  const atStart = at.range?.[0] ?? 0;
  for (let child: Node = at, p = facts.parent(at); p && child !== fn.node; child = p, p = facts.parent(p)) {
    if (p.type !== 'Block') continue;
    for (const st of asNodes(p.statements)) {
      if ((st.range?.[1] ?? 0) >= atStart) break;
      if (requiresReceipt(st) || nonZeroBranch(st)) return true;
    }
  }
  return false;
}

/**
 * `v * 10 ** decimals`, `a + b`: arithmetic over parameters only, each used nowhere else in the
 * function, with a lone parameter as (left) operand. Nothing but the result reaches the rest of
 * the function, and the caller can pass any result directly (the other operands at 0 or 1): a
 * wrap gives the caller nothing it could not choose anyway.
 */
function freeChoice(n: Node, fn: FunctionFacts): boolean {
  const u = unwrap(n);
  if (u?.type !== 'BinaryOperation' || !['+', '-', '*'].includes(u.operator)) return false;
  const lone = (x: MaybeNode) => {
    const v = identName(unwrap(x));
    return !!v && fn.params.includes(v);
  };
  if (!(lone(u.left) || (u.operator !== '-' && lone(u.right)))) return false;
  const used: string[] = [];
  const paramsOnly = (x: MaybeNode): boolean => {
    const e = unwrap(x);
    if (!e) return false;
    if (e.type === 'Identifier') {
      used.push(e.name);
      return fn.params.includes(e.name);
    }
    if (e.type === 'BinaryOperation' && ['+', '-', '*'].includes(e.operator)) return paramsOnly(e.left) && paramsOnly(e.right);
    // `10 ** decimals`: 1 when the exponent is 0.
    if (e.type === 'BinaryOperation' && e.operator === '**') return unwrap(e.left)?.type === 'NumberLiteral' && paramsOnly(e.right);
    return false;
  };
  if (!paramsOnly(u) || !fn.node.body) return false;
  let mentions = 0;
  walk(fn.node.body, (x) => {
    if (x.type === 'Identifier' && used.includes(x.name)) mentions++;
  });
  return mentions === used.length && new Set(used).size === used.length;
}

/** The other statements of the block holding the statement of `n`. */
function siblingStatements(n: Node, facts: StaticFacts): Node[] {
  let st: Node | null = n;
  while (st && !/Statement$/.test(st.type)) st = facts.parent(st);
  const block = st ? facts.parent(st) : null;
  return block?.type === 'Block' ? asNodes(block.statements).filter((x) => x !== st) : [];
}

function mentions(haystack: string, needle: string): boolean {
  if (!needle) return false;
  const esc = needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\w.])${esc}(?![\\w])`).test(haystack);
}

export const integerOverflowDetector: StaticDetector = {
  meta: {
    id: 'integer-overflow',
    title: 'Integer overflow or underflow',
    severity: 'HIGH',
    confidence: 0.6,
    category: 'arithmetic',
    swc: 'SWC-101',
    cwe: 'CWE-190',
    description: 'Unchecked arithmetic wraps around on overflow/underflow, silently producing huge or tiny values.',
    recommendation: 'Compile with Solidity >= 0.8 (checked arithmetic), use SafeMath, or require() the bounds before the operation.',
    exploit_scenario:
      'A holder with a balance of 0 transfers 1 token: `balance - 1` underflows to 2^256-1 and the attacker owns an enormous balance.',
    messages: { op: '`{{expr}}` can {{kind}} ({{why}}).' },
  },
  create(context) {
    const { facts, source } = context;
    let resultOnly: Set<FunctionFacts> | null = null;
    // Comparisons (left, right) evaluated in require/assert/if/loop conditions of a function.
    const cmpCache = new Map<Node, Array<[string, string]>>();
    const comparisons = (fn: FunctionNode): Array<[string, string]> => {
      let c = cmpCache.get(fn);
      if (!c) {
        c = [];
        for (const cond of conditions(fn.body)) {
          walk(cond, (x) => {
            if (x.type === 'BinaryOperation' && /^(<|<=|>|>=|==|!=)$/.test(x.operator))
              c!.push([norm(source, x.left), norm(source, x.right)]);
          });
        }
        cmpCache.set(fn, c);
      }
      return c;
    };
    return {
      BinaryOperation(n, parent) {
        if (!ARITH.has(n.operator)) return;
        let child: Node = n;
        let p0 = facts.parent(n);
        while (p0?.type === 'TupleExpression' && p0.components?.length === 1) {
          child = p0;
          p0 = facts.parent(p0);
        }
        if (facts.version.checkedArithmetic && !facts.inUnchecked(n)) return;
        const { contract, fn } = facts.enclosing(n);
        if (!contract || !fn || fn.kind === 'modifier' || contract.kind === 'library') return;
        // Report the outermost arithmetic of an expression once.
        if (parent?.type === 'BinaryOperation' && ARITH.has(parent.operator) && !parent.operator.endsWith('=')) return;
        const constants = new Set([...contract.stateVars.values()].filter((v) => v.constant).map((v) => v.name));
        if (isConstantExpr(n.left, constants) && isConstantExpr(n.right, constants)) return;
        const compound = n.operator.endsWith('=');
        const op = compound ? n.operator[0] : n.operator;
        const lhsRoot = compound ? rootName(n.left) : null;
        const writesState = !!lhsRoot && ((contract.stateVars.has(lhsRoot) && !fn.locals.has(lhsRoot)) || fn.aliases.has(lhsRoot));
        // Only values the caller chooses can be driven to the wrap-around point: parameters of
        // an entry point, or msg.value when something is subtracted from it.
        if (!fn.isPublic) return;
        // The deployer and a soundly guarded owner are trusted: a wrap only they can choose is
        // their own mistake, not an attack (while anyone can take the owner role, it is one).
        if (fn.kind === 'constructor' || (fn.senderGuard && ownerSound(contract))) return;
        const valueParams = paramsAsValue(n, fn.params);
        const byParam = valueParams.size > 0;
        if (!byParam && !(op === '-' && callerControlled(n, fn))) return;
        // (Kept when stored straight into state: a setter's wrap is left to the trust rules.)
        const storedTo = p0?.type === 'BinaryOperation' && p0.operator === '=' && p0.right === child ? rootName(p0.left) : null;
        const intoState = !!storedTo && ((contract.stateVars.has(storedTo) && !fn.locals.has(storedTo)) || fn.aliases.has(storedTo));
        if (!compound && !intoState && freeChoice(n, fn)) return;
        // A sum or product whose caller-chosen operands are each bounded by a small constant in a
        // require before it (`require(_n <= MAX); len + _n`): the caller cannot reach the wrap.
        if ((op === '+' || op === '*') && [...valueParams].every((v) => boundedParam(fn, contract, v, n))) return;
        // `x * c / d` scales by a fraction (fees, percentages).
        if (
          op === '*' &&
          p0?.type === 'BinaryOperation' &&
          p0.operator === '/' &&
          p0.left === child &&
          (isConstantExpr(n.left, constants) || isConstantExpr(n.right, constants))
        )
          return;
        if (op === '+' && (isEtherAmount(n.left) || isEtherAmount(n.right) || isTime(n.left) || isTime(n.right))) return;
        // A sum of an amount the contract has just received (required equal to msg.value, or
        // moved in by a required token.transferFrom(msg.sender, this, x)) is bounded like msg.value.
        if (op === '+') {
          const carriers = [n.left, n.right].filter((side) => !!side && paramsAsValue(side, fn.params).size > 0);
          if (carriers.length && carriers.every((side) => receivedAmount(fn, side, n, facts, source))) return;
        }
        // msg.value times a constant stays far below 2^256.
        if ((isEtherAmount(n.left) && isConstantExpr(n.right, constants)) || (isEtherAmount(n.right) && isConstantExpr(n.left, constants)))
          return;
        if (op === '+' && (unwrap(n.right)?.type === 'NumberLiteral' || unwrap(n.left)?.type === 'NumberLiteral')) return;
        // Operands already compared with each other in this function: guarded.
        const a = norm(source, n.left);
        const b = norm(source, n.right);
        const p = facts.parent(n);
        const target =
          p?.type === 'VariableDeclarationStatement'
            ? (firstDeclaredName(p) ?? '')
            : p?.type === 'BinaryOperation' && p.operator === '='
              ? norm(source, p.left)
              : '';
        const across = (l: string, r: string, x: string, y: string) => mentions(l, x) && mentions(r, y);
        const guard = comparisons(fn.node).some(
          ([l, r]) =>
            across(l, r, a, b) ||
            across(l, r, b, a) ||
            (!!target && (across(l, r, target, a) || across(l, r, target, b) || across(r, l, target, a) || across(r, l, target, b))),
        );
        if (guard) return;
        // A transfer between entries of one table: the same amount was first debited from
        // another entry in checked arithmetic, so the sum of the entries is unchanged and the
        // credit cannot exceed it (solmate's `unchecked { balanceOf[to] += amount; }`).
        if (
          compound &&
          op === '+' &&
          lhsRoot &&
          writesState &&
          fn.writes.some(
            (w) =>
              w.node !== n &&
              w.pos < (n.range?.[0] ?? 0) &&
              w.node?.type === 'BinaryOperation' &&
              w.node.operator === '-=' &&
              rootName(w.node.left) === lhsRoot &&
              norm(source, w.node.right) === b &&
              facts.version.checkedArithmetic &&
              !facts.inUnchecked(w.node),
          )
        )
          return;

        // The same transfer before 0.8: the debit of the same amount from another entry of the
        // table (or from other state: `bal[from] -= v; totalMigrated += v;`), next to the credit,
        // is checked by a comparison of that entry with the amount (`require(bal[from] >= v)`).
        // The sum is conserved, so only a total above 2^256 issued elsewhere (itself reported
        // there) could wrap the credit: a note, not an attack.
        // One debit balances one credit: a second credit of the same amount next to it
        // (`bal[a] += v; bal[b] += v;`) creates value, and neither is a transfer.
        const siblings = compound && op === '+' && !!lhsRoot && writesState ? siblingStatements(n, facts) : [];
        const alsoCredits = siblings.some((st) => {
          const c = st.type === 'ExpressionStatement' ? unwrap(st.expression) : null;
          return c?.type === 'BinaryOperation' && c.operator === '+=' && norm(source, c.right) === b;
        });
        const conserved =
          !alsoCredits &&
          siblings.some((st) => {
            const d = st.type === 'ExpressionStatement' ? unwrap(st.expression) : null;
            if (d?.type !== 'BinaryOperation' || d.operator !== '-=') return false;
            const from = rootName(d.left);
            if (!from || !(from === lhsRoot || (contract.stateVars.has(from) && !fn.locals.has(from)))) return false;
            if (norm(source, d.right) !== b || norm(source, d.left) === a) return false;
            const debited = norm(source, d.left);
            return comparisons(fn.node).some(
              ([l, r]) => (mentions(l, debited) && mentions(r, b)) || (mentions(r, debited) && mentions(l, b)),
            );
          });

        resultOnly ??= resultOnlyFunctions(facts);
        const harmless = resultOnly.has(fn) || conserved;
        const kind = op === '-' ? 'underflow' : 'overflow';
        const why = conserved
          ? `a transfer into \`${lhsRoot}\`: the checked debit of the same amount conserves the sum, so only a total above 2^256 could wrap it`
          : writesState
            ? `result stored in state variable \`${lhsRoot}\``
            : harmless
              ? 'operand chosen by the caller; the result only goes back to the caller'
              : 'operand chosen by the caller';
        const inUnchecked = facts.inUnchecked(n) && facts.version.checkedArithmetic;
        context.report({
          node: n,
          loc: statementLoc(n, facts),
          messageId: 'op',
          data: { expr: source.slice(startOf(n), endOf(n) + 1).slice(0, 80), kind, why: inUnchecked ? `${why}, inside unchecked` : why },
          ...(harmless ? { severity: 'LOW' as const } : {}),
          confidence: some(n, (x) => x.type === 'Identifier' && fn.params.includes(x.name)) ? 0.65 : 0.5,
        });
      },
    };
  },
};

export const detectors = [integerOverflowDetector];
export default detectorPlugin(detectors);
