// Helpers that several detectors share: where to report (the statement, not the whole function),
// which conditions guard a function, and whether a value comes from the caller.
import type { Detector, DetectorContext } from '../../../kernel/contracts/detector.ts';
import {
  alwaysLeaves,
  asNode,
  asNodes,
  declaredVariables,
  isNode,
  isMsgSender,
  isRequireLike,
  line,
  endLine,
  some,
  walk,
  text,
  unwrap,
  type MaybeNode,
  type Node,
  type NodeOf,
  type NodeType,
} from './ast.ts';
import type { ContractFacts, FunctionFacts, FunctionNode, StaticFacts } from './facts.ts';

type Handler<K extends NodeType> = (node: NodeOf<K>, parent?: Node) => void;
/** A static detector's visitor: each handler gets the parser's node type for its key
 *  (`FunctionCall` → AST.FunctionCall), on entry or on `<Type>:exit`. */
export type StaticVisitor = { [K in NodeType]?: Handler<K> } & { [K in NodeType as `${K}:exit`]?: Handler<K> } & {
  $finish?: () => Promise<void>;
};

/** The kernel's detector contract, with the static layer's facts and typed visitor. */
export interface StaticDetector extends Detector<StaticFacts> {
  create(context: DetectorContext<StaticFacts>): StaticVisitor;
}

/** `create` of a rule that looks at the whole file once, after the traversal (ESLint's
 *  `Program:exit`): `run` gets the file's facts and the context to report to. */
export function afterTraversal(run: (facts: StaticFacts, context: DetectorContext<StaticFacts>) => void): StaticDetector['create'] {
  return (context) => ({ 'SourceUnit:exit': () => run(context.facts, context) });
}

/** `create` of a rule that looks at each contract of the file once, after the traversal. */
export function perContract(run: (c: ContractFacts, context: DetectorContext<StaticFacts>) => void): StaticDetector['create'] {
  return afterTraversal((facts, context) => {
    for (const c of facts.contracts) run(c, context);
  });
}

/** `create` of a rule that looks at each function each contract declares (its own, not the
 *  inherited ones), once, after the traversal. */
export function perFunction(
  run: (fn: FunctionFacts, c: ContractFacts, context: DetectorContext<StaticFacts>) => void,
): StaticDetector['create'] {
  return perContract((c, context) => {
    for (const fn of c.ownFunctions) run(fn, c, context);
  });
}

const BOUND_LIMIT = 2n ** 128n;

/** Value of a constant expression: literals (with ether/time units), `**`, `*`, `+`, and constant
 *  state variables of `c`; null when not constant. */
export function constantValue(e: MaybeNode, c: ContractFacts | null, depth = 0): bigint | null {
  const u = unwrap(e);
  if (!u || depth > 8) return null;
  if (u.type === 'NumberLiteral') {
    const units: Record<string, bigint> = {
      wei: 1n,
      gwei: 10n ** 9n,
      szabo: 10n ** 12n,
      finney: 10n ** 15n,
      ether: 10n ** 18n,
      seconds: 1n,
      minutes: 60n,
      hours: 3600n,
      days: 86400n,
      weeks: 604800n,
      years: 31536000n,
    };
    const unit = u.subdenomination ? units[u.subdenomination] : 1n;
    if (unit === undefined || !/^(0x[0-9a-f_]+|[0-9_]+)$/i.test(String(u.number))) return null;
    return BigInt(String(u.number).replace(/_/g, '')) * unit;
  }
  if (u.type === 'Identifier') {
    const sv = c?.stateVars.get(u.name);
    return sv?.constant && sv.node.expression ? constantValue(sv.node.expression, c, depth + 1) : null;
  }
  if (u.type === 'BinaryOperation' && ['**', '*', '+'].includes(u.operator)) {
    const a = constantValue(u.left, c, depth + 1);
    const b = constantValue(u.right, c, depth + 1);
    if (a === null || b === null) return null;
    if (u.operator === '**') return b < 512n ? a ** b : null;
    return u.operator === '*' ? a * b : a + b;
  }
  return null;
}

/**
 * Parameter `name` of `fn` is bounded above by a small constant (below 2^128) in a require/assert
 * that runs before `at` on every path: a top-level statement of the body, or a conjunct of one
 * (`require(x > 0 && x <= MAX)`). Adding or multiplying such a value cannot be driven to the wrap
 * point by the caller.
 */
