// bad-randomness: block.number, block.timestamp, block.difficulty, block.coinbase and
// blockhash are known to (or chosen by) miners and readable by any contract in the same block,
// so a "random" draw built from them can be predicted or steered (SWC-120).
// Reports each block value that reaches a random-draw operation (modulo, hashing, narrowing
// cast, blockhash), directly or through variables, and each draw fed by such a variable.
// Avoids false positives: block values only compared or stored (deadlines, bookkeeping),
// hashing that never sees a block value (commit-reveal schemes), a hash of block values that only
// names a record (a mapping key, an event argument: Parity's operation ids), draws whose value is never used
// (kept only in locals nothing reads), and the commit-to-a-future-block scheme: blockhash of a
// block number recorded from block.number when the player committed, read after that block and
// within the 256-block window (outside it blockhash returns 0, which is the known attack).
// One finding per draw: a second draw over a local that already holds a draw of block data
// (`hash = keccak256(blockhash(..)); .. secret % 5`) is the same randomness, reported at the first.
import {
  detectorPlugin,
  blockValue,
  constantValue,
  conditions,
  entropyFacts,
  identityTruncation,
  isHashCall,
  memberPath,
  rootName,
  some,
  statementLoc,
  unwrap,
  walk,
  within,
  type ContractFacts,
  type FunctionFacts,
  type Node,
  type StaticDetector,
  type StaticFacts,
  startOf,
  endOf,
  firstDeclaredName,
  declaredVariables,
  identName,
  type AST,
} from '../../lib/analysis/static/index.ts';

const isBlockNumber = (n: Node) => blockValue(unwrap(n)) === 'number';
const isLiteral = (n: Node) => unwrap(n)?.type === 'NumberLiteral';

/** `x` or `x + k` (k a literal): the recorded block number `x` of a blockhash argument. */
function recordedBase(arg: Node): Node {
  const a = unwrap(arg);
  if (a?.type === 'BinaryOperation' && a.operator === '+') {
    if (isLiteral(a.right)) return unwrap(a.left);
    if (isLiteral(a.left)) return unwrap(a.right);
  }
  return a;
}

/** The state variable a path starts from, through a storage pointer (`Bet storage bet = bets[id]`). */
function stateRoot(n: Node, fn: FunctionFacts): string | null {
  const r = rootName(n);
  return r ? (fn.aliases.get(r) ?? r) : null;
}

/** A local set once from its declaration (`uint b = bet.blockNumber;`): its initial value. */
function copiedFrom(n: Node, fn: FunctionFacts): Node | null {
  const name = identName(unwrap(n));
  return name ? singleValue(name, fn) : null;
}

/** The value a local is set to, when its declaration is its only write. */
function singleValue(name: string, fn: FunctionFacts): Node | null {
  if (!fn.locals.has(name) || fn.aliases.has(name) || !fn.node.body) return null;
  let init: Node | null = null;
  let writes = 0;
  walk(fn.node.body, (x) => {
    if (x.type === 'VariableDeclarationStatement' && x.initialValue && declaredVariables(x).some((v) => v?.name === name)) {
      if (x.variables?.length === 1) init = x.initialValue;
      writes++;
    }
    if (x.type === 'BinaryOperation' && /=$/.test(x.operator) && !/^(==|!=|<=|>=)$/.test(x.operator) && identName(unwrap(x.left)) === name)
      writes++;
    if (x.type === 'UnaryOperation' && (x.operator === '++' || x.operator === '--') && identName(unwrap(x.subExpression)) === name)
      writes++;
  });
  return writes === 1 ? init : null;
}

/** Whether every write of the storage slot family `base` (same root, same struct members) in the
 *  contract stores block.number (+ k) or clears it, and at least one records block.number. */
