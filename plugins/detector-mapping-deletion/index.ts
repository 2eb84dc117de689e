// mapping-deletion: `delete` resets a struct's value fields but cannot clear a mapping inside it
// (the compiler does not know its keys); deleting such a struct, or an array of them, leaves the
// old entries readable when the slot is reused: a re-created record inherits stale balances,
// allowances or votes.
// Avoids false positives: structs without mappings, deleting a mapping entry itself
// (`delete balances[a]`: that value is cleared), structs from other files (unknown members).
import { detectorPlugin, statementLoc, walk, type StaticDetector, startOf, endOf, type AST } from '../../lib/analysis/static/index.ts';

export const mappingDeletionDetector: StaticDetector = {
  meta: {
    id: 'mapping-deletion',
    title: 'Deleting a struct that contains a mapping',
    severity: 'MEDIUM',
    confidence: 0.7,
    category: 'other',
    swc: null,
    cwe: 'CWE-459',
    description: '`delete` does not clear mappings inside a struct; their entries remain after the struct is deleted.',
    recommendation:
      'Clear the mapping entries explicitly before deleting (track the keys), or key the inner mapping by a record version/nonce that changes on deletion.',
    exploit_scenario:
      'A vault record with `mapping(address => uint) shares` is deleted and re-created under the same id; the old shares are still there and their holders withdraw from the new vault.',
    messages: { del: '`delete {{expr}}` leaves the entries of mapping member(s) `{{members}}` in place.' },
  },
  create(context) {
    const { facts, source } = context;
    // Struct name -> mapping members (directly, or through nested structs of the file).
    const defs = new Map<string, AST.StructDefinition>();
    walk(facts.ast, (n) => (n.type === 'StructDefinition' ? (defs.set(n.name, n), undefined) : undefined));
    const mappingMembers = (name: string, depth = 0): string[] => {
      const d = defs.get(name);
      if (!d || depth > 3) return [];
      const out: string[] = [];
      for (const m of d.members ?? []) {
        // (Struct members always have a name.)
        if (m.typeName?.type === 'Mapping') out.push(m.name ?? '');
        else if (m.typeName?.type === 'UserDefinedTypeName' && mappingMembers(m.typeName.namePath, depth + 1).length)
          out.push(m.name ?? '');
      }
      return out;
    };
    return {
      UnaryOperation(n) {
        if (n.operator !== 'delete') return;
        const { fn, contract } = facts.enclosing(n);
        const t = facts.typeOfExpr(n.subExpression, fn, contract);
        if (!t) return;
        const name = t.replace(/(\[\d*\])+$/, '');
        const members = mappingMembers(name);
        if (!members.length) return;
        context.report({
          node: n,
          loc: statementLoc(n, facts),
          messageId: 'del',
          data: { expr: source.slice(startOf(n.subExpression), endOf(n.subExpression) + 1), members: members.join('`, `') },
        });
      },
    };
  },
};

export const detectors = [mappingDeletionDetector];
export default detectorPlugin(detectors);
