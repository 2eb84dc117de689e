// What a fix strategy sees and returns. A strategy reads the CURRENT source (earlier fixes are
// already applied), finds its construct near the finding's mapped lines, and proposes text edits
// on exact AST character ranges. The engine applies them, re-parses and re-compiles.
import type { Finding } from '../../../schemas/finding.ts';
import { endLine, line, type AST, type Located } from '../../../lib/analysis/static/ast.ts';
import type { Edit, Move, VersionFacts } from '../source.ts';
import type { Callable } from '../solidity.ts';
import semver from 'semver';

export type FixKind =
  'reentrancy' | 'unchecked-call' | 'tx-origin' | 'access-control' | 'arithmetic' | 'deprecated' | 'constructor-name' | 'floating-pragma';

export interface FixContext {
  source: string;
  ast: AST.SourceUnit;
  versions: VersionFacts;
  finding: Finding;
  /** The finding's lines mapped onto the current source. */
  line: number;
  endLine: number;
  contract: AST.ContractDefinition | null;
  fn: Callable | null;
  used: Set<string>;
  /** One indentation step as the file writes it. */
  unit: string;
}

export interface FixPlan {
  strategy: string;
  description: string;
  edits: Edit[];
  moves?: Move[];
}

export interface NotApplicable {
  strategy: string;
  reason: string;
  /** The construct is not in the current source (an earlier fix may have removed it). */
  missing?: boolean;
}

export type FixResult = FixPlan | NotApplicable;

/** The node overlaps the finding's (mapped) lines. */
export function onFlaggedLines(ctx: Pick<FixContext, 'line' | 'endLine'>, n: Located): boolean {
  return line(n) <= ctx.endLine && endLine(n) >= ctx.line;
}

export function isPlan(r: FixResult): r is FixPlan {
  return (r as FixPlan).edits !== undefined;
}

/** Oldest compiler the service ships; pragmas admitting older ones are compiled with it. */
const OLDEST_SHIPPED = '0.4.11';

/**
 * A syntax feature may be emitted only when every compiler the pragma admits (from those that
 * exist for it) accepts it, and the selected compiler does: the patch must not start failing for
 * a user who compiles with the oldest version their pragma allows.
 */
export function canUse(v: VersionFacts, since: string): boolean {
  const floorCandidates = [v.pinned, v.pragmaMin, OLDEST_SHIPPED].filter((x): x is string => !!x);
  const floor = v.pinned ?? floorCandidates.sort(semver.rcompare)[0];
  const compiler = v.compiler ?? floor;
  return semver.gte(floor, since) && semver.gte(compiler, since);
}

/** `require(cond)` with a reason string where the syntax allows one. */
export function requireCall(v: VersionFacts, cond: string, reason: string): string {
  return canUse(v, '0.4.22') ? `require(${cond}, ${JSON.stringify(reason)})` : `require(${cond})`;
}