function recordsCommitBlock(base: Node, c: ContractFacts, fn: FunctionFacts): boolean {
  const root = stateRoot(base, fn);
  if (!root || fn.locals.has(root) || !c.stateVars.has(root)) return false;
  const members = memberPath(base).join('.');
  let f: FunctionFacts = fn;
  const same = (lv: Node) => stateRoot(lv, f) === root && memberPath(lv).join('.') === members;
  let records = false;
  let other = false;
  for (f of c.functions) {
    if (!f.node.body || f.locals.has(root)) continue;
    walk(f.node.body, (x) => {
      if (x.type === 'BinaryOperation' && /=$/.test(x.operator) && !/^(==|!=|<=|>=)$/.test(x.operator) && same(x.left)) {
        const r = unwrap(x.right);
        if (x.operator !== '=') other = true;
        else if (
          isBlockNumber(r) ||
          (r?.type === 'BinaryOperation' &&
            r.operator === '+' &&
            ((isBlockNumber(r.left) && isLiteral(r.right)) || (isBlockNumber(r.right) && isLiteral(r.left))))
        )
          records = true;
        else if (!(r?.type === 'NumberLiteral' && Number(r.number) === 0)) other = true;
      }
      if (x.type === 'UnaryOperation' && (x.operator === '++' || x.operator === '--') && same(x.subExpression)) other = true;
    });
  }
  return records && !other;
}

/** blockhash(recorded + k) read only after that block and inside the 256-block window. */
function committedFutureBlock(n: AST.FunctionCall, facts: StaticFacts): boolean {
  const arg = n.arguments?.[0];
  const { contract, fn } = facts.enclosing(n);
  if (!arg || !contract || !fn?.node.body) return false;
  // The argument, or the local it was copied into (`uint b = bet.blockNumber; blockhash(b)`).
  const direct = recordedBase(arg);
  const copy = copiedFrom(direct, fn);
  const base = copy ? recordedBase(copy) : direct;
  if (!recordsCommitBlock(base, contract, fn)) return false;
  const root = stateRoot(base, fn)!;
  const local = copy ? identName(unwrap(direct)) : null;
  const conds = conditions(fn.node.body);
  const mentionsBase = (c: Node) =>
    some(
      c,
      (x) =>
        (x.type === 'Identifier' && x.name === local) ||
        (stateRoot(x, fn) === root && (x.type === 'Identifier' || x.type === 'MemberAccess' || x.type === 'IndexAccess')),
    );
  // The window: 256 blocks, or fewer (a named constant such as BET_EXPIRATION_BLOCKS = 250).
  const has256 = (c: Node) =>
    some(c, (x) => {
      if (x.type !== 'NumberLiteral' && x.type !== 'Identifier') return false;
      const v = constantValue(x, contract);
      return v !== null && v > 0n && v <= 256n;
    });
  const after = conds.some((c) =>
    some(
      c,
      (x) =>
        x.type === 'BinaryOperation' &&
        /^[<>]=?$/.test(x.operator) &&
        (some(x.left, isBlockNumber) || some(x.right, isBlockNumber)) &&
        mentionsBase(x),
    ),
  );
  const window = conds.some((c) => has256(c) && some(c, isBlockNumber) && mentionsBase(c));
  return after && window;
}

/**
 * Whether name `x` in `fn` is only ever used as an identifier: a mapping/array key, an event
 * argument, returned from a function no code calls internally, or passed to an internal function
 * that only uses it that way. Such a hash names a record (Parity's `sha3(msg.data, block.number)`
 * operation id); nothing is drawn from it.
 */
