// bad-randomness: block.number, block.timestamp, block.difficulty, block.coinbase and
// blockhash are known to (or chosen by) miners and readable by any contract in the same block,
// so a "random" draw built from them can be predicted or steered (SWC-120).
// Reports each block value that reaches a random-draw operation (modulo, hashing, narrowing
// cast, blockhash), directly or through variables, and each draw fed by such a variable.
// Avoids false positives: block values only compared or stored (deadlines, bookkeeping) and
// hashing that never sees a block value (commit-reveal schemes).
import { definePlugin } from '../../kernel/index.ts';
import { blockValue, entropyFacts, statementLoc, walk, type Node, type StaticDetector } from '../../lib/analysis/static/index.ts';

export const badRandomnessDetector: StaticDetector = {
  meta: {
    id: 'bad-randomness',
    title: 'Weak randomness from block values',
    severity: 'HIGH',
    confidence: 0.7,
    category: 'bad_randomness',
    swc: 'SWC-120',
    cwe: 'CWE-330',
    description: 'Block attributes are public and partly miner-controlled; randomness derived from them is predictable.',
    recommendation: 'Use a commit-reveal scheme or a verifiable randomness oracle (e.g. Chainlink VRF); never derive winners from block data.',
    exploit_scenario: 'An attacker contract computes the same keccak256(blockhash, timestamp) in the same block and only plays when it wins.',
    messages: {
      source: '`{{value}}` feeds a random draw.',
      blockhash: 'blockhash() used as entropy (only the last 256 blocks are available and all are public).',
      sink: 'Random draw computed from `{{vars}}`, which carries block data.',
    },
  },
  create(context) {
    const { facts, source } = context;
    const ef = entropyFacts(facts);
    // Names used inside any draw, per contract: a block value stored in one of them is entropy.
    const drawNames = new Map<string, Set<string>>();
    walk(facts.ast, (n) => {
      if (!ef.isSink(n)) return;
      const c = facts.enclosing(n).contract?.name ?? '';
      const set = drawNames.get(c) ?? new Set<string>();
      walk(n, (x) => {
        if (x.type === 'Identifier') set.add(x.name);
      });
      drawNames.set(c, set);
    });
    const inSink = (n: Node): boolean => {
      let p = facts.parent(n);
      while (p && !/Statement$|^Block$|^StateVariableDeclaration$/.test(p.type)) {
        if (ef.isSink(p) || blockValue(p) === 'blockhash') return true;
        p = facts.parent(p);
      }
      return false;
    };
    const assignedTo = (n: Node): string | null => {
      let p = facts.parent(n);
      while (p && !/Statement$|^Block$/.test(p.type)) {
        if (p.type === 'StateVariableDeclaration' || p.type === 'VariableDeclarationStatement') return p.variables?.[0]?.name ?? null;
        if (p.type === 'BinaryOperation' && p.operator === '=' && p.left?.type === 'Identifier') return p.left.name;
        p = facts.parent(p);
      }
      if (p?.type === 'VariableDeclarationStatement') return p.variables?.[0]?.name ?? null;
      if (p?.type === 'StateVariableDeclaration') return p.variables?.[0]?.name ?? null;
      return null;
    };
    const check = (n: Node) => {
      const b = blockValue(n);
      if (!b || b === 'gaslimit') return;
      if (b === 'blockhash') {
        context.report({ node: n, loc: statementLoc(n, facts), messageId: 'blockhash' });
        return;
      }
      const c = facts.enclosing(n).contract?.name ?? '';
      const v = assignedTo(n);
      if (inSink(n) || (v && drawNames.get(c)?.has(v))) {
        context.report({ node: n, loc: statementLoc(n, facts), messageId: 'source', data: { value: source.slice(n.range[0], n.range[1] + 1) } });
      }
    };
    const sink = (n: Node) => {
      if (!ef.isSink(n)) return;
      const enc = facts.enclosing(n);
      const vars = new Set<string>();
      let direct = false;
      walk(n, (x) => {
        if (blockValue(x)) direct = true;
        if (x.type === 'Identifier' && ef.carries(x, { contract: enc.contract?.name ?? null, fn: enc.fn?.name ?? null }).size) vars.add(x.name);
      });
      if (!direct && vars.size) context.report({ node: n, loc: statementLoc(n, facts), messageId: 'sink', data: { vars: [...vars].join('`, `') } });
    };
    return {
      Identifier: check,
      MemberAccess: check,
      FunctionCall(n) {
        check(n);
        sink(n);
      },
      BinaryOperation: sink,
    };
  },
};

export default definePlugin({
  setup(ctx) {
    ctx.registerDetector(badRandomnessDetector);
  },
});
