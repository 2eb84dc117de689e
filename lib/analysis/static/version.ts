// Compiler-version facts (a pass of computeFacts): the pragma's lowest admitted version, and what
// follows from it: checked arithmetic (>= 0.8), legacy same-name constructors (< 0.4.22), and
// whether the pragma floats. Without a pragma, old-only syntax dates the code.
import semver from 'semver';
import type { AST } from './ast.ts';
import type { Severity } from '../../../schemas/finding.ts';
import type { VersionFacts } from './facts.ts';
import { solidityPragma } from './parse.ts';

export function versionFacts(ast: AST.SourceUnit, source: string): VersionFacts {
  const pragma = solidityPragma(ast);
  let min: string | null = null;
  let range: string | null = null;
  if (pragma) {
    try {
      const cleaned = pragma
        .replace(/\s+/g, ' ')
        .replace(/([<>=^~]+) /g, '$1')
        .trim();
      min = semver.minVersion(cleaned)?.version ?? null;
      range = min ? cleaned : null;
    } catch {
      min = null;
    }
  }
  // Without a pragma, old-only syntax tells us the code predates 0.5.
  const legacySyntax = /\b(throw|suicide|sha3|callcode)\b|\bvar\s+\w|\.call\.value\(|\bconstant\s+returns|\)\s*constant\b/.test(source);
  const checkedArithmetic = min ? semver.gte(min, '0.8.0') : !legacySyntax;
  const legacyConstructors = min ? semver.lt(min, '0.4.22') : legacySyntax;
  const floating = !!pragma && /[\^~><]/.test(pragma) && !/<\s*=?\s*\d/.test(pragma.replace(/^.*?>=?[^<]*$/, ''));
  return { pragma, min, range, checkedArithmetic, legacyConstructors, floating };
}

/** Which of the compiler versions the pragma admits fall in `affected` (a semver range such as a
 *  compiler bug's `>=0.4.7 <0.5.10`): all of them, some (a fixed compiler may be used), or none.
 *  A file without a usable pragma says nothing about its compiler: none. */
export function admits(v: VersionFacts, affected: string): 'all' | 'some' | 'none' {
  if (!v.range) return 'none';
  try {
    if (!semver.intersects(v.range, affected)) return 'none';
    return semver.subset(v.range, affected) ? 'all' : 'some';
  } catch {
    return 'none';
  }
}

/** How a compiler-bug rule words and rates a finding for `admits`' answer: as declared when every
 *  admitted compiler has the bug; `lower` with "if compiled with one of them" when a fixed one may
 *  be the one used. */
export function bugScope(range: 'all' | 'some', lower: Severity): { when: string; severity?: Severity } {
  return range === 'all' ? { when: '' } : { when: ' (if compiled with one of them)', severity: lower };
}