export function boundedParam(fn: FunctionFacts, c: ContractFacts | null, name: string, at: Node): boolean {
  const body = fn.node.body;
  if (!body || !fn.params.includes(name)) return false;
  // A parameter reassigned in the body no longer holds what the require checked.
  const reassigned = some(
    body,
    (x) =>
      (x.type === 'BinaryOperation' &&
        /^[-+*/%|&^]?=$|^(<<|>>)=$/.test(x.operator) &&
        unwrap(x.left)?.type === 'Identifier' &&
        (unwrap(x.left) as { name?: string }).name === name) ||
      (x.type === 'UnaryOperation' &&
        /^(\+\+|--)$/.test(x.operator) &&
        unwrap(x.subExpression)?.type === 'Identifier' &&
        (unwrap(x.subExpression) as { name?: string }).name === name),
  );
  if (reassigned) return false;
  const atStart = at.range?.[0] ?? 0;
  // The facts that hold after a top-level statement: every conjunct of a require, and the
  // negation of every disjunct of an `if (...)` whose body always leaves the function
  // (`if (x == 0 || _n > MAX) throw;`).
  const split = (e: MaybeNode, op: '&&' | '||'): Node[] => {
    const u = unwrap(e);
    if (!u) return [];
    return u.type === 'BinaryOperation' && u.operator === op ? [...split(u.left, op), ...split(u.right, op)] : [u];
  };
  const FLIP: Record<string, string> = { '<': '>=', '<=': '>', '>': '<=', '>=': '<' };
  const facts = (k: Node, negated: boolean) =>
    k.type === 'BinaryOperation' ? [{ op: negated ? (FLIP[k.operator] ?? '') : k.operator, l: unwrap(k.left), r: unwrap(k.right) }] : [];
  for (const st of asNodes(body.statements)) {
    if ((st.range?.[1] ?? 0) >= atStart) break;
    const call = st.type === 'ExpressionStatement' ? unwrap(st.expression) : null;
    const holds =
      call && isRequireLike(call)
        ? split(call.arguments?.[0], '&&').flatMap((k) => facts(k, false))
        : st.type === 'IfStatement' && !st.falseBody && alwaysLeaves(st.trueBody)
          ? split(st.condition, '||').flatMap((k) => facts(k, true))
          : [];
    for (const { op, l, r } of holds) {
      const bound =
        (op === '<=' || op === '<') && l?.type === 'Identifier' && l.name === name
          ? r
          : (op === '>=' || op === '>') && r?.type === 'Identifier' && r.name === name
            ? l
            : null;
      const v = bound ? constantValue(bound, c) : null;
      if (v !== null && v < BOUND_LIMIT) return true;
    }
  }
  return false;
}

const SIMPLE_STATEMENTS = new Set([
  'ExpressionStatement',
  'VariableDeclarationStatement',
  'ReturnStatement',
  'EmitStatement',
  'ThrowStatement',
  'RevertStatement',
  'StateVariableDeclaration',
]);

/** Lines of the statement holding `node`; for a condition of if/for/while, the condition only. */
export function statementLoc(node: Node, facts: StaticFacts): { line: number; end_line: number } {
  let cur = node;
  let p = facts.parent(cur);
  while (p) {
    if (SIMPLE_STATEMENTS.has(p.type)) return { line: line(p), end_line: endLine(p) };
    if (
      p.type === 'IfStatement' ||
      p.type === 'WhileStatement' ||
      p.type === 'DoWhileStatement' ||
      p.type === 'ForStatement' ||
      p.type === 'Block' ||
      p.type === 'FunctionDefinition' ||
      p.type === 'ModifierDefinition'
    ) {
      return { line: line(cur), end_line: endLine(cur) };
    }
    cur = p;
    p = facts.parent(cur);
  }
  return { line: line(node), end_line: endLine(node) };
}

/** Header of a function: from `function` to the line where its body opens. */
export function headerLoc(fn: FunctionNode): { line: number; end_line: number } {
  const start = line(fn);
  const bodyLine = fn.body ? line(fn.body) : endLine(fn);
  return { line: start, end_line: Math.max(start, bodyLine) };
}

/** Conditions evaluated in a body: require/assert arguments, if/while/for/ternary conditions. */
export function conditions(body: MaybeNode): Node[] {
  const out: Node[] = [];
  if (!isNode(body)) return out;
  walk(body, (n) => {
    if (isRequireLike(n) && n.arguments?.[0]) out.push(n.arguments[0]);
    else if (
      (n.type === 'IfStatement' || n.type === 'WhileStatement' || n.type === 'DoWhileStatement' || n.type === 'Conditional') &&
      n.condition
    )
      out.push(n.condition);
    else if (n.type === 'ForStatement' && n.conditionExpression) out.push(n.conditionExpression);
  });
  return out;
}

/** Whether `expr` reads a parameter of `fn`, msg.value or msg.data (caller-chosen input). */
export function callerControlled(expr: Node, fn: FunctionFacts | null): boolean {
  if (!fn) return false;
  return some(
    expr,
    (n) =>
      (n.type === 'Identifier' && fn.params.includes(n.name)) ||
      (n.type === 'MemberAccess' &&
        n.expression?.type === 'Identifier' &&
        n.expression.name === 'msg' &&
        (n.memberName === 'value' || n.memberName === 'data')),
  );
}

