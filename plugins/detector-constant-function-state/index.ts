// constant-function-state: before 0.5 the compiler only warns when a `view`/`constant`/`pure`
// function writes state. Callers compiled with 0.5+ (and every off-chain client) call such a
// function with STATICCALL, where the write reverts; callers of this code trust a guarantee that
// is false, and an "accessor" silently changes state when called in a transaction.
// Reported for code whose pragma admits < 0.5 (0.5+ rejects it at compile time). Writes are the
// function's own state writes (assignment, ++/--, delete, push) and `sstore` in assembly.
import { detectorPlugin, headerLoc, perFunction, some, type StaticDetector } from '../../lib/analysis/static/index.ts';

export const constantFunctionStateDetector: StaticDetector = {
  meta: {
    id: 'constant-function-state',
    title: 'view/constant function writes state',
    severity: 'MEDIUM',
    confidence: 0.8,
    category: 'other',
    swc: null,
    cwe: 'CWE-440',
    description: 'A function declared `view`, `constant` or `pure` modifies state; 0.4 compilers accept it, STATICCALL callers revert.',
    recommendation: 'Remove the state write, or drop the `view`/`constant` marker so callers know the function changes state.',
    exploit_scenario:
      '`function price() constant returns (uint) { lastQuery = now; ... }`: an integrating 0.8 contract calls it via STATICCALL and every call reverts, freezing the integration.',
    messages: { writes: '`{{fn}}` is declared `{{mut}}` but writes `{{vars}}`.' },
  },
  create: perFunction((fn, _c, context) => {
    const min = context.facts.version.min;
    const legacy = min ? /^0\.[0-4]\./.test(min) : context.facts.version.legacyConstructors || !context.facts.version.checkedArithmetic;
    if (!legacy || !fn.isView || !fn.node.body || fn.kind === 'modifier') return;
    const vars = [...new Set(fn.writes.map((w) => w.variable))];
    const sstore = some(fn.node.body, (n) => n.type === 'AssemblyCall' && n.functionName === 'sstore');
    if (!vars.length && !sstore) return;
    if (sstore) vars.push('storage (sstore)');
    context.report({
      node: fn.node,
      loc: headerLoc(fn.node),
      messageId: 'writes',
      data: { fn: fn.name, mut: fn.mutability ?? 'view', vars: vars.join('`, `') },
    });
  }),
};

export const detectors = [constantFunctionStateDetector];
export default detectorPlugin(detectors);
