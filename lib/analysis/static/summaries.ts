// Inter-procedural summaries (a pass of computeFacts, after internal calls are resolved): what a
// function — with every internal callee and modifier it reaches — reads, writes, checks and
// consumes, and what its return value carries. Parameters are followed through argument passing,
// so a rule sees that `permit` consumes the owner's nonce through `_useNonce(owner)`, or checks
// its deadline through `_checkValidity(deadline)`, without knowing the helpers' names.
import { isNode, rootName, walk, type AST, type MaybeNode, type Node, type Recognised } from './ast.ts';
import type { FunctionFacts } from './facts.ts';
import { conditions } from './rule-helpers.ts';

export interface FunctionSummary {
  /** State variables read / written, here or in a callee or modifier (transitively). */
  reads: Set<string>;
  writes: Set<string>;
  /** State variables tested in a condition (require/assert/if/loop/ternary), here or in a callee. */
  checks: Set<string>;
  /** This function's parameters tested in a condition, here or by a callee they are passed to. */
  checkedParams: Set<string>;
  /** State variables stepped or marked, here or in a callee: `n[k]++`, `n += 1`, `used[h] = true`
   *  (nonces and used-once marks: what makes a signed message single-use). */
  consumes: Set<string>;
  /** This function's parameters that key an entry consumed here or by a callee (`_useNonce(owner)`
   *  consumes `_nonces[owner]`: `owner`). */
  consumedByParam: Set<string>;
  /** State variables whose value reaches the return value. */
  returns: Set<string>;
}

export const emptySummary = (): FunctionSummary => ({
  reads: new Set(),
  writes: new Set(),
  checks: new Set(),
  checkedParams: new Set(),
  consumes: new Set(),
  consumedByParam: new Set(),
  returns: new Set(),
});

const isStep = (n: MaybeNode): n is Recognised<AST.UnaryOperation | AST.BinaryOperation> =>
  (n?.type === 'UnaryOperation' && (n.operator === '++' || n.operator === '--')) ||
  (n?.type === 'BinaryOperation' && (n.operator === '+=' || n.operator === '-=') && n.right?.type === 'NumberLiteral');
const isMark = (n: MaybeNode): n is Recognised<AST.BinaryOperation> =>
  n?.type === 'BinaryOperation' && n.operator === '=' && n.right?.type === 'BooleanLiteral' && n.right.value === true;

/** Identifiers among the index keys of `lhs` (`a[k1][k2].m` → k1, k2). */
function keyNames(lhs: Node): string[] {
  const out: string[] = [];
  let x = lhs;
  while (x && (x.type === 'IndexAccess' || x.type === 'MemberAccess')) {
    if (x.type === 'IndexAccess' && x.index?.type === 'Identifier') out.push(x.index.name);
    x = x.type === 'IndexAccess' ? x.base : x.expression;
  }
  return out;
}

/** What `fn`'s own body (and its modifiers' invocations) says, before callees are merged. */
function local(fn: FunctionFacts): FunctionSummary {
  const s = emptySummary();
  const params = new Set(fn.params);
  const isState = (name: string) => fn.reads.has(name) || fn.writes.some((w) => w.variable === name);
  for (const v of fn.reads) s.reads.add(v);
  for (const w of fn.writes) s.writes.add(w.variable);
  const body = fn.node.body;
  for (const c of conditions(body))
    walk(c, (x) => {
      if (x.type !== 'Identifier') return;
      if (params.has(x.name)) s.checkedParams.add(x.name);
      else if (!fn.locals.has(x.name) && isState(x.name)) s.checks.add(x.name);
    });
  for (const w of fn.writes) {
    const n = w.node;
    if (!isStep(n) && !isMark(n)) continue;
    s.consumes.add(w.variable);
    const lhs = n.type === 'UnaryOperation' ? n.subExpression : n.left;
    for (const k of keyNames(lhs)) if (params.has(k)) s.consumedByParam.add(k);
  }
  if (isNode(body)) {
    const returns = fn.node.type === 'FunctionDefinition' ? (fn.node.returnParameters ?? []) : [];
    const named = new Set<string>(returns.map((p) => p?.name).filter((n): n is string => !!n));
    walk(body, (x) => {
      const carried =
        x.type === 'ReturnStatement'
          ? x.expression
          : x.type === 'BinaryOperation' && x.operator === '=' && named.has(rootName(x.left) ?? '')
            ? x.right
            : null;
      if (carried)
        walk(carried, (y) => {
          if (y.type === 'Identifier' && !fn.locals.has(y.name) && !params.has(y.name) && fn.reads.has(y.name)) s.returns.add(y.name);
        });
    });
  }
  return s;
}

