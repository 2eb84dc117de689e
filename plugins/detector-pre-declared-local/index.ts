// pre-declared-local: before Solidity 0.5.0 a local variable is in scope in the whole function
// (JavaScript-style hoisting), not from its declaration to the end of its block. Code may use it
// before the statement that declares it, or after the block that declares it (a loop counter
// read after the loop), and compiles: the value read is zero, or whatever an earlier loop
// iteration left. A same-named state variable is shadowed in the whole function, so a read meant
// for it gets the local. 0.5.0 introduced block scoping and rejects both shapes.
// Reported only for pragmas admitting a compiler before 0.5.0: MEDIUM when the local shadows a
// state variable (the read was written for the state variable), LOW otherwise.
// Avoids false positives: uses after the declaration within its block (including nested blocks),
// parameters and return variables, member names (`x.length`), a counter reused after its loop
// by assigning it first (`for (i = 0; …)`), and 0.5+ pragmas.
import {
  admits,
  detectorPlugin,
  declaredVariables,
  perFunction,
  walk,
  type Node,
  type StaticDetector,
} from '../../lib/analysis/static/index.ts';

export const preDeclaredLocalDetector: StaticDetector = {
  meta: {
    id: 'pre-declared-local',
    title: 'Local variable used before its declaration or outside its block (< 0.5)',
    severity: 'LOW',
    confidence: 0.8,
    category: 'other',
    swc: null,
    cwe: 'CWE-457',
    description:
      'Before 0.5.0 locals are function-scoped: this use comes before the declaration or after the block that declares the variable, so it reads zero or a stale value, not what the code suggests.',
    recommendation:
      'Declare the variable before its first use, at the level of the block that uses it (and compile with 0.5 or later, which rejects this).',
    exploit_scenario:
      'A fee is computed from `rate` two lines before `uint rate = feeRate();` declares a local of that name; the fee is always zero and every trade is free.',
    messages: {
      before: '`{{name}}` is used before its declaration on line {{decl}}: it reads {{what}}.',
      after: '`{{name}}` is used outside the block that declares it (line {{decl}}): it reads {{what}}.',
    },
  },
  create: perFunction((fn, c, context) => {
    const { facts } = context;
    if (!fn.node.body || admits(facts.version, '<0.5.0') === 'none') return;
    const decls = new Map<string, { at: number; scope: Node; line: number }>();
    walk(fn.node.body, (n, parent) => {
      if (n.type !== 'VariableDeclarationStatement') return;
      // A for loop's initialiser is scoped to the loop; other declarations to their block.
      const scope = parent ?? fn.node.body!;
      for (const v of declaredVariables(n))
        if (v?.name && !decls.has(v.name)) decls.set(v.name, { at: n.range?.[0] ?? 0, scope, line: n.loc?.start.line ?? 0 });
    });
    if (!decls.size) return;
    const reported = new Set<string>();
    walk(fn.node.body, (n) => {
      if (n.type !== 'Identifier' || reported.has(n.name)) return;
      const d = decls.get(n.name);
      const pos = n.range?.[0] ?? 0;
      if (!d) return;
      const early = pos < d.at;
      const outside = !early && (pos < (d.scope.range?.[0] ?? 0) || pos > (d.scope.range?.[1] ?? 0));
      if (!early && !outside) return;
      reported.add(n.name);
      // Reusing a loop's counter in a later loop (`for (i = 0; …)`) writes before it reads: benign.
      const p = facts.parent(n);
      if (outside && p?.type === 'BinaryOperation' && p.operator === '=' && p.left === n) return;
      const shadows = c.stateVars.has(n.name);
      context.report({
        node: n,
        messageId: early ? 'before' : 'after',
        data: {
          name: n.name,
          decl: String(d.line),
          what: shadows
            ? `the local, not the state variable \`${n.name}\``
            : early
              ? 'zero or a stale value'
              : 'what the block left, or zero if it never ran',
        },
        ...(shadows ? { severity: 'MEDIUM' as const } : {}),
      });
    });
  }),
};

export const detectors = [preDeclaredLocalDetector];
export default detectorPlugin(detectors);
