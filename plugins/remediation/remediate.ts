// The fix engine: turns findings into real source transformations. Fixes run one after another
// on the current text (each strategy re-parses and finds its construct again, so fixes compose:
// a state write moved by the reentrancy fix is still found by the arithmetic fix). A fix is kept
// only if the result parses and, when the original compiled, still compiles with the compiler
// the pragma selects; otherwise it is reported as not applied with the compiler's reason.
import { createPatch } from 'diff';
import type { Finding } from '../../schemas/finding.ts';
import type { FixRecord, RemediationResult } from '../../kernel/index.ts';
import {
  applyEdits,
  indentUnit,
  lineOf,
  mapPosition,
  overlaps,
  parseStrict,
  usedIdentifiers,
  versionFacts,
  type Edit,
  type Move,
} from './source.ts';
import { callableName, locate } from './solidity.ts';
import { fixAccessControl } from './fixes/access-control.ts';
import { fixArithmetic } from './fixes/arithmetic.ts';
import { fixConstructorName } from './fixes/constructor-name.ts';
import { fixDeprecated } from './fixes/deprecated.ts';
import { fixFloatingPragma } from './fixes/floating-pragma.ts';
import { fixReentrancy } from './fixes/reentrancy.ts';
import { fixTxOrigin } from './fixes/tx-origin.ts';
import { fixUncheckedCall } from './fixes/unchecked-call.ts';
import { isPlan, type FixContext, type FixKind, type FixResult } from './fixes/types.ts';

export interface CompileCheck {
  ok: boolean;
  compiler: string | null;
  errors: string[];
}

export interface RemediateOptions {
  /** File name used in the diff headers. */
  file?: string;
  /** Compiles a candidate source with the compiler its pragma selects. Without it fixes are only parse-checked. */
  compile?: (source: string) => Promise<CompileCheck>;
}

/** Order in which fixes run: syntax-level first, then the ones that move or wrap statements. */
const ORDER: FixKind[] = [
  'floating-pragma',
  'deprecated',
  'constructor-name',
  'tx-origin',
  'unchecked-call',
  'reentrancy',
  'access-control',
  'arithmetic',
];

const STRATEGIES: Record<FixKind, (ctx: FixContext) => FixResult> = {
  'floating-pragma': fixFloatingPragma,
  deprecated: fixDeprecated,
  'constructor-name': fixConstructorName,
  'tx-origin': fixTxOrigin,
  'unchecked-call': fixUncheckedCall,
  reentrancy: fixReentrancy,
  'access-control': fixAccessControl,
  arithmetic: fixArithmetic,
};

/** Which fix a finding calls for, from its SWC id, detector, title and category. */
export function classifyFinding(f: Pick<Finding, 'category' | 'swc_id' | 'detector' | 'title'>): FixKind | null {
  const swc = String(f.swc_id ?? '').toUpperCase();
  const words = `${f.detector ?? ''} ${f.title ?? ''}`.toLowerCase();
  if (swc === 'SWC-115' || /tx[\s._-]?origin/.test(words)) return 'tx-origin';
  if (swc === 'SWC-118' || /constructor/.test(words)) return 'constructor-name';
  if (swc === 'SWC-103' || /pragma/.test(words)) return 'floating-pragma';
  if (swc === 'SWC-111' || /deprecat|suicide|\bsha3\b|\bthrow\b/.test(words)) return 'deprecated';
  if (swc === 'SWC-107' || f.category === 'reentrancy') return 'reentrancy';
  if (swc === 'SWC-104' || f.category === 'unchecked_low_level_calls') return 'unchecked-call';
  if (swc === 'SWC-101' || f.category === 'arithmetic') return 'arithmetic';
  if (swc === 'SWC-105' || swc === 'SWC-106' || f.category === 'access_control') return 'access-control';
  return null;
}

interface Applied {
  edits: Edit[];
  moves: Move[];
  finding: string;
  fn: string | null;
}

function lineStartOffset(src: string, line: number): number {
  let pos = 0;
  for (let l = 1; l < line; l++) {
    const nl = src.indexOf('\n', pos);
    if (nl < 0) return src.length;
    pos = nl + 1;
  }
  // First non-blank character: a line's leading indentation may be rewritten by a move.
  while (pos < src.length && (src[pos] === ' ' || src[pos] === '\t')) pos++;
  return pos;
}

