// Shared data-flow for the randomness and timestamp rules: which variables carry a block value
// (assigned from one, directly or through other such variables), and which expressions consume
// values the way a random draw does (modulo, hashing, blockhash, narrowing casts).
import { blockValue, declaredVariables, isHashCall, isTypeConversion, some, unwrap, walk, type BlockValue, type Node } from './ast.ts';
import type { StaticFacts } from './facts.ts';

export interface EntropyFacts {
  /** Variable name (local `fnKey:name` or state `C.name`) → block values it carries. */
  tainted: Map<string, Set<BlockValue>>;
  carries(expr: Node, scope: { contract: string | null; fn: string | null }): Set<BlockValue>;
  isSink(n: Node): boolean;
}

const cache = new WeakMap<object, EntropyFacts>();

function keyOf(name: string, contract: string | null, fn: string | null, locals: Set<string> | null) {
  return locals?.has(name) ? `${contract}.${fn}:${name}` : `${contract}.${name}`;
}

export function entropyFacts(facts: StaticFacts): EntropyFacts {
  const hit = cache.get(facts);
  if (hit) return hit;
  const tainted = new Map<string, Set<BlockValue>>();
  const localsOf = (fnName: string | null, contract: string | null) =>
    facts.contracts.find((c) => c.name === contract)?.ownFunctions.find((f) => f.name === fnName)?.locals ?? null;
  const carriesIn = (expr: Node, contract: string | null, fn: string | null, locals: Set<string> | null): Set<BlockValue> => {
    const out = new Set<BlockValue>();
    walk(expr, (n) => {
      // `arr.push(x)` evaluates to the array's new length (an index), not to the pushed value.
      if (n.type === 'FunctionCall' && n.expression?.type === 'MemberAccess' && n.expression.memberName === 'push') return false;
      const b = blockValue(n);
      if (b) out.add(b);
      if (n.type === 'Identifier') {
        const t = tainted.get(keyOf(n.name, contract, fn, locals)) ?? tainted.get(`${contract}.${n.name}`);
        if (t) for (const x of t) out.add(x);
      }
    });
    return out;
  };
  // Fixed point over assignments (few rounds suffice for real code).
  for (let round = 0; round < 4; round++) {
    let changed = false;
    walk(facts.ast, (n) => {
      let target: string | null = null;
      let value: Node | null = null;
      const declared = n.type === 'VariableDeclarationStatement' ? declaredVariables(n)[0]?.name : null;
      if (n.type === 'VariableDeclarationStatement' && n.initialValue && declared) {
        target = declared;
        value = n.initialValue;
      } else if (n.type === 'StateVariableDeclaration' && n.initialValue && n.variables?.[0]?.name) {
        target = n.variables[0].name;
        value = n.initialValue;
      } else if (n.type === 'BinaryOperation' && /^(=|\+=|-=|\*=|\^=)$/.test(n.operator) && n.left?.type === 'Identifier') {
        target = n.left.name;
        value = n.right;
      }
      if (!target || !value) return;
      const enc = facts.enclosing(n);
      const c = enc.contract?.name ?? null;
      const f = enc.fn?.name ?? null;
      const locals = enc.fn?.locals ?? null;
      const t = carriesIn(value, c, f, locals);
      if (!t.size) return;
      const k = n.type === 'StateVariableDeclaration' ? `${c}.${target}` : keyOf(target, c, f, locals);
      const cur = tainted.get(k) ?? new Set();
      for (const x of t)
        if (!cur.has(x)) {
          cur.add(x);
          changed = true;
        }
      tainted.set(k, cur);
    });
    if (!changed) break;
  }
  const isSink = (n: Node): boolean => {
    if (n?.type === 'BinaryOperation' && n.operator === '%') return true;
    if (isHashCall(n)) return true;
    if (
      n?.type === 'FunctionCall' &&
      isTypeConversion(n.expression) &&
      // A conversion's callee is an ElementaryTypeName (`uint8`) or `payable`.
      /^u?int(8|16|24|32)$|^bool$/.test(
        n.expression.type === 'ElementaryTypeName' || n.expression.type === 'Identifier' ? n.expression.name : '',
      )
    )
      return true;
    return false;
  };
  const ef: EntropyFacts = {
    tainted,
    carries: (expr, scope) => carriesIn(expr, scope.contract, scope.fn, localsOf(scope.fn, scope.contract)),
    isSink,
  };
  cache.set(facts, ef);
  void some;
  return ef;
}

const TWO_32 = 2n ** 32n;
/** Value of a constant like `2**32`, `4294967296`, `0x100000000` (null when not a literal). */
function constValue(n: Node): bigint | null {
  const u = unwrap(n);
  if (u?.type === 'NumberLiteral' && !u.subdenomination) {
    try {
      return BigInt(String(u.number).replace(/_/g, ''));
    } catch {
      return null;
    }
  }
  if (u?.type === 'BinaryOperation' && u.operator === '**') {
    const a = constValue(u.left);
    const b = constValue(u.right);
    return a !== null && b !== null && b < 512n ? a ** b : null;
  }
  return null;
}
const CAST_BITS = /^u?int(\d+)$/;
/** Only block.timestamp / block.number (no hash, no other block value) inside `n`. */
const onlyClock = (n: Node) => {
  let clock = false;
  let other = false;
  walk(n, (x) => {
    const b = blockValue(x);
    if (b === 'timestamp' || b === 'number') clock = true;
    else if (b || isHashCall(x)) other = true;
  });
  return clock && !other;
};

/**
 * Truncation that keeps a timestamp or block number intact (`block.timestamp % 2**32`,
 * `uint32(block.timestamp)`, `uint48(...)`): both stay far below 2**32 for another eighty years,
 * so nothing is discarded and nothing is drawn; this is storage packing (oracles, checkpoints).
 */
export function identityTruncation(n: Node): boolean {
  if (n?.type === 'BinaryOperation' && n.operator === '%') {
    const m = constValue(n.right);
    return m !== null && m >= TWO_32 && onlyClock(n.left);
  }
  if (n?.type === 'FunctionCall' && (n.arguments ?? []).length === 1) {
    const callee = n.expression;
    const bits = CAST_BITS.exec(callee?.type === 'ElementaryTypeName' || callee?.type === 'Identifier' ? callee.name : '');
    return !!bits && Number(bits[1]) >= 32 && onlyClock(n.arguments[0]);
  }
  return false;
}
