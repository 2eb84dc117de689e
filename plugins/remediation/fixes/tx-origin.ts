// tx.origin used for authorisation -> msg.sender. Only comparisons are rewritten: tx.origin in
// an event or a log is not an auth check, and `tx.origin == msg.sender` is an "is the caller an
// EOA" test whose rewrite would always be true, so both are left alone.
import { findAllWithParents, isMember, type AST, type MaybeNode } from '../../../lib/analysis/static/ast.ts';
import { span } from '../source.ts';
import { onFlaggedLines, type FixContext, type FixResult } from './types.ts';

const STRATEGY = 'tx_origin_to_msg_sender';

// The bare members only: `address(tx.origin)` keeps its conversion and is not rewritten.
const isTxOrigin = (n: MaybeNode): boolean => isMember(n, 'tx', 'origin');
const isMsgSender = (n: MaybeNode): boolean => isMember(n, 'msg', 'sender');

export function fixTxOrigin(ctx: FixContext): FixResult {
  const scope = ctx.fn ?? ctx.contract ?? ctx.ast;
  const comparisons = findAllWithParents(
    scope,
    (n): n is AST.BinaryOperation =>
      n.type === 'BinaryOperation' && (n.operator === '==' || n.operator === '!=') && (isTxOrigin(n.left) || isTxOrigin(n.right)),
  );
  const inLines = comparisons.filter(({ node }) => onFlaggedLines(ctx, node));
  const chosen = inLines.length ? inLines : comparisons;
  if (!chosen.length) {
    const any = findAllWithParents(scope, (n) => isTxOrigin(n)).length > 0;
    return any
      ? { strategy: STRATEGY, reason: 'tx.origin is not used in a comparison here, so it is not an authorisation check to rewrite' }
      : { strategy: STRATEGY, reason: 'no tx.origin left at this location', missing: true };
  }
  const edits = [];
  for (const { node } of chosen) {
    const [origin, other] = isTxOrigin(node.left) ? [node.left, node.right] : [node.right, node.left];
    if (isMsgSender(other)) continue;
    const [s, e] = span(origin);
    edits.push({ start: s, end: e, text: 'msg.sender' });
  }
  if (!edits.length)
    return {
      strategy: STRATEGY,
      reason: 'the comparison is tx.origin == msg.sender (an externally-owned-account check), not authorisation',
    };
  return {
    strategy: STRATEGY,
    description: `Authorise with msg.sender instead of tx.origin (${edits.length} comparison${edits.length > 1 ? 's' : ''}): tx.origin lets any contract the owner calls act as the owner.`,
    edits,
  };
}