export async function remediate(source: string, findings: Finding[], opts: RemediateOptions = {}): Promise<RemediationResult> {
  const file = opts.file ?? 'Contract.sol';
  const fixes: FixRecord[] = [];
  const record = (f: Finding, applied: boolean, strategy: string | null, description: string | null, reason: string | null) =>
    fixes.push({ finding_id: f.id, title: f.title, category: f.category, applied, strategy, description, reason_if_not: reason });

  const parsed = parseStrict(source);
  const original = opts.compile && parsed.ok ? await opts.compile(source) : null;
  if (!parsed.ok) {
    for (const f of findings) record(f, false, null, null, `the source does not parse (${parsed.error}), so no fix can be placed safely`);
    return finish(source, source, fixes, file, original, original, findings.length);
  }

  const ranked = findings
    .map((f, i) => ({ f, i, kind: classifyFinding(f) }))
    .sort((a, b) => (a.kind ? ORDER.indexOf(a.kind) : 99) - (b.kind ? ORDER.indexOf(b.kind) : 99) || a.i - b.i);
  const applied: Applied[] = [];
  const origLines = source.split('\n').length;
  let current = source;
  let lastCompile: CompileCheck | null = original;
  for (const { f, kind } of ranked) {
    if (!kind) {
      record(
        f,
        false,
        null,
        null,
        `no automatic fix exists for ${f.category} findings ("${f.title}"); apply the recommendation by hand: ${f.recommendation}`,
      );
      continue;
    }
    const line = Math.min(Math.max(1, f.location?.line ?? 1), origLines);
    const endLine = Math.min(Math.max(line, f.location?.end_line ?? line), origLines);
    // Map the finding's original lines through every fix applied so far.
    let startPos = lineStartOffset(source, line);
    let endPos = lineStartOffset(source, endLine);
    for (const a of applied) {
      startPos = mapPosition(startPos, a.edits, a.moves);
      endPos = mapPosition(endPos, a.edits, a.moves);
    }
    const cur = parseStrict(current);
    if (!cur.ok) break; // cannot happen: every kept fix was parse-checked
    const mappedLine = lineOf(current, startPos);
    const mappedEnd = Math.max(mappedLine, lineOf(current, endPos));
    const where = locate(cur.parsed.ast, {
      line: mappedLine,
      contract: f.location?.contract ?? null,
      function: f.location?.function ?? null,
    });
    const ctx: FixContext = {
      source: current,
      ast: cur.parsed.ast,
      versions: versionFacts(current),
      finding: f,
      line: mappedLine,
      endLine: mappedEnd,
      contract: where.contract,
      fn: where.fn,
      used: usedIdentifiers(current),
      unit: indentUnit(current),
    };
    let res: FixResult;
    try {
      res = STRATEGIES[kind](ctx);
    } catch (e) {
      res = { strategy: kind, reason: `the ${kind} fix failed on this code: ${(e as Error).message}` };
    }
    if (!isPlan(res)) {
      let reason = res.reason;
      if (res.missing) {
        const fnName = where.fn ? callableName(where.fn) : null;
        const earlier = applied.find((a) => a.fn === fnName || fnName === null);
        if (earlier) reason = `already addressed: the fix for finding ${earlier.finding} changed this code (${res.reason})`;
      }
      record(f, false, res.strategy, null, reason);
      continue;
    }
    if (!res.edits.length || overlaps(res.edits)) {
      record(f, false, res.strategy, null, 'the fix produced overlapping edits and was dropped');
      continue;
    }
    const next = applyEdits(current, res.edits);
    const check = parseStrict(next);
    if (!check.ok) {
      record(f, false, res.strategy, null, `the rewritten code would not parse (${check.error}); left unchanged`);
      continue;
    }
    if (opts.compile && original?.ok) {
      const c = await opts.compile(next);
      if (!c.ok) {
        record(
          f,
          false,
          res.strategy,
          null,
          `the fix did not compile with solc ${c.compiler ?? '?'} (${c.errors[0] ?? 'unknown error'}); left unchanged`,
        );
        continue;
      }
      lastCompile = c;
    }
    current = next;
    applied.push({ edits: res.edits, moves: res.moves ?? [], finding: f.id, fn: where.fn ? callableName(where.fn) : null });
    record(f, true, res.strategy, res.description, null);
  }
  const final = opts.compile && current !== source && !original?.ok ? await opts.compile(current) : lastCompile;
  return finish(source, current, sortLike(fixes, findings), file, original, final, findings.length);
}

function sortLike(fixes: FixRecord[], findings: Finding[]): FixRecord[] {
  const idx = new Map<string, number>();
  findings.forEach((f, i) => {
    if (!idx.has(f.id)) idx.set(f.id, i);
  });
  return [...fixes].sort((a, b) => (idx.get(a.finding_id) ?? 0) - (idx.get(b.finding_id) ?? 0));
}

/** The answer when no fix could be attempted at all (the run was stopped): source unchanged, each
 *  finding recorded as not applied with the reason. */
export function unchangedResult(source: string, findings: Finding[], file: string, reason: string): RemediationResult {
  const fixes: FixRecord[] = findings.map((f) => ({
    finding_id: f.id,
    title: f.title,
    category: f.category,
    applied: false,
    strategy: null,
    description: null,
    reason_if_not: reason,
  }));
  return finish(source, source, fixes, file, null, null, findings.length);
}

function finish(
  source: string,
  patched: string,
  fixes: FixRecord[],
  file: string,
  original: CompileCheck | null,
  final: CompileCheck | null,
  n: number,
): RemediationResult {
  const appliedN = fixes.filter((x) => x.applied).length;
  const diff = patched === source ? '' : createPatch(file, source, patched, 'original', 'remediated');
  const compiles = final ? final.ok : null;
  const parts = [`${appliedN} of ${n} finding${n === 1 ? '' : 's'} fixed in the source`];
  if (compiles === true) parts.push(`the patched contract compiles with solc ${final!.compiler}`);
  else if (compiles === false)
    parts.push(
      original?.ok === false
        ? 'the original contract does not compile, so fixes were only checked for syntax'
        : 'the patched contract does not compile',
    );
  const skipped = n - appliedN;
  if (skipped) parts.push(`${skipped} not applied (see reason_if_not)`);
  return {
    patched_code: patched,
    diff,
    fixes,
    summary: {
      findings: n,
      applied: appliedN,
      not_applied: skipped,
      changed: patched !== source,
      compiles,
      original_compiles: original ? original.ok : null,
      compiler: final?.compiler ?? original?.compiler ?? null,
      compile_errors: final && !final.ok ? final.errors.slice(0, 10) : [],
      text: parts.join('; ') + '.',
    },
  };
}
