// arbitrary-storage-write: before 0.6 a dynamic array's `length` could be assigned; shrinking
// an empty array underflows its length to 2^256-1, after which `arr[i] = v` with a caller-chosen
// index reaches every storage slot, including the owner (SWC-124).
// Flags, in functions anyone can call: writes to `arr.length` (decrement or caller-chosen
// value), and indexed writes into an array whose length callers can set that way.
// Avoids false positives: `push`/`pop` (bounds-checked), arrays whose length only guarded code
// touches, mappings, a new length the caller picks within a small constant bound.
import {
  detectorPlugin,
  callerControlled,
  boundedParam,
  conditions,
  norm,
  rootName,
  statementLoc,
  walk,
  type Node,
  type StaticDetector,
  line,
  type AST,
} from '../../lib/analysis/static/index.ts';

export const arbitraryStorageWriteDetector: StaticDetector = {
  meta: {
    id: 'arbitrary-storage-write',
    title: 'Write to arbitrary storage location',
    severity: 'HIGH',
    confidence: 0.65,
    category: 'access_control',
    swc: 'SWC-124',
    cwe: 'CWE-123',
    description:
      'Callers can manipulate a dynamic array’s length and then write through it at an index they choose, overwriting any storage slot.',
    recommendation: 'Use push()/pop() instead of assigning length, compile with Solidity >= 0.6, and bound indices by the real data size.',
    exploit_scenario:
      'The attacker pops an empty array (length underflows), computes the index that maps to the owner slot and writes their address there.',
    messages: {
      length: '`{{arr}}.length` changed by a caller-reachable function ({{how}}).',
      write: 'Write into `{{arr}}` at a caller-chosen index while callers control its length.',
    },
  },
  create(context) {
    const { facts, source } = context;
    // Arrays whose length an unguarded entry point manipulates.
    const open = new Map<string, Array<AST.UnaryOperation | AST.BinaryOperation>>();
    const lengthTarget = (n: Node): string | null =>
      n?.type === 'MemberAccess' && n.memberName === 'length' ? rootName(n.expression) : null;
    for (const c of facts.contracts)
      for (const fn of c.ownFunctions) {
        if (!fn.isPublic || fn.senderGuard || !fn.node.body) continue;
        walk(fn.node.body, (n) => {
          let arr: string | null = null;
          if (n.type === 'UnaryOperation' && n.operator === '--') arr = lengthTarget(n.subExpression);
          if (n.type === 'BinaryOperation' && /^(=|-=|\+=)$/.test(n.operator)) {
            const a = lengthTarget(n.left);
            // A caller-chosen length bounded by a small constant first (`require(_n <= MAX)`)
            // cannot reach the far storage slots.
            const r = n.right?.type === 'Identifier' ? n.right.name : null;
            const bounded = r !== null && fn.params.includes(r) && boundedParam(fn, c, r, n);
            if (a && (n.operator === '-=' || (callerControlled(n.right, fn) && !bounded))) arr = a;
          }
          // A real emptiness check (`arr.length > 0`) prevents the underflow.
          if (
            arr &&
            (n.type === 'UnaryOperation' || (n.type === 'BinaryOperation' && n.operator === '-=')) &&
            conditions(fn.node.body).some((x) => /\.length(>0|!=0|>=1)|(0<|0!=|1<=)[\w.[\]]*\.length/.test(norm(source, x)))
          )
            arr = null;
          // (`arr` is only set on a unary or binary operation.)
          if (arr && (n.type === 'UnaryOperation' || n.type === 'BinaryOperation') && c.stateVars.has(arr) && !fn.locals.has(arr)) {
            const l = open.get(`${c.name}.${arr}`) ?? [];
            l.push(n);
            open.set(`${c.name}.${arr}`, l);
          }
        });
      }
    return {
      'SourceUnit:exit'() {
        for (const [key, nodes] of open) {
          const arr = key.slice(key.indexOf('.') + 1);
          for (const n of nodes) {
            const loc = statementLoc(n, facts);
            // A tautological check right before (`require(0 <= arr.length)`) belongs to the bug.
            const fn = facts.enclosing(n).fn;
            const taut = fn
              ? conditions(fn.node.body).find(
                  (c) =>
                    /^(0<=|.*>=0$)/.test(norm(source, c)) &&
                    norm(source, c).includes(`${arr}.length`) &&
                    line(c) < loc.line &&
                    loc.line - line(c) <= 2,
                )
              : null;
            context.report({
              node: n,
              loc: taut ? { line: line(taut), end_line: loc.end_line } : loc,
              messageId: 'length',
              data: { arr, how: n.type === 'UnaryOperation' ? n.operator : n.operator === '-=' ? 'decrement' : 'caller-chosen value' },
            });
          }
        }
        for (const c of facts.contracts)
          for (const fn of c.ownFunctions) {
            if (!fn.isPublic || !fn.node.body) continue;
            walk(fn.node.body, (n) => {
              if (n.type !== 'BinaryOperation' || n.operator !== '=' || n.left?.type !== 'IndexAccess') return;
              const arr = rootName(n.left.base);
              if (!arr || !open.has(`${c.name}.${arr}`) || !callerControlled(n.left.index, fn)) return;
              context.report({ node: n, loc: statementLoc(n, facts), messageId: 'write', data: { arr } });
            });
          }
      },
    };
  },
};

export const detectors = [arbitraryStorageWriteDetector];
export default detectorPlugin(detectors);
