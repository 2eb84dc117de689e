// Floating pragma -> pinned to the compiler release the service selects and verifies the patch
// with, so what was audited is what gets deployed.
import semver from 'semver';
import { findAllWithParents, type AST } from '../../../lib/analysis/static/ast.ts';
import { span } from '../source.ts';
import type { FixContext, FixResult } from './types.ts';

const STRATEGY = 'pin_pragma';

export function fixFloatingPragma(ctx: FixContext): FixResult {
  const pragmas = findAllWithParents(ctx.ast, (n): n is AST.PragmaDirective => n.type === 'PragmaDirective' && n.name === 'solidity');
  if (!pragmas.length) return { strategy: STRATEGY, reason: 'the file has no pragma solidity' };
  if (pragmas.length > 1) return { strategy: STRATEGY, reason: 'the file has several pragma solidity lines; pin them by hand' };
  const p = pragmas[0].node;
  const value = String(p.value).trim();
  if (semver.valid(value.replace(/^=/, ''))) return { strategy: STRATEGY, reason: `the pragma already pins ${value}`, missing: true };
  const target = ctx.versions.compiler;
  if (!target) return { strategy: STRATEGY, reason: 'no installed compiler satisfies the pragma, so there is no verified version to pin' };
  const [s, e] = span(p);
  return {
    strategy: STRATEGY,
    description: `Pinned pragma solidity ${value} to ${target}, the release this contract is compiled and checked with.`,
    edits: [{ start: s, end: e, text: `pragma solidity ${target};` }],
  };
}