/** The caller itself: `msg.sender`, a context helper returning it (`_msgSender()`), or a local
 *  of `fn` initialised from one of them and never reassigned (`address owner = _msgSender();`). */
export function isCallerValue(e: MaybeNode, fn: FunctionFacts | null): boolean {
  const u = unwrap(e);
  if (isMsgSender(u)) return true;
  if (u?.type !== 'Identifier' || !fn?.node.body || !fn.senderLocals.has(u.name)) return false;
  let init = false;
  let reassigned = false;
  walk(fn.node.body, (n) => {
    if (
      n.type === 'VariableDeclarationStatement' &&
      n.initialValue &&
      declaredVariables(n).length === 1 &&
      declaredVariables(n)[0]?.name === u.name
    )
      init = isMsgSender(n.initialValue);
    else if (n.type === 'BinaryOperation' && n.operator === '=') {
      const l = unwrap(n.left);
      if (l?.type === 'Identifier' && l.name === u.name) reassigned = true;
    }
  });
  return init && !reassigned;
}

/** Whitespace-free source text, for comparing operands across statements. */
export function norm(source: string, n: Node): string {
  return text(source, n)
    .replace(/\s+/g, '')
    .replace(/^\((.*)\)$/, '$1');
}

/** Whether `n` lies inside the range of `outer`. */
export function within(n: Node, outer: Node): boolean {
  return !!n?.range && !!outer?.range && n.range[0] >= outer.range[0] && n.range[1] <= outer.range[1];
}

/** Names a state variable is called by in a function: itself plus storage pointers to it. */
export function namesFor(variable: string, fn: FunctionFacts | null): Set<string> {
  const s = new Set([variable]);
  if (fn) for (const [alias, v] of fn.aliases) if (v === variable) s.add(alias);
  return s;
}

/** A function is a reentrancy lock if a modifier checks and writes the same flag before `_`. */
export function hasReentrancyLock(fn: FunctionFacts): boolean {
  return fn.modifiers.some((m) => {
    const d = m.def;
    if (!d || !d.writes.length) return false;
    const conds = conditions(d.node.body);
    return d.writes.some((w) => conds.some((c) => some(c, (x) => x.type === 'Identifier' && x.name === w.variable)));
  });
}

/** `fn` (visible in `c`) writing the name `v` writes state that `c`'s access checks read: the
 *  name resolves, from the contract declaring `fn`, to a declaration some check compares (a
 *  redeclared `owner` in a derived contract before 0.6 is another slot). */
export function isAuthWrite(c: ContractFacts, fn: FunctionFacts, v: string): boolean {
  return (c.authVarsBy.get(fn.contract) ?? c.authVars).has(v);
}

/** A run-once `initializer`/`reinitializer` modifier (OpenZeppelin Initializable or in-file). */
export const RUN_ONCE_INITIALIZER = /^(initializer|reinitializer)$/;

/** Public entry points of `c` behind a run-once initializer modifier and no caller check. */
export function openInitializers(c: ContractFacts): FunctionFacts[] {
  return c.functions.filter((f) => f.isPublic && f.modifiers.some((m) => RUN_ONCE_INITIALIZER.test(m.name)) && !f.senderGuard);
}

/**
 * A constructor in the linearization locks the run-once initializers of `c` for the deployed
 * contract itself (the implementation behind proxies): it calls the imported
 * `_disableInitializers()`, runs an initializer, carries the `initializer` modifier, or sets the
 * run-once state an in-file `initializer` modifier reads. Nobody can then run them there, and a
 * proxy runs them in its own deployment.
 */
export function initializersLocked(c: ContractFacts): boolean {
  const inits = openInitializers(c);
  const flags = new Set(
    inits.flatMap((i) => i.modifiers.flatMap((m) => (RUN_ONCE_INITIALIZER.test(m.name) && m.def ? [...m.def.reads] : []))),
  );
  return c.functions.some(
    (f) =>
      f.kind === 'constructor' &&
      (f.modifiers.some((m) => RUN_ONCE_INITIALIZER.test(m.name)) ||
        [...f.transitiveWrites].some((v) => flags.has(v)) ||
        f.unresolvedCalls.some((u) => u.name === '_disableInitializers') ||
        f.internalCalls.some((ic) => ic.callees.some((g) => inits.includes(g)))),
  );
}

const soundCache = new WeakMap<ContractFacts, boolean>();
/**
 * The contract's owner check means something: it has access-control state and no entry point
 * other than the constructor writes that state without a sender check (a mis-named constructor or
 * an open `setOwner` would let anyone take the role).
 */
