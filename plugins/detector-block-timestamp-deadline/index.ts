// block-timestamp-deadline: a swap or liquidity call whose deadline is `block.timestamp` (or
// `now`) has no deadline at all: the value is whatever block includes the transaction. A
// validator or searcher can hold the signed transaction and execute it later, when the price has
// moved against the user (the minimum-output check alone still lets them take everything down to
// it).
// The deadline argument is found by name: a parameter called deadline/expiry/validUntil in the
// callee's declaration in this file, a `deadline:` field of a named-argument or struct call
// (Uniswap v3 params), or else the last argument of a router-style swap/liquidity function
// (Uniswap v2 routers). Avoids false positives: `block.timestamp + n` (a real, if generous,
// deadline) and block.timestamp passed to parameters with other names.
import {
  blockValue,
  contractsOf,
  detectorPlugin,
  endLine,
  is,
  line,
  statementLoc,
  unwrap,
  type AST,
  type MaybeNode,
  type StaticDetector,
} from '../../lib/analysis/static/index.ts';

const DEADLINE = /^_?(?:deadline|expiry|expiration|validUntil|validTo)$/i;
const ROUTER_FN = /^(?:swap\w*|addLiquidity\w*|removeLiquidity\w*|exactInput\w*|exactOutput\w*|zapIn\w*|zapOut\w*)$/;

const isNow = (n: MaybeNode) => {
  const u = n ? unwrap(n) : null;
  return blockValue(u) === 'timestamp' || (u?.type === 'Identifier' && u.name === 'now');
};

export const blockTimestampDeadlineDetector: StaticDetector = {
  meta: {
    id: 'block-timestamp-deadline',
    title: 'block.timestamp used as a deadline',
    severity: 'MEDIUM',
    confidence: 0.7,
    category: 'front_running',
    swc: 'SWC-114',
    cwe: 'CWE-362',
    description: 'A swap or liquidity call passes block.timestamp as its deadline, which is always satisfied.',
    recommendation: 'Take the deadline from the caller (a parameter set off-chain, e.g. now + 10 minutes) and pass it through.',
    exploit_scenario:
      'A vault rebalances with `router.swapExactTokensForTokens(amount, minOut, path, address(this), block.timestamp)`; a builder withholds it until the price drops to minOut and sandwiches it.',
    messages: { never: '`{{fn}}` gets `block.timestamp` as its deadline (`{{param}}`): it never expires.' },
  },
  create(context) {
    const { facts } = context;
    // Parameter names of functions declared in this file, by name and arity (interfaces included).
    const declared = new Map<string, string[]>();
    for (const c of contractsOf(facts.ast)) {
      for (const s of c.subNodes) {
        if (is(s, 'FunctionDefinition') && s.name)
          declared.set(
            `${s.name}/${s.parameters.length}`,
            s.parameters.map((p) => p.name ?? ''),
          );
      }
    }
    return {
      FunctionCall(n: AST.FunctionCall) {
        const args = n.arguments ?? [];
        const names = n.names ?? [];
        const callee = unwrap(n.expression);
        const fn = callee?.type === 'MemberAccess' ? callee.memberName : callee?.type === 'Identifier' ? callee.name : '';
        let param: string | null = null;
        let loc = statementLoc(n, facts);
        if (names.length) {
          const i = names.findIndex((x, k) => DEADLINE.test(x) && isNow(args[k]));
          if (i >= 0) {
            param = names[i];
            // A struct literal spans many lines: point at the field.
            loc = { line: line(args[i]), end_line: endLine(args[i]) };
          }
        } else {
          const params = declared.get(`${fn}/${args.length}`);
          if (params) {
            const i = params.findIndex((p, k) => DEADLINE.test(p) && isNow(args[k]));
            if (i >= 0) param = params[i];
          } else if (callee?.type === 'MemberAccess' && ROUTER_FN.test(fn) && args.length >= 3 && isNow(args[args.length - 1]))
            param = 'deadline';
        }
        if (param) context.report({ node: n, loc, messageId: 'never', data: { fn: fn || 'call', param } });
      },
    };
  },
};

export const detectors = [blockTimestampDeadlineDetector];
export default detectorPlugin(detectors);
