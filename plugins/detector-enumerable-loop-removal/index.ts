// enumerable-loop-removal: an enumerable set or map (OpenZeppelin's EnumerableSet/EnumerableMap,
// or any collection read by `at(i)` and shrunk by `remove(x)`) removes by swap-and-pop: the last
// element moves into the removed one's index. A loop that walks the collection forward by index
// (`for (i = 0; i < s.length(); i++) { x = s.at(i); … s.remove(x); }`) then never visits the
// element moved into slot i, so some entries are skipped (left approved, unpaid, not revoked) and
// with a cached length the loop reads past the end and reverts.
// Recognised structurally: in one loop, `X.at(i)` with `i` the loop counter moved forward on every
// iteration, and `X.remove(…)` on the same collection (also `L.at(X, i)` / `L.remove(X, …)`).
// Avoids false positives: loops counting down (the moved element was already visited), counters
// that only advance when nothing was removed (or step back after a removal), `X.at(0)` drains,
// and removals in a second loop after collecting the elements.
import {
  asNodes,
  detectorPlugin,
  norm,
  perFunction,
  some,
  unwrap,
  walk,
  type AST,
  type MaybeNode,
  type Node,
  type StaticDetector,
} from '../../lib/analysis/static/index.ts';

/** The collection a call `X.m(…)` / `L.m(X, …)` works on, as normalised source; null otherwise. */
function collectionOf(call: AST.FunctionCall, member: string, source: string, isVariable: (name: string) => boolean): string | null {
  const e = call.expression;
  if (e?.type !== 'MemberAccess' || e.memberName !== member) return null;
  const recv = unwrap(e.expression);
  // `EnumerableSet.at(set, i)`: a library called by name takes the collection first.
  if (recv?.type === 'Identifier' && !isVariable(recv.name) && call.arguments?.[0]) return norm(source, call.arguments[0]);
  return norm(source, recv);
}

const isName = (e: MaybeNode, name: string) => {
  const u = unwrap(e);
  return u?.type === 'Identifier' && u.name === name;
};
/** `i++`, `++i`, `i += k`, `i = i + k`. */
const advances = (n: Node, v: string) =>
  (n.type === 'UnaryOperation' && n.operator === '++' && isName(n.subExpression, v)) ||
  (n.type === 'BinaryOperation' &&
    isName(n.left, v) &&
    (n.operator === '+=' ||
      (n.operator === '=' && unwrap(n.right)?.type === 'BinaryOperation' && (unwrap(n.right) as AST.BinaryOperation).operator === '+')));
/** `i--`, `--i`, `i -= k`, `i = i - k`. */
const retreats = (n: Node, v: string) =>
  (n.type === 'UnaryOperation' && n.operator === '--' && isName(n.subExpression, v)) ||
  (n.type === 'BinaryOperation' &&
    isName(n.left, v) &&
    (n.operator === '-=' ||
      (n.operator === '=' && unwrap(n.right)?.type === 'BinaryOperation' && (unwrap(n.right) as AST.BinaryOperation).operator === '-')));

export const enumerableLoopRemovalDetector: StaticDetector = {
  meta: {
    id: 'enumerable-loop-removal',
    title: 'Enumerable collection shrunk while walked forward by index',
    severity: 'HIGH',
    confidence: 0.7,
    category: 'other',
    swc: null,
    cwe: 'CWE-1284',
    description:
      'The loop reads the collection by index with `at(i)` and removes from it in the same loop; removal moves the last element into the freed index, which the loop has already passed, so that element is skipped.',
    recommendation:
      'Walk the collection backwards (`for (i = s.length(); i > 0; i--) s.at(i - 1)`), or collect the elements first and remove them in a second loop.',
    exploit_scenario:
      'Revoking every operator of an account loops `for (i = 0; i < ops.length(); i++) ops.remove(ops.at(i))`; half of the operators survive the revocation and keep spending.',
    messages: {
      skip: '`{{coll}}` is read with `at({{i}})` and shrunk with `remove` in the same forward loop: the element swapped into index {{i}} is never visited.',
    },
  },
  create: perFunction((fn, c, context) => {
    const { facts, source } = context;
    const isVariable = (name: string) => fn.locals.has(name) || c.stateVars.has(name);
    for (const loop of fn.loops) {
      const body = loop.body;
      if (!body) continue;
      // Counters moved forward on every iteration: a for's update, or a top-level statement of the body.
      const forward = new Set<string>();
      const update = loop.type === 'ForStatement' ? loop.loopExpression?.expression : null;
      const tops: Node[] = body.type === 'Block' ? asNodes(body.statements) : [body];
      const candidates: Node[] = [];
      if (update) candidates.push(unwrap(update));
      for (const s of tops) if (s.type === 'ExpressionStatement' && s.expression) candidates.push(unwrap(s.expression));
      for (const n of candidates)
        walk(n, (m) => {
          if (m.type === 'Identifier') forward.add(m.name);
        });
      for (const v of [...forward]) {
        const steps = candidates.some((n) => advances(n, v));
        // A counter that also steps back (or advances only on some paths) handles the swap.
        const back = some(body, (n) => retreats(n, v)) || (update && some(update, (n) => retreats(n, v)));
        if (!steps || back) forward.delete(v);
      }
      if (!forward.size) continue;
      const reads = new Map<string, string>();
      const removes: Array<{ node: AST.FunctionCall; coll: string }> = [];
      walk(loop, (n) => {
        if (n.type !== 'FunctionCall') return;
        const at = collectionOf(n, 'at', source, isVariable);
        if (at) {
          const args = n.arguments ?? [];
          const idx = args[args.length - 1];
          const u = unwrap(idx);
          if (u?.type === 'Identifier' && forward.has(u.name)) reads.set(at, u.name);
        }
        const rm = collectionOf(n, 'remove', source, isVariable);
        if (rm) removes.push({ node: n, coll: rm });
      });
      for (const r of removes) {
        const i = reads.get(r.coll);
        if (!i || facts.unreachable(r.node)) continue;
        context.report({ node: r.node, messageId: 'skip', data: { coll: r.coll, i } });
      }
    }
  }),
};

export const detectors = [enumerableLoopRemovalDetector];
export default detectorPlugin(detectors);
