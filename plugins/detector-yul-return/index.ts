// yul-return: Yul's `return(p, s)` does not return from the Solidity function: it ends the whole
// call frame with that data. In a function that other code of the contract calls (internal,
// private, or public and also called internally) everything the caller meant to do afterwards
// (state updates, events, checks) silently never runs. `leave` is the Yul way to exit a function.
// Avoids false positives: fallback/receive functions, public/external entry points nobody calls
// internally (proxies and assembly-optimised getters end the call on purpose), and functions
// whose every call is the caller's last statement (a proxy's `_delegate` in `_fallback`).
import {
  detectorPlugin,
  is,
  perFunction,
  unwrap,
  walk,
  type MaybeNode,
  type Node,
  type StaticDetector,
} from '../../lib/analysis/static/index.ts';

/** Whether `call` is the caller's last statement (`f(...);` or `return f(...);`). */
function inTailPosition(body: MaybeNode, call: Node): boolean {
  if (body?.type !== 'Block' || !body.statements.length) return false;
  const last = body.statements[body.statements.length - 1];
  const e = is(last, 'ExpressionStatement') ? last.expression : is(last, 'ReturnStatement') ? last.expression : null;
  return !!e && unwrap(e) === call;
}

export const yulReturnDetector: StaticDetector = {
  meta: {
    id: 'yul-return',
    title: 'Assembly `return` in a function other code calls',
    severity: 'HIGH',
    confidence: 0.7,
    category: 'other',
    swc: null,
    cwe: 'CWE-670',
    description:
      'Inline assembly `return(p, s)` halts the whole transaction frame; the calling function never resumes, so its remaining statements are skipped.',
    recommendation: 'Use a Solidity `return`, or `leave` inside Yul functions; keep `return(...)` to external entry points and fallbacks.',
    exploit_scenario:
      '`_verify()` ends with `assembly { return(0, 32) }`; `withdraw()` calls it before `balances[msg.sender] = 0`, which never runs, so the balance can be withdrawn again.',
    messages: { halt: '`{{fn}}` is {{how}} but its assembly `return` ends the whole call: the caller never resumes.' },
  },
  create: perFunction((fn, c, context) => {
    const body = fn.node.body;
    if (!body || fn.kind === 'fallback' || fn.kind === 'receive' || fn.kind === 'constructor' || fn.kind === 'modifier') return;
    const internalOnly = fn.visibility === 'internal' || fn.visibility === 'private';
    if (!internalOnly && !fn.calledInternally) return;
    // Only a caller with work left after the call loses anything: a proxy's `_delegate()` called
    // as the last statement of `_fallback()` ends the call exactly as meant.
    const callSites = c.functions.flatMap((g) =>
      g.internalCalls.filter((ic) => ic.callees.includes(fn)).map((ic) => ({ g, call: ic.node })),
    );
    if (!callSites.some(({ g, call }) => !inTailPosition(g.node.body, call))) return;
    walk(body, (n) => {
      if (n.type !== 'InlineAssemblyStatement') return;
      walk(n, (a) => {
        if (a.type === 'AssemblyCall' && a.functionName === 'return' && (a.arguments?.length ?? 0) === 2)
          context.report({
            node: a,
            loc: { line: a.loc?.start.line ?? 1, end_line: a.loc?.end.line ?? 1 },
            messageId: 'halt',
            data: { fn: fn.name, how: internalOnly ? `${fn.visibility}` : 'called internally' },
          });
      });
      return false;
    });
  }),
};

export const detectors = [yulReturnDetector];
export default detectorPlugin(detectors);
