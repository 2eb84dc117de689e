// Integer overflow/underflow. Before 0.8: an inline SafeMath-style require in front of the
// statement (a + b >= a; a >= b; a == 0 || a * b / a == b). It is only emitted when both
// operands are provably unsigned (the checks are wrong for signed values) and free of side
// effects (they are evaluated twice), and when the statement sits in a block (a loop header
// cannot take a check in front of it). From 0.8 arithmetic is checked by the compiler; the
// finding then means an `unchecked` block, which is removed.
import semver from 'semver';
import { findAllWithParents, text, type AST, type Node } from '../../../lib/analysis/static/ast.ts';
import { effectiveVersion, indentAt, span, type Edit } from '../source.ts';
import { isUnsigned, sideEffectFree, statementInBlock, typeResolver } from '../solidity.ts';
import { onFlaggedLines, requireCall, type FixContext, type FixResult } from './types.ts';

const OPS: Record<string, '+' | '-' | '*'> = { '+': '+', '-': '-', '*': '*', '+=': '+', '-=': '-', '*=': '*' };

export function fixArithmetic(ctx: FixContext): FixResult {
  if (semver.gte(effectiveVersion(ctx.versions), '0.8.0')) return removeUnchecked(ctx);
  const strategy = 'overflow_check';
  const { fn } = ctx;
  if (!fn || !fn.body) return { strategy, reason: 'the arithmetic is not inside a function body (state initialisers cannot take a check)' };
  const types = typeResolver(ctx.ast, ctx.contract, fn);
  const ops = findAllWithParents(
    fn.body,
    (n): n is AST.BinaryOperation => n.type === 'BinaryOperation' && n.operator in OPS && onFlaggedLines(ctx, n),
  );
  if (!ops.length) return { strategy, reason: 'no +, - or * left on the flagged lines', missing: true };
  const byStmt = new Map<Node, string[]>();
  const reasons: string[] = [];
  for (const { node, parents } of ops) {
    const where = statementInBlock(parents, node);
    const loopHeader = parents.some(
      (p, i) =>
        (p.type === 'ForStatement' || p.type === 'WhileStatement' || p.type === 'DoWhileStatement') && !isInBody(p, parents[i + 1] ?? node),
    );
    if (!where || loopHeader) {
      reasons.push(`${text(ctx.source, node)} is in a loop header or expression without a block to put a check in`);
      continue;
    }
    const a = node.left;
    const b = node.right;
    const op = OPS[node.operator];
    if (!sideEffectFree(a) || !sideEffectFree(b)) {
      reasons.push(`${text(ctx.source, node)} has operands with side effects, which a check would evaluate twice`);
      continue;
    }
    if (!isUnsigned(types(a)) || !isUnsigned(types(b))) {
      reasons.push(`could not prove both operands of ${text(ctx.source, node)} are unsigned integers`);
      continue;
    }
    if (a.type === 'NumberLiteral' && b.type === 'NumberLiteral') continue;
    const ta = paren(ctx.source, a);
    const tb = paren(ctx.source, b);
    const cond = op === '+' ? `${ta} + ${tb} >= ${ta}` : op === '-' ? `${ta} >= ${tb}` : `${ta} == 0 || (${ta} * ${tb}) / ${ta} == ${tb}`;
    const why = op === '+' ? 'addition overflow' : op === '-' ? 'subtraction underflow' : 'multiplication overflow';
    const list = byStmt.get(where.stmt) ?? [];
    const line = `${requireCall(ctx.versions, cond, why)};`;
    if (!list.includes(line)) list.push(line);
    byStmt.set(where.stmt, list);
  }
  if (!byStmt.size) return { strategy, reason: reasons[0] ?? 'nothing to check' };
  const edits: Edit[] = [];
  let n = 0;
  for (const [stmt, checks] of byStmt) {
    const [s] = span(stmt);
    const ind = indentAt(ctx.source, s);
    // Inner operations first: they are evaluated first.
    edits.push({
      start: s,
      end: s,
      text: checks
        .reverse()
        .map((c) => `${c}\n${ind}`)
        .join(''),
    });
    n += checks.length;
  }
  return {
    strategy,
    description: `Added ${n} overflow/underflow check${n > 1 ? 's' : ''} (SafeMath-style require) in front of the arithmetic, so a wrap-around reverts instead of corrupting balances.`,
    edits,
  };
}

function isInBody(loop: AST.ForStatement | AST.WhileStatement | AST.DoWhileStatement, child: Node): boolean {
  return loop.body === child;
}

function paren(src: string, e: Node): string {
  const t = text(src, e);
  return e.type === 'BinaryOperation' || e.type === 'Conditional' ? `(${t})` : t;
}

function removeUnchecked(ctx: FixContext): FixResult {
  const strategy = 'remove_unchecked';
  const scope = ctx.fn ?? ctx.ast;
  const blocks = findAllWithParents(scope, (n) => n.type === 'UncheckedStatement' && onFlaggedLines(ctx, n));
  if (!blocks.length)
    return {
      strategy,
      reason: 'Solidity 0.8 checks this arithmetic already (it reverts on overflow); there is no unchecked block to remove',
    };
  const inner = blocks[blocks.length - 1].node;
  const [s] = span(inner);
  if (!ctx.source.startsWith('unchecked', s)) return { strategy, reason: 'could not find the unchecked keyword' };
  // Dropping the keyword leaves a plain block: same scoping, checked arithmetic.
  const end = s + 'unchecked'.length + (/\s/.test(ctx.source[s + 'unchecked'.length] ?? '') ? 1 : 0);
  return {
    strategy,
    description: 'Removed the unchecked block around the flagged arithmetic, so Solidity 0.8 reverts on overflow instead of wrapping.',
    edits: [{ start: s, end, text: '' }],
  };
}