function identifierOnly(x: string, fn: FunctionFacts, facts: StaticFacts, events: Set<string>, depth = 0): boolean {
  if (!fn.node.body || depth > 3) return false;
  let ok = true;
  walk(fn.node.body, (n) => {
    if (!ok) return false;
    if (n.type !== 'Identifier' || n.name !== x) return;
    const p = facts.parent(n);
    if (p?.type === 'BinaryOperation' && p.operator === '=' && p.left === n) return; // the write itself
    if (p?.type === 'IndexAccess' && p.index === n) return;
    if (p?.type === 'ReturnStatement' && !fn.calledInternally) return;
    if (p?.type === 'FunctionCall' && p.expression?.type === 'Identifier') {
      const i = (p.arguments ?? []).indexOf(n);
      if (events.has(p.expression.name) || facts.parent(p)?.type === 'EmitStatement') return;
      const callees = fn.internalCalls.find((ic) => ic.node === p)?.callees ?? [];
      if (i >= 0 && callees.length && callees.every((g) => !!g.params[i] && identifierOnly(g.params[i], g, facts, events, depth + 1)))
        return;
    }
    ok = false;
  });
  return ok;
}

/** The hash call enclosing a block value within its statement, and the name it is stored in. */
function storedHash(n: Node, facts: StaticFacts): { hash: Node; name: string | null; key: boolean } | null {
  let hash: Node | null = null;
  let p = facts.parent(n);
  while (p && !/Statement$|^Block$/.test(p.type)) {
    if (!hash && isHashCall(p)) hash = p;
    p = facts.parent(p);
  }
  if (!hash) return null;
  const up = facts.parent(hash);
  if (up?.type === 'IndexAccess' && up.index === hash) return { hash, name: null, key: true };
  if (up?.type === 'BinaryOperation' && up.operator === '=' && up.right === hash && up.left?.type === 'Identifier')
    return { hash, name: up.left.name, key: false };
  if (up?.type === 'VariableDeclarationStatement' && up.initialValue === hash && up.variables?.length === 1)
    return { hash, name: firstDeclaredName(up), key: false };
  return null;
}

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
    recommendation:
      'Use a commit-reveal scheme or a verifiable randomness oracle (e.g. Chainlink VRF); never derive winners from block data.',
    exploit_scenario:
      'An attacker contract computes the same keccak256(blockhash, timestamp) in the same block and only plays when it wins.',
    messages: {
      source: '`{{value}}` feeds a random draw.',
      blockhash: 'blockhash() used as entropy (only the last 256 blocks are available and all are public).',
      sink: 'Random draw computed from `{{vars}}`, which carries block data.',
    },
  },
  create(context) {
    const { facts, source } = context;
    const ef = entropyFacts(facts);
    const events = new Set<string>();
    walk(facts.ast, (n) => (n.type === 'EventDefinition' ? (events.add(n.name), undefined) : undefined));
    /** A hash whose value only names something: a mapping key, an event argument, an argument
     *  of a call into another contract (`timelock.queuedTransactions(keccak256(...))`), or a
     *  local used only that way. Nothing is drawn from it. */
    const hashIsIdentifier = (h: Node): boolean => {
      const up = facts.parent(h);
      if (up?.type === 'IndexAccess' && up.index === h) return true;
      if (up?.type === 'FunctionCall' && (up.arguments ?? []).some((a) => a === h)) {
        if (facts.externalCallByNode.get(up)?.kind === 'external') return true;
        if (up.expression?.type === 'Identifier' && events.has(up.expression.name)) return true;
      }
      const enc = facts.enclosing(h);
      let name: string | null = null;
      if (up?.type === 'VariableDeclarationStatement' && up.initialValue === h && up.variables?.length === 1) name = firstDeclaredName(up);
      else if (up?.type === 'BinaryOperation' && up.operator === '=' && up.right === h && up.left?.type === 'Identifier')
        name = up.left.name;
      return !!name && !!enc.fn && !enc.contract?.stateVars.has(name) && identifierOnly(name, enc.fn, facts, events);
    };
    /** An operation that draws from a value: modulo, a narrowing cast or a hash whose value is used. */
    const isDraw = (n: Node): boolean => ef.isSink(n) && !identityTruncation(n) && !(isHashCall(n) && hashIsIdentifier(n));
    // Names used inside any draw, per contract: a block value stored in one of them is entropy.
    const drawNames = new Map<string, Set<string>>();
    walk(facts.ast, (n) => {
      if (!isDraw(n)) return;
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
        if (isDraw(p) || blockValue(p) === 'blockhash') return true;
        p = facts.parent(p);
      }
      return false;
    };
    /** The innermost draw around `n` carries no block value but the timestamp (`sha3(now) % 2`). */
    const timestampOnlyDraw = (n: Node): boolean => {
      let p = facts.parent(n);
      while (p && !/Statement$|^Block$|^StateVariableDeclaration$/.test(p.type)) {
        if (blockValue(p) === 'blockhash') return false;
        if (isDraw(p)) {
          const enc = facts.enclosing(p);
          const carried = ef.carries(p, { contract: enc.contract?.name ?? null, fn: enc.fn?.name ?? null });
          return [...carried].every((b) => b === 'timestamp' || b === 'gaslimit');
        }
        p = facts.parent(p);
      }
      return false;
    };
    const assignedTo = (n: Node): string | null => {
      let p = facts.parent(n);
      while (p && !/Statement$|^Block$/.test(p.type)) {
        if (p.type === 'StateVariableDeclaration' || p.type === 'VariableDeclarationStatement') return firstDeclaredName(p);
        if (p.type === 'BinaryOperation' && p.operator === '=' && p.left?.type === 'Identifier') return p.left.name;
        p = facts.parent(p);
      }
      if (p?.type === 'VariableDeclarationStatement' || p?.type === 'StateVariableDeclaration') return firstDeclaredName(p);
      return null;
    };
    // A value kept only in locals that nothing reads (or only other such locals) decides nothing.
    const deadValue = (n: Node, depth = 0): boolean => {
      let st = facts.parent(n);
      while (st && !/Statement$|^Block$/.test(st.type)) st = facts.parent(st);
      if (st?.type !== 'VariableDeclarationStatement') return false;
      const fn = facts.enclosing(n).fn;
      const names = declaredVariables(st)
        .filter((v): v is AST.VariableDeclaration => !!v)
        .map((v) => v.name);
      if (!fn?.node.body || !names.length || names.length !== (st.variables ?? []).length) return false;
      let live = false;
      walk(fn.node.body, (x) => {
        if (live) return false;
        if (x.type === 'Identifier' && names.includes(x.name) && !within(x, st) && (depth >= 4 || !deadValue(x, depth + 1))) live = true;
      });
      return !live;
    };
    // A hash of block data used only as a record's name is an identifier, not a draw.
    const namesARecord = (n: Node): boolean => {
      const h = storedHash(n, facts);
      if (!h) return false;
      if (h.key) return true;
      const enc = facts.enclosing(n);
      return !!h.name && !!enc.fn && !enc.contract?.stateVars.has(h.name) && identifierOnly(h.name, enc.fn, facts, events);
    };
    /** `return blockhash(blockNumber)` of a caller-chosen block, as is (an accessor, like a
     *  view over chain data): the draw, if any, happens where the caller uses the result. */
    const accessorOnly = (n: AST.FunctionCall): boolean => {
      const { fn } = facts.enclosing(n);
      const arg = n.arguments?.[0];
      const argName = identName(unwrap(arg));
      if (!fn || !arg || !(argName !== null && fn.params.includes(argName))) return false;
      let p = facts.parent(n);
      while (p && (p.type === 'Conditional' || p.type === 'TupleExpression')) p = facts.parent(p);
      return p?.type === 'ReturnStatement';
    };
    const check = (n: Node) => {
      const b = blockValue(n);
      if (!b || b === 'gaslimit') return;
      if (deadValue(n)) return;
      if (b !== 'blockhash' && namesARecord(n)) return;
      if (b === 'blockhash') {
        // (Only a call reads blockhash.)
        if (n.type === 'FunctionCall' && (committedFutureBlock(n, facts) || accessorOnly(n))) return;
        context.report({ node: n, loc: statementLoc(n, facts), messageId: 'blockhash' });
        return;
      }
      // A draw from the timestamp alone is reported once, by timestamp-dependence ("timestamp
      // used as entropy", same severity): one weakness at one place.
      if (b === 'timestamp' && timestampOnlyDraw(n)) return;
      const c = facts.enclosing(n).contract?.name ?? '';
      const v = assignedTo(n);
      if (inSink(n) || (v && drawNames.get(c)?.has(v))) {
        context.report({
          node: n,
          loc: statementLoc(n, facts),
          messageId: 'source',
          data: { value: source.slice(startOf(n), endOf(n) + 1) },
        });
      }
    };
    /** A local whose every assignment draws only from committed future blocks' hashes (the
     *  scheme `check` accepts): a value derived from it is as sound as the hash. */
    const committedOnly = (name: string, fn: FunctionFacts): boolean => {
      if (!fn.locals.has(name) || fn.aliases.has(name) || !fn.node.body) return false;
      const values: Node[] = [];
      walk(fn.node.body, (x) => {
        if (x.type === 'VariableDeclarationStatement' && declaredVariables(x).some((v) => v?.name === name))
          values.push(x.variables?.length === 1 && x.initialValue ? x.initialValue : x);
        if (
          x.type === 'BinaryOperation' &&
          /=$/.test(x.operator) &&
          !/^(==|!=|<=|>=)$/.test(x.operator) &&
          identName(unwrap(x.left)) === name
        )
          values.push(x.operator === '=' ? x.right : x);
      });
      let blocks = 0;
      let ok = values.length > 0;
      for (const v of values)
        walk(v, (x) => {
          if (!ok) return false;
          const b = blockValue(x);
          if (b) {
            blocks++;
            if (!(b === 'blockhash' && x.type === 'FunctionCall' && committedFutureBlock(x, facts))) ok = false;
            return false;
          }
          if (x.type === 'Identifier' && x.name !== name && ef.carries(x, { contract: fn.contract, fn: fn.name }).size) ok = false;
        });
      return ok && blocks > 0;
    };
    /** A local whose value was already drawn from block data where it was set: it is assigned
     *  once, from an expression holding a draw over a block value itself (`hash =
     *  keccak256(blockhash(..))`) or from another such local (`secret = uint256(hash)`). That
     *  draw is reported where the block value is read; a second draw over its result (`secret %
     *  5`) is the same randomness, not a new weakness. */
    const drawnAt = (name: string, fn: FunctionFacts, depth = 0): boolean => {
      if (depth > 4) return false;
      const init = singleValue(name, fn);
      if (!init) return false;
      let drawn = false;
      let other = false;
      walk(init, (x) => {
        if (isDraw(x) && some(x, (y) => !!blockValue(y) && blockValue(y) !== 'gaslimit')) drawn = true;
        else if (x.type === 'Identifier' && x.name !== name && ef.carries(x, { contract: fn.contract, fn: fn.name }).size) {
          if (drawnAt(x.name, fn, depth + 1)) drawn = true;
          else other = true;
        }
      });
      return drawn && !other;
    };
    const sink = (n: Node) => {
      if (!isDraw(n) || deadValue(n)) return;
      if (isHashCall(n) && n.arguments?.[0] && namesARecord(n.arguments[0])) return;
      const enc = facts.enclosing(n);
      const vars = new Set<string>();
      let direct = false;
      walk(n, (x) => {
        if (blockValue(x)) direct = true;
        if (
          x.type === 'Identifier' &&
          ef.carries(x, { contract: enc.contract?.name ?? null, fn: enc.fn?.name ?? null }).size &&
          !(enc.fn && committedOnly(x.name, enc.fn))
        )
          vars.add(x.name);
      });
      if (!direct && vars.size && !(enc.fn && [...vars].every((v) => drawnAt(v, enc.fn!))))
        context.report({ node: n, loc: statementLoc(n, facts), messageId: 'sink', data: { vars: [...vars].join('`, `') } });
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

export const detectors = [badRandomnessDetector];
export default detectorPlugin(detectors);
