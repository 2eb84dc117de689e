// uninitialized-storage: before Solidity 0.5 a local struct/array variable declared without a
// value and without `memory` is a storage pointer to slot 0; writing through it overwrites the
// contract's first state variables (often the owner or a secret) (SWC-109).
// Reports the declaration and each write through the pointer. Avoids false positives: locals
// declared `memory`, pointers initialised from state, elementary-typed locals, >= 0.5 code
// (where the compiler rejects it).
import {
  detectorPlugin,
  rootName,
  statementLoc,
  walk,
  type StaticDetector,
  endOf,
  declaredVariables,
} from '../../lib/analysis/static/index.ts';
import semver from 'semver';

export const uninitializedStorageDetector: StaticDetector = {
  meta: {
    id: 'uninitialized-storage',
    title: 'Uninitialized storage pointer',
    severity: 'HIGH',
    confidence: 0.8,
    category: 'other',
    swc: 'SWC-109',
    cwe: 'CWE-824',
    description:
      'An uninitialized local struct or array defaults to a storage pointer at slot 0; writes through it corrupt state variables.',
    recommendation: 'Declare the local `memory`, or initialise it from a storage element; compile with Solidity >= 0.5.',
    exploit_scenario:
      'Writing game.player through the uninitialised pointer overwrites the secret number stored in slot 0, letting the attacker set it.',
    messages: {
      decl: '`{{name}}` is an uninitialized storage pointer (slot 0).',
      write: 'Write through uninitialized storage pointer `{{name}}` overwrites slot 0.',
    },
  },
  create(context) {
    const { facts } = context;
    const min = facts.version.min;
    if (min && semver.gte(min, '0.5.0')) return {};
    return {
      VariableDeclarationStatement(n) {
        if (n.initialValue || (n.variables ?? []).length !== 1) return;
        const v = declaredVariables(n)[0];
        if (!v?.name || v.storageLocation === 'memory' || v.storageLocation === 'calldata') return;
        const name = v.name;
        const t = v.typeName;
        const isRef =
          (t?.type === 'UserDefinedTypeName' && facts.structs.has(t.namePath)) || t?.type === 'ArrayTypeName' || t?.type === 'Mapping';
        if (!isRef) return;
        const fn = facts.enclosing(n).fn;
        if (!fn) return;
        context.report({ node: n, loc: statementLoc(v, facts), messageId: 'decl', data: { name } });
        const after = endOf(n);
        let assigned = false;
        walk(fn.node.body, (x) => {
          if (assigned || (x.range?.[0] ?? 0) <= after) return;
          if (x.type === 'BinaryOperation' && x.operator === '=' && x.left?.type === 'Identifier' && x.left.name === name) {
            assigned = true;
            return false;
          }
          if (x.type === 'BinaryOperation' && /=$/.test(x.operator) && x.left?.type !== 'Identifier' && rootName(x.left) === name) {
            context.report({ node: x, loc: statementLoc(x, facts), messageId: 'write', data: { name } });
          }
        });
      },
    };
  },
};

export const detectors = [uninitializedStorageDetector];
export default detectorPlugin(detectors);
