// public-mappings-nested: before Solidity 0.5.0 the compiler generates a wrong getter for a
// `public` mapping whose value is a struct with a struct member (a nested struct): the getter
// returns wrong values (0.5 rejects such getters). The contract's own code reads the mapping
// correctly, but every other contract and off-chain reader relying on the getter is misled about
// positions, orders or balances.
// Reported only when the pragma admits a compiler before 0.5.0: MEDIUM when every admitted version
// is, LOW when a fixed one may be used (the contract's own logic is not affected, so not HIGH).
// Avoids false positives: internal/private mappings (no getter), struct values without struct
// members, mappings of value types, and 0.5+ pragmas.
import {
  admits,
  bugScope,
  asNodes,
  detectorPlugin,
  line,
  perContract,
  walk,
  type AST,
  type MaybeNode,
  type StaticDetector,
} from '../../lib/analysis/static/index.ts';

export const publicMappingsNestedDetector: StaticDetector = {
  meta: {
    id: 'public-mappings-nested',
    title: 'Public mapping of nested structs has a wrong getter (before 0.5.0)',
    severity: 'MEDIUM',
    confidence: 0.7,
    category: 'other',
    swc: 'SWC-102',
    cwe: 'CWE-937',
    description:
      'A public mapping’s value is a struct holding another struct; compilers before 0.5.0 generate a getter for it that returns wrong values.',
    recommendation: 'Make the mapping internal and write an explicit getter, or compile with 0.5.0 or later.',
    exploit_scenario:
      'A lending front end reads `loans(id)` to show collateral; the buggy getter returns shifted fields and a liquidator acts on numbers the contract never held.',
    messages: {
      bug: 'public mapping `{{name}}` holds `{{struct}}`, whose member `{{member}}` is a struct: its getter returns wrong values before 0.5.0{{when}}.',
    },
  },
  create: perContract((c, context) => {
    const { facts } = context;
    const range = admits(facts.version, '<0.5.0');
    if (range === 'none') return;
    const scope = bugScope(range, 'LOW');
    const mappings = [...c.stateVars.values()].filter(
      (v) => v.contract === c.name && v.visibility === 'public' && v.typeNode?.type === 'Mapping',
    );
    if (!mappings.length) return;
    const structDefs = new Map<string, AST.StructDefinition>();
    walk(facts.ast, (n) => {
      if (n.type === 'StructDefinition' && !structDefs.has(n.name)) structDefs.set(n.name, n);
    });
    const structName = (t: MaybeNode) => (t?.type === 'UserDefinedTypeName' ? (t.namePath.split('.').pop() ?? '') : '');
    for (const v of mappings) {
      let value: MaybeNode = v.typeNode;
      while (value?.type === 'Mapping') value = value.valueType;
      const def = structDefs.get(structName(value));
      const member = def && asNodes(def.members).find((m) => m.type === 'VariableDeclaration' && structDefs.has(structName(m.typeName)));
      if (!def || !member || member.type !== 'VariableDeclaration') continue;
      context.report({
        node: v.node,
        loc: { line: line(v.node), end_line: line(v.node) },
        messageId: 'bug',
        data: { name: v.name, struct: def.name, member: member.name ?? '', when: scope.when },
        ...(scope.severity ? { severity: scope.severity } : {}),
      });
    }
  }),
};

export const detectors = [publicMappingsNestedDetector];
export default detectorPlugin(detectors);
