// Code that can never run because an early exit depends only on state that never takes the
// value that would let execution through: `if (initialized == 0) return;` where nothing ever
// writes `initialized`, or `if (stage != 2) return;` where every write stores 0 or 1. A finding in
// such code describes behaviour no transaction can trigger.
// Sound for what it accepts: a state variable counts as constant-valued only when it is a plain
// value type (integers, bool) whose every write in the file stores a literal (or deletes it), the
// file has no inline assembly and the contract no delegatecall/callcode (either could write any
// slot), and, when the file imports others, the variable is private (a derived contract elsewhere
// could write it otherwise). Only function-level statements and a modifier's statements before
// `_` are judged; anything the evaluator does not understand leaves the code reachable.
import {
  alwaysLeaves,
  asNodes,
  isRequireLike,
  rootName,
  tupleComponents,
  unwrap,
  walk,
  type AST,
  type MaybeNode,
  type Node,
} from './ast.ts';
import type { ContractFacts, FunctionFacts } from './facts.ts';

type Value = bigint | boolean;
type Env = Map<string, Value[]>;

const MAX_COMBINATIONS = 64;

// One walk per file for what the whole file decides (assembly, imports), not one per contract.
const fileFlags = new WeakMap<object, { assembly: boolean; imports: boolean }>();
function flagsOf(ast: AST.SourceUnit): { assembly: boolean; imports: boolean } {
  let f = fileFlags.get(ast);
  if (!f) {
    const flags = { assembly: false, imports: false };
    walk(ast, (n) => {
      if (n.type === 'InlineAssemblyStatement') flags.assembly = true;
      if (n.type === 'ImportDirective') flags.imports = true;
    });
    fileFlags.set(ast, (f = flags));
  }
  return f;
}

/** Possible values of each constant-valued state variable of `c` (others are absent). */
export function constantStateValues(ast: AST.SourceUnit, contracts: ContractFacts[], c: ContractFacts): Env {
  const out: Env = new Map();
  const { assembly, imports: hasImports } = flagsOf(ast);
  if (assembly) return out;
  if (c.functions.some((f) => f.externalCalls.some((e) => e.kind === 'delegatecall' || e.kind === 'callcode'))) return out;
  const cand = new Map<string, { decl: Node; isBool: boolean; values: Value[]; ok: boolean }>();
  for (const v of c.stateVars.values()) {
    if (v.constant) continue;
    if (hasImports && v.visibility !== 'private') continue;
    const t = v.typeNode;
    if (t?.type !== 'ElementaryTypeName' || !/^(u?int\d*|bool)$/.test(t.name)) continue;
    const isBool = t.name === 'bool';
    const init = literal(v.node.expression);
    if (v.node.expression && init === null) continue;
    cand.set(v.name, { decl: v.node, isBool, values: [init ?? (isBool ? false : 0n)], ok: true });
  }
  if (!cand.size) return out;
  // One walk per function of the file that sees these declarations (this contract, derived ones).
  for (const other of contracts) {
    const seen = [...cand.entries()].filter(([name, x]) => other.stateVars.get(name)?.node === x.decl);
    if (!seen.length) continue;
    for (const f of other.ownFunctions) if (f.node.body) collectWrites(f, new Map(seen.filter(([name]) => !f.locals.has(name))));
  }
  for (const [name, x] of cand) if (x.ok) out.set(name, [...new Set(x.values)]);
  return out;
}

function collectWrites(f: FunctionFacts, vars: Map<string, { isBool: boolean; values: Value[]; ok: boolean }>): void {
  if (!vars.size) return;
  walk(f.node.body, (n) => {
    if (n.type === 'BinaryOperation' && /^([-+*/%|&^]|<<|>>)?=$/.test(n.operator)) {
      const targets = n.left?.type === 'TupleExpression' ? tupleComponents(n.left) : [n.left];
      for (const t of targets) {
        const x = t ? vars.get(rootName(t) ?? '') : undefined;
        if (!x) continue;
        const v = n.operator === '=' && n.left?.type === 'Identifier' ? literal(n.right) : null;
        if (v === null) x.ok = false;
        else x.values.push(v);
      }
    }
    if (n.type === 'UnaryOperation') {
      const x = vars.get(rootName(n.subExpression) ?? '');
      if (x && n.operator === 'delete') x.values.push(x.isBool ? false : 0n);
      else if (x && (n.operator === '++' || n.operator === '--')) x.ok = false;
    }
  });
}

function literal(e: MaybeNode): Value | null {
  const u = unwrap(e);
  if (u?.type === 'BooleanLiteral') return !!u.value;
  if (u?.type === 'NumberLiteral' && !u.subdenomination && /^(0x[0-9a-fA-F]+|\d+)$/.test(u.number)) return BigInt(u.number);
  return null;
}

