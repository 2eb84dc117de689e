// enum-conversion: before Solidity 0.4.5 converting an integer to an enum (`State(x)`) did not
// check the range, so a caller-chosen out-of-range value produced an enum that matches no
// declared member: state machines skip their checks and `if` chains fall through. From 0.4.5 the
// conversion reverts (0.8: a Panic).
// Avoids false positives: code whose pragma only admits 0.4.5 and later, literal arguments the
// compiler checks, conversions of values that are already of the enum type.
import semver from 'semver';
import type { Visitor } from '../../kernel/index.ts';
import { detectorPlugin, statementLoc, unwrap, type StaticDetector, startOf, endOf } from '../../lib/analysis/static/index.ts';

export const enumConversionDetector: StaticDetector = {
  meta: {
    id: 'enum-conversion',
    title: 'Unchecked integer-to-enum conversion',
    severity: 'MEDIUM',
    confidence: 0.7,
    category: 'other',
    swc: null,
    cwe: 'CWE-704',
    description:
      'Compilers before 0.4.5 convert integers to enums without a range check; an out-of-range value becomes an enum no code handles.',
    recommendation:
      'Check the value against the number of members before converting (require(x <= uint(State.Last))), or compile with 0.4.5 or later.',
    exploit_scenario:
      'setState(7) stores State(7) on an enum of three members; every `state == State.X` check fails and the contract is stuck, or the fall-through branch pays out.',
    messages: { conv: '`{{expr}}` converts a caller value to enum `{{enum}}` without a range check (pragma admits < 0.4.5).' },
  },
  create(context) {
    const { facts, source } = context;
    const min = facts.version.min;
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- needed: without it create()'s inferred return type no longer fits Visitor (tsc)
    if (!min || semver.gte(min, '0.4.5')) return {} as Visitor;
    return {
      FunctionCall(n) {
        const e = n.expression;
        if (e?.type !== 'Identifier' || !facts.enums.has(e.name) || (n.arguments ?? []).length !== 1) return;
        const a = unwrap(n.arguments[0]);
        if (a?.type === 'NumberLiteral') return;
        const { fn, contract } = facts.enclosing(n);
        if (a?.type === 'Identifier' && facts.typeOf(a.name, fn, contract) === e.name) return;
        context.report({
          node: n,
          loc: statementLoc(n, facts),
          messageId: 'conv',
          data: { expr: source.slice(startOf(n), endOf(n) + 1), enum: e.name },
        });
      },
    };
  },
};

export const detectors = [enumConversionDetector];
export default detectorPlugin(detectors);
