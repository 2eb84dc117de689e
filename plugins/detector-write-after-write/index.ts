// write-after-write: a variable is assigned and then assigned again in the same block before
// anything reads it; the first value is thrown away, which usually means the second assignment
// was meant for another variable (`a = x; a = y;` instead of `a = x; b = y;`).
// Straight-line code only: both writes are statements of one block, the variable is a plain name
// (a local or state variable), nothing between them mentions it, and for state variables no call
// sits between them (a callee could read the first value). LOW: a lost value, not by itself a
// path for an attacker.
import {
  detectorPlugin,
  some,
  type Node,
  type StaticDetector,
  asNodes,
  line,
  type AST,
  identName,
} from '../../lib/analysis/static/index.ts';

/** `x = e;` → x (plain identifier assignments only). */
function assigned(st: Node): { name: string; right: AST.Expression } | null {
  const e = st?.type === 'ExpressionStatement' ? st.expression : null;
  if (e?.type !== 'BinaryOperation' || e.operator !== '=') return null;
  return e.left?.type === 'Identifier' ? { name: e.left.name, right: e.right } : null;
}

export const writeAfterWriteDetector: StaticDetector = {
  meta: {
    id: 'write-after-write',
    title: 'Value overwritten before it is read',
    severity: 'LOW',
    confidence: 0.6,
    category: 'other',
    swc: 'SWC-135',
    cwe: 'CWE-563',
    description: 'A variable is assigned twice in a row without being read in between; the first assignment has no effect.',
    recommendation: 'Remove the dead assignment, or assign the second value to the variable that was meant.',
    exploit_scenario:
      'setLimits(min, max) writes `minLimit = min; minLimit = max;`: the maximum is never stored and the old one keeps applying.',
    messages: { dead: '`{{name}}` is assigned here and again on line {{next}} before anything reads it.' },
  },
  create(context) {
    const { facts } = context;
    return {
      Block(b) {
        const sts: Node[] = asNodes(b.statements);
        for (let i = 0; i < sts.length; i++) {
          const first = assigned(sts[i]);
          if (!first) continue;
          const name = first.name;
          const { fn, contract } = facts.enclosing(b);
          const isState = !!contract?.stateVars.has(name) && !fn?.locals.has(name);
          if (some(first.right, (x) => x.type === 'Identifier' && x.name === name)) continue;
          for (let j = i + 1; j < sts.length; j++) {
            const second = assigned(sts[j]);
            if (second && second.name === name) {
              if (!some(second.right, (x) => x.type === 'Identifier' && x.name === name))
                context.report({ node: sts[i], messageId: 'dead', data: { name, next: line(sts[j]) } });
              break;
            }
            // A modifier's `_` runs the whole function body in between (a lock's set and reset).
            const sj = sts[j];
            const placeholder = sj.type === 'ExpressionStatement' && identName(sj.expression) === '_';
            if (placeholder) break;
            const mentions = some(sts[j], (x) => x.type === 'Identifier' && x.name === name);
            const callOrFlow =
              sts[j].type !== 'ExpressionStatement' && sts[j].type !== 'VariableDeclarationStatement' && sts[j].type !== 'EmitStatement';
            if (mentions || callOrFlow || (isState && some(sts[j], (x) => x.type === 'FunctionCall'))) break;
          }
        }
      },
    };
  },
};

export const detectors = [writeAfterWriteDetector];
export default detectorPlugin(detectors);
