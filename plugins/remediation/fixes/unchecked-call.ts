// Unchecked low-level call/send -> the returned success flag is checked. Before 0.5 a low-level
// call returns a bool, so the call is wrapped in require(...); from 0.5 call/delegatecall return
// (bool, bytes), so the flag is captured in a fresh local and required on the next line. A result
// that is already stored in a variable which the code later reads counts as checked and is left.
import semver from 'semver';
import {
  declaredVariables,
  elementaryName,
  endOf,
  findAllWithParents,
  startOf,
  text,
  type Node,
} from '../../../lib/analysis/static/ast.ts';
import { freshName, indentAt, span, type Edit } from '../source.ts';
import { enclosingStatement, isOutermostCall, lowLevelKind } from '../solidity.ts';
import { effectiveVersion } from '../source.ts';
import { onFlaggedLines, requireCall, type FixContext, type FixResult } from './types.ts';

const STRATEGY = 'check_call_result';

export function fixUncheckedCall(ctx: FixContext): FixResult {
  const scope = ctx.fn ?? ctx.contract ?? ctx.ast;
  const calls = findAllWithParents(scope, (n, p) => n.type === 'FunctionCall' && !!lowLevelKind(n) && isOutermostCall(n, p));
  if (!calls.length) return { strategy: STRATEGY, reason: 'no low-level call at this location', missing: true };
  const inLines = calls.filter(({ node }) => onFlaggedLines(ctx, node));
  const candidates = inLines.length ? inLines : calls;
  const modern = semver.gte(effectiveVersion(ctx.versions), '0.5.0');
  const edits: Edit[] = [];
  let checkedAlready = 0;
  for (const { node: call, parents } of candidates) {
    const kind = lowLevelKind(call)!;
    const encl = enclosingStatement(parents, call);
    if (!encl) continue;
    const { stmt, parent } = encl;
    const callText = text(ctx.source, call);
    const tuple = modern && kind !== 'send';
    if (stmt.type === 'ExpressionStatement' && stmt.expression === call) {
      const [s, e] = span(stmt);
      if (!tuple) {
        edits.push({ start: s, end: e, text: `${requireCall(ctx.versions, callText, `${kind} failed`)};` });
      } else {
        const ok = freshName('success', ctx.used);
        const ind = indentAt(ctx.source, s);
        const braces = parent?.type !== 'Block' && parent?.type !== 'UncheckedStatement';
        const inner = `(bool ${ok}, ) = ${callText};${braces ? ' ' : `\n${ind}`}${requireCall(ctx.versions, ok, `${kind} failed`)};`;
        edits.push({ start: s, end: e, text: braces ? `{ ${inner} }` : inner });
      }
      continue;
    }
    if (stmt.type === 'VariableDeclarationStatement' && stmt.initialValue === call) {
      const flag = declaredVariables(stmt).find((v) => elementaryName(v?.typeName) === 'bool');
      // Solidity always names a declared local; a nameless one is nothing to check.
      if (!flag?.name) continue;
      if (usedAfter(ctx, stmt, flag.name)) {
        checkedAlready++;
        continue;
      }
      if (parent?.type !== 'Block' && parent?.type !== 'UncheckedStatement') continue;
      const [, e] = span(stmt);
      edits.push({
        start: e,
        end: e,
        text: `\n${indentAt(ctx.source, span(stmt)[0])}${requireCall(ctx.versions, flag.name, `${kind} failed`)};`,
      });
      continue;
    }
  }
  if (!edits.length) {
    return checkedAlready
      ? { strategy: STRATEGY, reason: 'the call result is stored and read later; the check is already in the code' }
      : { strategy: STRATEGY, reason: 'the call result is already used by the surrounding expression (not a discarded return value)' };
  }
  return {
    strategy: STRATEGY,
    description: `Check the success flag of ${edits.length} low-level call${edits.length > 1 ? 's' : ''} with require(), so a failed call reverts instead of being silently ignored.`,
    edits,
  };
}

function usedAfter(ctx: FixContext, stmt: Node, name: string): boolean {
  const body = ctx.fn?.body;
  if (!body) return true;
  const after = findAllWithParents(body, (n) => n.type === 'Identifier' && n.name === name && startOf(n) > endOf(stmt));
  return after.length > 0;
}
