// unsafe-casting: an explicit conversion to a narrower integer type (`uint128(amount)`,
// `int64(delta)`) keeps the low bits and drops the rest, in every compiler version (0.8's checked
// arithmetic does not cover conversions). When the converted value is a parameter of a function
// anyone can call and nothing bounds it first, the caller picks a value whose truncation differs
// from what the rest of the function uses: 2^128 + 1 is checked or paid as itself and recorded
// as 1 (or the reverse), so accounting built on the two disagrees.
// Avoids false positives: values the function compares before the conversion (any bound on that
// parameter: `require(x <= type(uint128).max)`, `if (x > MAX) revert`), conversions inside the
// check itself (`require(uint128(x) == x)`), conversions to the same or a wider type, literals and
// constants, constructors and caller-checked functions (the deployer and the owner are trusted
// with their own inputs), internal/private helpers (SafeCast-style helpers bound their input, callers are
// judged where the value enters), parameters reassigned before the conversion, and parameters
// the function uses only truncated (the caller merely chooses the low bits it sends).
import {
  detectorPlugin,
  isRequireLike,
  perFunction,
  unwrap,
  walk,
  conditions,
  elementaryName,
  within,
  type AST,
  type Node,
  type StaticDetector,
} from '../../lib/analysis/static/index.ts';

/** Bits and signedness of an integer type name (`uint` → 256); null for other types. */
function intType(t: string | null): { signed: boolean; bits: number } | null {
  const m = t ? /^(u?)int(\d*)$/.exec(t) : null;
  return m ? { signed: m[1] !== 'u', bits: m[2] ? Number(m[2]) : 256 } : null;
}

export const unsafeCastingDetector: StaticDetector = {
  meta: {
    id: 'unsafe-casting',
    title: 'Caller value narrowed without a bound',
    severity: 'MEDIUM',
    confidence: 0.6,
    category: 'arithmetic',
    swc: 'SWC-101',
    cwe: 'CWE-197',
    description:
      'A parameter of an entry point is converted to a smaller integer type with no check that it fits; the conversion silently drops the high bits, so the stored or sent value differs from the one the function checked or was paid.',
    recommendation:
      'Check the bound first (`require(x <= type(uint128).max)`) or use a checked conversion (OpenZeppelin SafeCast `toUint128(x)`).',
    exploit_scenario:
      'deposit(uint256 amount) pulls `amount` tokens but records `uint96(amount)`; a user passing 2^96 + 10 is recorded as 10 while a reward computed from `amount` pays on the full value.',
    messages: { cast: '`{{param}}` ({{from}}) is converted to `{{to}}` with no bound: values above its range are truncated.' },
  },
  create: perFunction((fn, _c, context) => {
    const { facts } = context;
    // The deployer (constructor) and a caller-checked owner are trusted with their own inputs.
    if (!fn.isPublic || fn.kind !== 'function' || fn.senderGuard || fn.node.type !== 'FunctionDefinition' || !fn.node.body) return;
    const body = fn.node.body;
    const paramTypes = new Map<string, string | null>();
    for (const p of fn.node.parameters ?? []) if (p.name) paramTypes.set(p.name, elementaryName(p.typeName));
    if (!paramTypes.size) return;
    // Where each parameter is compared or reassigned: a conversion after such a point is not blind.
    const compared = new Map<string, number>();
    const note = (name: string, at: number) => {
      if (!compared.has(name) || compared.get(name)! > at) compared.set(name, at);
    };
    // Where each parameter is read other than as the operand of a narrowing conversion.
    const whole = new Set<string>();
    const casts: AST.FunctionCall[] = [];
    walk(body, (n) => {
      if (n.type === 'FunctionCall' && n.expression?.type === 'ElementaryTypeName' && (n.arguments ?? []).length === 1) {
        const a = unwrap(n.arguments[0]);
        if (a?.type === 'Identifier' && paramTypes.has(a.name)) {
          casts.push(n);
          return false;
        }
      }
      if (n.type === 'Identifier' && paramTypes.has(n.name)) whole.add(n.name);
      if (n.type === 'BinaryOperation' && /^[-+*/%|&^]?=$/.test(n.operator)) {
        const l = unwrap(n.left);
        if (l?.type === 'Identifier' && paramTypes.has(l.name)) note(l.name, n.range?.[0] ?? 0);
      }
    });
    if (!casts.length) return;
    const conds = [...conditions(body), ...fn.modifiers.flatMap((m) => (m.def?.node.body ? conditions(m.def.node.body) : []))];
    for (const cond of conds)
      walk(cond, (n) => {
        if (n.type === 'Identifier' && paramTypes.has(n.name))
          note(n.name, fn.modifiers.some((m) => m.def && within(cond, m.def.node)) ? -1 : (cond.range?.[0] ?? 0));
      });
    const inCheck = (n: Node) => {
      for (let p = facts.parent(n); p && p !== body; p = facts.parent(p)) {
        if (isRequireLike(p)) return true;
        if ((p.type === 'IfStatement' || p.type === 'WhileStatement' || p.type === 'Conditional') && p.condition && within(n, p.condition))
          return true;
      }
      return false;
    };
    for (const n of casts) {
      if (n.expression?.type !== 'ElementaryTypeName') continue;
      const to = intType(n.expression.name);
      const arg = unwrap(n.arguments[0]);
      if (!to || arg?.type !== 'Identifier' || !paramTypes.has(arg.name)) continue;
      const from = intType(paramTypes.get(arg.name) ?? null);
      if (!from || from.signed !== to.signed || from.bits <= to.bits) continue;
      // A value used only truncated is the caller's own choice of low bits (packed numbers, a
      // hash taken modulo 2^24): nothing else in the function sees the full value to disagree.
      if (!whole.has(arg.name)) continue;
      const seen = compared.get(arg.name);
      if (seen !== undefined && seen < (n.range?.[0] ?? 0)) continue;
      if (inCheck(n) || facts.unreachable(n)) continue;
      context.report({
        node: n,
        messageId: 'cast',
        data: { param: arg.name, from: paramTypes.get(arg.name) ?? '', to: n.expression.name },
      });
    }
  }),
};

export const detectors = [unsafeCastingDetector];
export default detectorPlugin(detectors);