export function ownerSound(c: ContractFacts): boolean {
  let ok = soundCache.get(c);
  if (ok === undefined) {
    // Sound when the checks read state only trusted code writes, or compare the caller with an
    // address literal (and no check is hidden in code the file does not define).
    ok =
      (c.authVars.size > 0 || (c.constantAuth && !c.functions.some((f) => f.opaqueGuard))) &&
      !c.functions.some(
        (f) => f.isPublic && f.kind !== 'constructor' && !f.senderGuard && [...f.transitiveWrites].some((v) => isAuthWrite(c, f, v)),
      );
    soundCache.set(c, ok);
  }
  return ok;
}

/**
 * State variable `v` holds a trusted address: it is constant, or only the constructor and
 * functions behind a sound owner check write it (an owner-configured registry, oracle or
 * library contract).
 */
export function ownerSetOnly(c: ContractFacts, v: string): boolean {
  const d = c.stateVars.get(v);
  if (!d) return false;
  if (d.constant) return true;
  const writers = c.functions.filter((f) => f.transitiveWrites.has(v));
  return (
    writers.every((f) => f.kind === 'constructor' || f.senderGuard) && (writers.every((f) => f.kind === 'constructor') || ownerSound(c))
  );
}

/**
 * Inter-procedural flow of one value by argument passing: the function and local name it starts
 * as, then every in-file internal callee (transitively, up to `depth`) whose parameter receives it
 * unchanged (`_check(deadline)` → `_check`'s `validBefore`). Also says whether the value reaches a
 * call into code the file does not define (an imported base's `_useNonce(owner)`, or a virtual
 * hook without a body that a derived contract implements): what happens
 * to it there is unknown, so rules do not claim it is never checked or consumed.
 */
export function argumentFlow(
  fn: FunctionFacts,
  name: string,
  depth = 4,
): { sites: Array<{ fn: FunctionFacts; name: string }>; unresolved: boolean } {
  const sites: Array<{ fn: FunctionFacts; name: string }> = [];
  let unresolved = false;
  const seen = new Set<string>();
  const visit = (f: FunctionFacts, n: string, d: number) => {
    const key = `${f.key}@${f.node.range?.[0]}:${n}`;
    if (seen.has(key)) return;
    seen.add(key);
    sites.push({ fn: f, name: n });
    // A hook without a body (abstract / interface): a derived contract elsewhere implements it.
    if (!f.node.body) unresolved = true;
    if (
      f.unresolvedCalls.some((c) =>
        (c.node.arguments ?? []).some((a) => {
          const u = unwrapArg(a);
          return u?.type === 'Identifier' && u.name === n;
        }),
      )
    )
      unresolved = true;
    if (d >= depth) return;
    for (const ic of f.internalCalls) {
      const args: Node[] = ic.node.arguments ?? [];
      args.forEach((a, i) => {
        const u = unwrapArg(a);
        if (u?.type !== 'Identifier' || u.name !== n) return;
        for (const g of ic.callees) {
          const pname = g.node.parameters?.[i]?.name;
          if (pname) visit(g, pname, d + 1);
          else if (g.transitiveUnresolved) unresolved = true;
        }
      });
    }
  };
  visit(fn, name, 0);
  return { sites, unresolved };
}

function unwrapArg(a: MaybeNode): MaybeNode {
  let n = a;
  while (n?.type === 'TupleExpression' && n.components?.length === 1) n = asNode(n.components[0]);
  return n;
}

/** Every function reachable from `fn` through in-file internal calls and modifiers, `fn` first. */
export function reachableFunctions(fn: FunctionFacts, depth = 6): FunctionFacts[] {
  const out: FunctionFacts[] = [];
  const seen = new Set<FunctionFacts>();
  const visit = (f: FunctionFacts, d: number) => {
    if (seen.has(f)) return;
    seen.add(f);
    out.push(f);
    if (d >= depth) return;
    for (const ic of f.internalCalls) for (const g of ic.callees) visit(g, d + 1);
    for (const m of f.modifiers) if (m.def) visit(m.def, d + 1);
  };
  visit(fn, 0);
  return out;
}

/** `delete x`, `x = 0`, `x = false`: a write that resets state rather than setting a value
 *  someone chose (no role holder, no flag). Shared by the access-control rules. */
export function isClear(w: Node): boolean {
  if (w?.type === 'UnaryOperation' && w.operator === 'delete') return true;
  if (w?.type !== 'BinaryOperation' || w.operator !== '=') return false;
  const r = unwrap(w.right);
  return (r?.type === 'NumberLiteral' && Number(r.number) === 0) || (r?.type === 'BooleanLiteral' && r.value === false);
}