/** true / false when `e` has that value for every possible state; null when unknown. */
export function evaluate(e: Node, env: Env, fn: FunctionFacts | null): boolean | null {
  const names = new Set<string>();
  let unknown = false;
  walk(e, (x) => {
    if (x.type === 'Identifier') {
      if (env.has(x.name) && !fn?.locals.has(x.name)) names.add(x.name);
      else unknown = true;
    }
    if (x.type === 'MemberAccess' || x.type === 'IndexAccess' || x.type === 'FunctionCall') unknown = true;
  });
  if (unknown || !names.size) return null;
  const list = [...names];
  let combos: Array<Map<string, Value>> = [new Map<string, Value>()];
  for (const n of list) {
    const next: Array<Map<string, Value>> = [];
    for (const c of combos) for (const v of env.get(n)!) next.push(new Map(c).set(n, v));
    combos = next;
    if (combos.length > MAX_COMBINATIONS) return null;
  }
  let result: boolean | null = null;
  for (const c of combos) {
    const r = evalExpr(e, c);
    if (typeof r !== 'boolean') return null;
    if (result === null) result = r;
    else if (result !== r) return null;
  }
  return result;
}

function evalExpr(e: Node, vals: Map<string, Value>): Value | null {
  const u = unwrap(e);
  if (!u) return null;
  switch (u.type) {
    case 'BooleanLiteral':
    case 'NumberLiteral':
      return literal(u);
    case 'Identifier':
      return vals.has(u.name) ? vals.get(u.name)! : null;
    case 'UnaryOperation': {
      if (u.operator !== '!') return null;
      const v = evalExpr(u.subExpression, vals);
      return typeof v === 'boolean' ? !v : null;
    }
    case 'BinaryOperation': {
      const l = evalExpr(u.left, vals);
      const r = evalExpr(u.right, vals);
      if (l === null || r === null) return null;
      if (u.operator === '&&' || u.operator === '||') {
        if (typeof l !== 'boolean' || typeof r !== 'boolean') return null;
        return u.operator === '&&' ? l && r : l || r;
      }
      if (u.operator === '==') return l === r;
      if (u.operator === '!=') return l !== r;
      if (typeof l !== 'bigint' || typeof r !== 'bigint') return null;
      if (u.operator === '<') return l < r;
      if (u.operator === '<=') return l <= r;
      if (u.operator === '>') return l > r;
      if (u.operator === '>=') return l >= r;
      return null;
    }
    default:
      return null;
  }
}

/** Index of the first statement of `stmts` after which nothing runs, given constant state. */
function stopsAt(stmts: Node[], env: Env, fn: FunctionFacts): number {
  for (let i = 0; i < stmts.length; i++) {
    const s = stmts[i];
    if (s.type === 'IfStatement' && !s.falseBody && alwaysLeaves(s.trueBody) && evaluate(s.condition, env, fn) === true) return i;
    if (
      s.type === 'ExpressionStatement' &&
      isRequireLike(s.expression) &&
      s.expression.arguments?.[0] &&
      evaluate(s.expression.arguments[0], env, fn) === false
    )
      return i;
  }
  return -1;
}

/** Source ranges [start, end] that no transaction can reach, for the functions of `c`. */
export function deadRanges(ast: AST.SourceUnit, contracts: ContractFacts[], c: ContractFacts): Array<[number, number]> {
  const env = constantStateValues(ast, contracts, c);
  if (!env.size) return [];
  const out: Array<[number, number]> = [];
  for (const f of c.ownFunctions) {
    const body = f.node.body;
    if (!body?.statements) continue;
    if (f.kind === 'modifier') continue;
    // A modifier that never lets execution reach `_` makes the whole body dead.
    const blocked = f.modifiers.some((m) => {
      const stmts: Node[] = asNodes(m.def?.node.body?.statements);
      const u = stmts.findIndex(
        (s) => s.type === 'ExpressionStatement' && s.expression?.type === 'Identifier' && s.expression.name === '_',
      );
      const stop = m.def ? stopsAt(u < 0 ? stmts : stmts.slice(0, u), env, m.def) : -1;
      return stop >= 0;
    });
    if (blocked) {
      out.push([body.range![0], body.range![1]]);
      continue;
    }
    const stmts: Node[] = asNodes(body.statements);
    const stop = stopsAt(stmts, env, f);
    if (stop >= 0 && stop + 1 < stmts.length) out.push([stmts[stop + 1].range![0], stmts[stmts.length - 1].range![1]]);
    // `if (alwaysFalse) { ... }`: the branch never runs.
    for (const s of stmts.slice(0, stop >= 0 ? stop : stmts.length)) {
      if (s.type === 'IfStatement' && evaluate(s.condition, env, f) === false && s.trueBody?.range)
        out.push([s.trueBody.range[0], s.trueBody.range[1]]);
    }
  }
  return out;
}