const mergeInto = (into: Set<string>, from: Set<string>) => {
  let grew = false;
  for (const x of from)
    if (!into.has(x)) {
      into.add(x);
      grew = true;
    }
  return grew;
};

/** Callees of `fn` with the arguments each call site hands them (modifiers included). */
function calls(fn: FunctionFacts): Array<{ callee: FunctionFacts; args: Node[] }> {
  const out: Array<{ callee: FunctionFacts; args: Node[] }> = [];
  for (const ic of fn.internalCalls) for (const g of ic.callees) out.push({ callee: g, args: ic.node?.arguments ?? [] });
  for (const m of fn.modifiers) if (m.def) out.push({ callee: m.def, args: m.node?.arguments ?? [] });
  return out;
}

/** Summaries of every function, merged over internal calls to a fixpoint (recursion included). */
export function computeSummaries(all: FunctionFacts[]): Map<FunctionFacts, FunctionSummary> {
  const sums = new Map<FunctionFacts, FunctionSummary>();
  for (const f of all) sums.set(f, local(f));
  const sum = (f: FunctionFacts) => {
    let s = sums.get(f);
    if (!s) sums.set(f, (s = local(f)));
    return s;
  };
  // Call sites and returned callees are fixed: collect them once, then merge to a fixpoint.
  const edges = new Map<FunctionFacts, { calls: Array<{ callee: FunctionFacts; args: Node[] }>; returned: FunctionFacts[] }>();
  for (const f of all) {
    const cs = calls(f);
    const returned = new Set<FunctionFacts>();
    if (isNode(f.node.body))
      walk(f.node.body, (x) => {
        if (x.type === 'ReturnStatement' && x.expression)
          for (const { callee } of cs) if (returnsCallOf(x.expression, callee)) returned.add(callee);
      });
    edges.set(f, { calls: cs, returned: [...returned] });
  }
  // Each round can only add names; the sets are bounded by the file's names, so this ends.
  for (let changed = true, round = 0; changed && round < 50; round++) {
    changed = false;
    for (const f of all) {
      const s = sum(f);
      const params = new Set(f.params);
      const e = edges.get(f)!;
      for (const { callee, args } of e.calls) {
        const g = sum(callee);
        changed = mergeInto(s.reads, g.reads) || changed;
        changed = mergeInto(s.writes, g.writes) || changed;
        changed = mergeInto(s.checks, g.checks) || changed;
        changed = mergeInto(s.consumes, g.consumes) || changed;
        const gParams: string[] = callee.params;
        args.forEach((a, i) => {
          const p = gParams[i];
          if (!p || a?.type !== 'Identifier' || !params.has(a.name)) return;
          if (g.checkedParams.has(p) && !s.checkedParams.has(a.name)) {
            s.checkedParams.add(a.name);
            changed = true;
          }
          if (g.consumedByParam.has(p) && !s.consumedByParam.has(a.name)) {
            s.consumedByParam.add(a.name);
            changed = true;
          }
        });
      }
      // A callee's return value that this function returns carries the callee's state.
      for (const g of e.returned) changed = mergeInto(s.returns, sum(g).returns) || changed;
    }
  }
  return sums;
}

function returnsCallOf(expr: Node, callee: FunctionFacts): boolean {
  let hit = false;
  walk(expr, (y) => {
    if (
      y.type === 'FunctionCall' &&
      ((y.expression?.type === 'Identifier' && y.expression.name === callee.name) ||
        (y.expression?.type === 'MemberAccess' && y.expression.memberName === callee.name))
    )
      hit = true;
  });
  return hit;
}
