// timestamp-dependence: miners choose block.timestamp (`now`) within a tolerance of several
// seconds, so logic where it decides who wins, whether a payout happens or which state comes
// next can be nudged (SWC-116). Reports a timestamp used in a condition or comparison, in a
// random draw, returned to callers, or stored in a variable that such a condition later reads.
// Avoids false positives: timestamps only emitted in events or recorded and never compared,
// deadlines being computed (`now + 1 days`), and per-account locks (`now > lockTime[msg.sender]`)
// where a few seconds of drift give an attacker nothing, including the timestamp stored into the
// caller's own record for such a lock; a min/max clamp (`t > now ? t : now`), which computes a
// bound instead of choosing between behaviours.
import { definePlugin } from '../../kernel/index.ts';
import { blockValue, conditions, isMsgSender, entropyFacts, norm, statementLoc, walk, type Node, type StaticDetector } from '../../lib/analysis/static/index.ts';

const COMPARE = /^(<|<=|>|>=|==|!=)$/;

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
    recommendation: 'Do not use timestamps for randomness or fine-grained decisions; tolerate ~15 s of drift, or use block numbers / oracles for time windows.',
    exploit_scenario: 'A miner sets the block timestamp so that `now % 15 == 0` or a short deadline check passes, winning the pot.',
    messages: {
      condition: 'Timestamp decides a condition.',
      draw: 'Timestamp used as entropy.',
      returned: 'Timestamp returned to callers that use it for decisions.',
      stored: 'Timestamp stored in `{{name}}`, which a condition reads later.',
    },
  },
  create(context) {
    const { facts, source } = context;
    const ef = entropyFacts(facts);
    const condNames = new Set<string>();
    for (const c of facts.contracts)
      for (const f of [...c.ownFunctions])
        for (const cond of conditions(f.node.body))
          walk(cond, (x) => {
            if (x.type === 'Identifier') condNames.add(x.name);
            if (x.type === 'MemberAccess') condNames.add(x.memberName);
          });
    const perAccount = (e: Node, at: Node): boolean => {
      const fn = facts.enclosing(at).fn;
      let hit = false;
      walk(e, (x) => {
        if (x.type === 'IndexAccess' && isMsgSender(x.index)) hit = true;
        if (x.type === 'MemberAccess' && x.expression?.type === 'Identifier' && fn?.aliases.has(x.expression.name)) hit = true;
      });
      return hit;
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
          // `t > now ? t : now` (or the reverse): a clamp to a bound, not a decision.
          const q = facts.parent(p);
          if (q?.type === 'Conditional' && q.condition === p) {
            const ops = new Set([norm(source, p.left), norm(source, p.right)]);
            const arms = new Set([norm(source, q.trueExpression), norm(source, q.falseExpression)]);
            if (ops.size === 2 && [...ops].every((o) => arms.has(o))) return null;
          }
          return { id: 'condition' };
        }
        // Creating a deadline (`t = now + 1 days`) decides nothing by itself.
        if (p.type === 'BinaryOperation' && p.operator === '+') return null;
        if (p.type === 'FunctionCall' && p.expression?.type === 'Identifier' && /^(require|assert)$/.test(p.expression.name)) return { id: 'condition' };
        if (ef.isSink(p)) return { id: 'draw' };
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
      if ((p.type === 'VariableDeclarationStatement' || p.type === 'StateVariableDeclaration') && p.variables?.[0]?.name && condNames.has(p.variables[0].name)) return { id: 'stored', name: p.variables[0].name };
      return null;
    };
    const check = (n: Node) => {
      if (blockValue(n) !== 'timestamp') return;
      const k = classify(n);
      if (k) context.report({ node: n, loc: statementLoc(n, facts), messageId: k.id, data: { name: k.name ?? '' } });
    };
    return { Identifier: check, MemberAccess: check };
  },
};

export default definePlugin({
  setup(ctx) {
    ctx.registerDetector(timestampDependenceDetector);
  },
});
