// arbitrary-send-erc20: `token.transferFrom(from, to, amount)` where `from` is a parameter of a
// function anyone can call: every holder who approved this contract can be emptied by anyone,
// because the approval was given to the contract, not to the caller. Also via permit: calling
// `token.permit(from, ...)` first does not help when the token has no permit but a fallback
// that accepts the call (WETH), so the transfer still pulls a stranger's approval.
// Avoids false positives: `from` is msg.sender or address(this); the function is guarded (owner,
// role, or a guard out of sight); a condition relates `from` to the caller (`require(from ==
// msg.sender)`, `allowance[from][msg.sender]`); internal helpers (judged where they are called:
// their `from` is usually msg.sender).
import {
  detectorPlugin,
  conditions,
  isMsgSender,
  some,
  statementLoc,
  unwrap,
  type Node,
  type StaticDetector,
  startOf,
  endOf,
  identName,
} from '../../lib/analysis/static/index.ts';

const PULLS = new Set(['transferFrom', 'safeTransferFrom']);
const isThis = (n: Node) => identName(unwrap(n)) === 'this';

export const arbitrarySendErc20Detector: StaticDetector = {
  meta: {
    id: 'arbitrary-send-erc20',
    title: 'transferFrom from an arbitrary address',
    severity: 'HIGH',
    confidence: 0.75,
    category: 'access_control',
    swc: 'SWC-105',
    cwe: 'CWE-284',
    description:
      'Tokens are pulled with transferFrom from an address the caller passes in; any account that approved this contract can be drained by anyone.',
    recommendation:
      "Pull only from msg.sender (transferFrom(msg.sender, ...)), or check that the caller is allowed to move `from`'s tokens (from == msg.sender, an allowance or signature of `from` for this caller).",
    exploit_scenario:
      "Alice approves the vault to spend her tokens before depositing; Mallory calls deposit(alice, mallory, amount) first and the vault moves Alice's tokens into Mallory's position.",
    messages: {
      pull: '`{{call}}` pulls from `{{from}}`, which the caller chooses.',
      permit:
        '`{{call}}` pulls from `{{from}}` after `permit({{from}}, ...)`: a token without permit but with a fallback (WETH) accepts the permit call, and the approval of `{{from}}` is spent by whoever calls.',
    },
  },
  create(context) {
    const { facts, source } = context;
    return {
      FunctionCall(n) {
        const c = facts.externalCallByNode.get(n);
        const member = n.expression?.type === 'MemberAccess' ? n.expression.memberName : null;
        if (!member || !PULLS.has(member)) return;
        const args: Node[] = n.arguments ?? [];
        // `token.transferFrom(from, to, v)` (a call, or SafeERC20 bound with `using for`), or the
        // library form `SafeERC20.safeTransferFrom(token, from, to, v)`.
        let from: Node | null = null;
        if (args.length === 3 && (c?.kind === 'external' || member === 'safeTransferFrom')) from = args[0];
        else if (args.length === 4 && member === 'safeTransferFrom' && !c) from = args[1];
        else if (args.length >= 3 && c?.kind === 'external') from = args[0];
        if (!from) return;
        const f = unwrap(from);
        const { fn } = facts.enclosing(n);
        if (!fn || !fn.isPublic || fn.kind === 'constructor' || fn.senderGuard) return;
        if (f?.type !== 'Identifier' || !fn.params.includes(f.name) || isMsgSender(f) || isThis(f)) return;
        const name = f.name;
        const mentions = (x: Node, v: string) => some(x, (m) => m.type === 'Identifier' && m.name === v);
        const bodies = [fn.node.body, ...fn.modifiers.map((m) => m.def?.node.body)].filter(Boolean);
        // A check that ties `from` to the caller (equality, an allowance or operator table keyed by both).
        if (bodies.some((b) => conditions(b).some((cond) => mentions(cond, name) && some(cond, isMsgSender)))) return;
        let viaPermit = false;
        for (const b of bodies)
          some(b, (m) => {
            if (
              m.type === 'FunctionCall' &&
              m.expression?.type === 'MemberAccess' &&
              /^(safe)?[pP]ermit$/.test(m.expression.memberName) &&
              (m.range?.[0] ?? 0) < (n.range?.[0] ?? 0) &&
              (m.arguments ?? []).some((a) => identName(unwrap(a)) === name)
            )
              viaPermit = true;
            return false;
          });
        const call = source
          .slice(startOf(n), endOf(n) + 1)
          .replace(/\s+/g, ' ')
          .slice(0, 80);
        context.report({
          node: n,
          loc: statementLoc(n, facts),
          messageId: viaPermit ? 'permit' : 'pull',
          data: { call, from: name },
          ...(viaPermit ? { severity: 'MEDIUM' as const } : {}),
        });
      },
    };
  },
};

export const detectors = [arbitrarySendErc20Detector];
export default detectorPlugin(detectors);
