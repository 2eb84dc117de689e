// Deprecated constructs -> their replacements, each only where the pragma's compilers accept it:
// throw -> revert(), suicide -> selfdestruct, sha3 -> keccak256 (same semantics),
// constant functions -> view (0.4.17+), msg.gas -> gasleft() (0.4.21+),
// block.blockhash -> blockhash (0.4.22+).
import { stripCommentsAndStrings } from '../../../lib/analysis/compiler/index.ts';
import { findAllWithParents, line, type Node } from '../../../lib/analysis/static/ast.ts';
import { span, type Edit } from '../source.ts';
import { canUse, onFlaggedLines, type FixContext, type FixResult } from './types.ts';

const STRATEGY = 'replace_deprecated';

export function fixDeprecated(ctx: FixContext): FixResult {
  const inLines = (n: Node) => onFlaggedLines(ctx, n);
  const found = collect(ctx, ctx.ast, inLines);
  if (!found.edits.length && !found.skipped.length)
    return { strategy: STRATEGY, reason: 'no deprecated construct on the flagged lines', missing: true };
  if (!found.edits.length) return { strategy: STRATEGY, reason: found.skipped[0] };
  return { strategy: STRATEGY, description: `Replaced deprecated ${found.what.join(', ')}.`, edits: found.edits };
}

function collect(ctx: FixContext, root: Node, keep: (n: Node) => boolean) {
  const edits: Edit[] = [];
  const what: string[] = [];
  const skipped: string[] = [];
  const add = (e: Edit, w: string) => {
    edits.push(e);
    if (!what.includes(w)) what.push(w);
  };
  for (const { node } of findAllWithParents(root, (n) => keep(n))) {
    const [s, e] = span(node);
    if (node.type === 'ThrowStatement') {
      add({ start: s, end: s + 'throw'.length, text: 'revert()' }, 'throw with revert()');
    } else if (node.type === 'FunctionCall' && node.expression?.type === 'Identifier' && node.expression.name === 'suicide') {
      const [is, ie] = span(node.expression);
      add({ start: is, end: ie, text: 'selfdestruct' }, 'suicide with selfdestruct');
    } else if (node.type === 'FunctionCall' && node.expression?.type === 'Identifier' && node.expression.name === 'sha3') {
      const [is, ie] = span(node.expression);
      add({ start: is, end: ie, text: 'keccak256' }, 'sha3 with keccak256');
    } else if (
      node.type === 'MemberAccess' &&
      node.memberName === 'gas' &&
      node.expression?.type === 'Identifier' &&
      node.expression.name === 'msg'
    ) {
      if (canUse(ctx.versions, '0.4.21')) add({ start: s, end: e, text: 'gasleft()' }, 'msg.gas with gasleft()');
      else skipped.push('gasleft() needs Solidity 0.4.21, and the pragma admits older compilers');
    } else if (
      node.type === 'MemberAccess' &&
      node.memberName === 'blockhash' &&
      node.expression?.type === 'Identifier' &&
      node.expression.name === 'block'
    ) {
      if (canUse(ctx.versions, '0.4.22')) add({ start: s, end: e, text: 'blockhash' }, 'block.blockhash with blockhash');
      else skipped.push('blockhash() needs Solidity 0.4.22, and the pragma admits older compilers');
    } else if (
      node.type === 'FunctionDefinition' &&
      node.stateMutability === 'constant' &&
      line(node) >= ctx.line &&
      line(node) <= ctx.endLine
    ) {
      const header = stripCommentsAndStrings(ctx.source.slice(s, node.body ? span(node.body)[0] : e));
      const m = /\bconstant\b/.exec(header.slice(header.indexOf(')')));
      if (!m) continue;
      const at = s + header.indexOf(')') + m.index;
      if (canUse(ctx.versions, '0.4.17')) add({ start: at, end: at + 'constant'.length, text: 'view' }, 'constant functions with view');
      else skipped.push('view needs Solidity 0.4.17, and the pragma admits older compilers');
    }
  }
  return { edits, what, skipped };
}
