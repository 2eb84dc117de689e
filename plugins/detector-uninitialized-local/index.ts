// uninitialized-local: a local variable declared without a value and never assigned, but read: it
// is always zero, so a payment goes to address(0), a call goes to no contract, a limit is 0 and a
// flag is false. Usually an assignment was lost in a refactor (`address receiver;` then
// `receiver.transfer(fee)`).
// Only value-typed locals (address, integers, bool, fixed bytes) and contract-typed ones.
// Avoids false positives: any write counts (`=`, compound assignment, `++`/`--`, `delete`, a tuple
// assignment, any mention inside inline assembly); names declared twice in the function or
// shadowing a parameter are skipped; structs, arrays, strings and enums (a zero value is a common
// deliberate default there) are left alone; storage pointers are uninitialized-storage's.
import {
  declaredVariables,
  detectorPlugin,
  isAssignmentOperator,
  perFunction,
  statementLoc,
  tupleComponents,
  unwrap,
  walk,
  type AST,
  type MaybeNode,
  type StaticDetector,
} from '../../lib/analysis/static/index.ts';

const VALUE = /^(?:address|bool|u?int\d*|bytes\d+|byte)$/;

const ident = (n: MaybeNode): string | null => {
  const u = n ? unwrap(n) : null;
  return u?.type === 'Identifier' ? u.name : null;
};

export const uninitializedLocalDetector: StaticDetector = {
  meta: {
    id: 'uninitialized-local',
    title: 'Local variable read but never assigned',
    severity: 'MEDIUM',
    confidence: 0.6,
    category: 'other',
    swc: null,
    cwe: 'CWE-457',
    description: 'A local variable is declared without a value and never assigned, so every read sees zero (address(0), 0, false).',
    recommendation: 'Assign the intended value where the variable is declared, or remove the variable and use the value directly.',
    exploit_scenario: '`address feeReceiver; ... feeReceiver.transfer(fee);` sends every fee to address(0), where it is burnt.',
    messages: { never: '`{{name}}` is read in `{{fn}}` but never assigned: it is always {{zero}}.' },
  },
  create: perFunction((fn, c, context) => {
    const body = fn.node.body;
    if (!body) return;
    const { facts } = context;
    const decls = new Map<string, { stmt: AST.VariableDeclarationStatement; type: string }>();
    const declaredTwice = new Set<string>(fn.params);
    const written = new Set<string>();
    const read = new Set<string>();
    const markWrite = (target: MaybeNode) => {
      const u = target ? unwrap(target) : null;
      if (u?.type === 'TupleExpression') for (const x of tupleComponents(u)) markWrite(x);
      const name = ident(u);
      if (name) written.add(name);
    };
    walk(body, (n) => {
      if (n.type === 'VariableDeclarationStatement') {
        for (const v of declaredVariables(n)) {
          if (!v?.name) continue;
          const t = v.typeName;
          let type: string | null = null;
          if (t?.type === 'ElementaryTypeName' && VALUE.test(t.name)) type = t.name;
          else if (t?.type === 'UserDefinedTypeName' && facts.contractByName.has(t.namePath.split('.').pop() ?? '')) type = 'contract';
          if (decls.has(v.name)) declaredTwice.add(v.name);
          if (n.initialValue || declaredVariables(n).length !== 1 || !type) written.add(v.name);
          decls.set(v.name, { stmt: n, type: type ?? '' });
        }
        return;
      }
      // A declaration's own name is not a read.
      if (n.type === 'VariableDeclaration') return false;
      if (n.type === 'BinaryOperation' && isAssignmentOperator(n.operator)) markWrite(n.left);
      else if (n.type === 'UnaryOperation' && (n.operator === '++' || n.operator === '--' || n.operator === 'delete'))
        markWrite(n.subExpression);
      else if (n.type === 'InlineAssemblyStatement') {
        walk(n, (a) => {
          // Yul names a Solidity local as an Identifier (assigned) or as an argument-less AssemblyCall (read).
          if (a.type === 'Identifier') written.add(a.name);
          else if (a.type === 'AssemblyCall') written.add(a.functionName);
        });
        return false;
      } else if (n.type === 'Identifier') read.add(n.name);
    });
    for (const [name, d] of decls) {
      if (!d.type || written.has(name) || declaredTwice.has(name) || !read.has(name)) continue;
      const zero = d.type === 'address' || d.type === 'contract' ? 'address(0)' : d.type === 'bool' ? 'false' : '0';
      context.report({
        node: d.stmt,
        loc: statementLoc(d.stmt, facts),
        messageId: 'never',
        data: { name, fn: fn.name || fn.kind, zero },
      });
    }
  }),
};

export const detectors = [uninitializedLocalDetector];
export default detectorPlugin(detectors);
