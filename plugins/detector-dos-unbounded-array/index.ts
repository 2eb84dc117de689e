// dos-unbounded-array: a state array that anyone can grow makes every loop over it, every
// reset of it and every loop that keeps growing it more expensive, until the transaction no
// longer fits in a block and the function is dead (SWC-128).
// Reports: loops bounded by such an array's length, loops that grow a state array from a
// public function, and wholesale resets (`arr = new T[](0)`, `delete arr`) of such an array.
// Avoids false positives: arrays only the owner can grow, fixed-size arrays, memory arrays,
// resets in the constructor (the array is still empty then), loops whose counter starts at the
// array's length and only moves forward (they visit only what this call added).
import {
  detectorPlugin,
  line,
  rootName,
  some,
  statementLoc,
  walk,
  type Node,
  type StaticDetector,
  endLine,
  type LoopNode,
  type StaticVisitor,
  type MaybeNode,
  unwrap,
  identName,
  firstDeclaredName,
} from '../../lib/analysis/static/index.ts';

export const dosUnboundedArrayDetector: StaticDetector = {
  meta: {
    id: 'dos-unbounded-array',
    title: 'Denial of service through an unbounded array',
    severity: 'MEDIUM',
    confidence: 0.55,
    category: 'denial_of_service',
    swc: 'SWC-128',
    cwe: 'CWE-400',
    description: 'Work proportional to an array that any user can grow eventually exceeds the block gas limit.',
    recommendation: 'Bound the array, process it in batches the caller pays for, or let users pull their own entries instead of iterating.',
    exploit_scenario:
      'An attacker pushes thousands of cheap entries; the payout loop over the array no longer fits in a block and funds stay locked.',
    messages: {
      iterate: 'Loop over `{{arr}}`, which anyone can grow.',
      grow: 'Loop grows state array `{{arr}}` in a function anyone can call.',
      reset: 'Resetting `{{arr}}` costs gas proportional to its length, which anyone can grow.',
    },
  },
  create(context) {
    const { facts } = context;
    const grownBy = new Map<string, Set<string>>();
    const isGrowth = (n: Node): string | null => {
      if (n.type === 'FunctionCall' && n.expression?.type === 'MemberAccess' && n.expression.memberName === 'push')
        return rootName(n.expression.expression);
      if (
        n.type === 'UnaryOperation' &&
        n.operator === '++' &&
        n.subExpression?.type === 'MemberAccess' &&
        n.subExpression.memberName === 'length'
      )
        return rootName(n.subExpression.expression);
      if (
        n.type === 'BinaryOperation' &&
        (n.operator === '+=' || n.operator === '=') &&
        n.left?.type === 'MemberAccess' &&
        n.left.memberName === 'length'
      )
        return rootName(n.left.expression);
      return null;
    };
    for (const c of facts.contracts) {
      const s = new Set<string>();
      for (const f of c.functions) {
        if (!f.isPublic || f.senderGuard || !f.node.body) continue;
        walk(f.node.body, (n) => {
          const a = isGrowth(n);
          if (a && c.stateVars.has(a) && !f.locals.has(a)) s.add(a);
        });
        for (const ic of f.internalCalls)
          for (const g of ic.callees)
            if (g.node.body)
              walk(g.node.body, (n) => {
                const a = isGrowth(n);
                if (a && c.stateVars.has(a) && !g.locals.has(a)) s.add(a);
              });
      }
      grownBy.set(c.name, s);
    }
    const stateArray = (name: string | null, n: Node): string | null => {
      const { contract, fn } = facts.enclosing(n);
      if (!name || !contract || (fn && fn.locals.has(name))) return null;
      const v = contract.stateVars.get(name);
      return v && /\[\]$/.test(v.type) ? name : null;
    };
    // `uint i = arr.length; arr.length += k; for (; i < arr.length; i++)`: a counter that starts
    // at the array's length and only moves forward visits just the elements added since, by this
    // call: its work is what the caller chose to add, not what everyone else pushed.
    const isLength = (x: MaybeNode, a: string) => {
      const u = unwrap(x);
      return u?.type === 'MemberAccess' && u.memberName === 'length' && rootName(u.expression) === a;
    };
    const onlyNewElements = (n: LoopNode, len: Node, a: string): boolean => {
      if (n.type !== 'ForStatement') return false;
      const c = n.conditionExpression;
      if (c?.type !== 'BinaryOperation' || !['<', '!='].includes(c.operator) || c.right !== len) return false;
      const ctr = identName(unwrap(c.left));
      const fn = facts.enclosing(n).fn;
      if (!ctr || !fn?.locals.has(ctr) || !fn.node.body) return false;
      let startsAtLength = false;
      let movedBack = false;
      walk(fn.node.body, (x) => {
        if (x.type === 'VariableDeclarationStatement' && firstDeclaredName(x) === ctr && x.initialValue) {
          if (isLength(x.initialValue, a)) startsAtLength = true;
          else movedBack = true;
        }
        if (x.type === 'BinaryOperation' && x.operator === '=' && identName(unwrap(x.left)) === ctr) {
          if (isLength(x.right, a)) startsAtLength = true;
          else movedBack = true;
        }
        if (x.type === 'BinaryOperation' && x.operator === '-=' && identName(unwrap(x.left)) === ctr) movedBack = true;
        if (x.type === 'UnaryOperation' && x.operator === '--' && identName(unwrap(x.subExpression)) === ctr) movedBack = true;
      });
      return startsAtLength && !movedBack;
    };
    const loop = (n: LoopNode) => {
      const { contract, fn } = facts.enclosing(n);
      if (!contract || !fn || fn.kind === 'constructor') return;
      const cond = n.type === 'ForStatement' ? n.conditionExpression : n.condition;
      let iterated: string | null = null;
      if (cond)
        walk(cond, (x) => {
          if (!iterated && x.type === 'MemberAccess' && x.memberName === 'length') {
            const a = stateArray(rootName(x.expression), n);
            if (a && grownBy.get(contract.name)?.has(a) && !onlyNewElements(n, x, a)) iterated = a;
          }
        });
      let grown: string | null = null;
      if (fn.isPublic && !fn.senderGuard)
        walk(n.body, (x) => {
          const a = isGrowth(x);
          if (!grown && a && stateArray(a, n)) grown = a;
        });
      if (grown) context.report({ node: n, loc: { line: line(n), end_line: endLine(n) }, messageId: 'grow', data: { arr: grown } });
      else if (iterated)
        context.report({ node: n, loc: { line: line(n), end_line: line(n.body ?? n) }, messageId: 'iterate', data: { arr: iterated } });
    };
    const visitor: StaticVisitor = {
      BinaryOperation(n) {
        if (n.operator !== '=' || n.right?.type !== 'FunctionCall' || n.right.expression?.type !== 'NewExpression') return;
        reset(n, rootName(n.left));
      },
      UnaryOperation(n) {
        if (n.operator === 'delete') reset(n, n.subExpression?.type === 'Identifier' ? n.subExpression.name : null);
      },
    };
    const reset = (n: Node, name: string | null) => {
      const { contract, fn } = facts.enclosing(n);
      // Before the constructor returns nobody else has pushed anything: the reset costs nothing.
      if (fn?.kind === 'constructor') return;
      const a = stateArray(name, n);
      if (!a || !contract || !grownBy.get(contract.name)?.has(a)) return;
      // `if (arr.length > N) { arr = new T[](0); ... }`: the guarded reset block is the statement.
      let p = facts.parent(n);
      while (p && p.type !== 'IfStatement' && p.type !== 'FunctionDefinition') p = facts.parent(p);
      const loc =
        p?.type === 'IfStatement' &&
        some(p.condition, (x) => x.type === 'MemberAccess' && x.memberName === 'length' && rootName(x.expression) === a) &&
        endLine(p) - line(p) <= 6
          ? { line: line(p), end_line: endLine(p) }
          : statementLoc(n, facts);
      context.report({ node: n, loc, messageId: 'reset', data: { arr: a } });
    };
    visitor.ForStatement = loop;
    visitor.WhileStatement = loop;
    visitor.DoWhileStatement = loop;
    return visitor;
  },
};

export const detectors = [dosUnboundedArrayDetector];
export default detectorPlugin(detectors);
