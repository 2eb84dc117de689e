// floating-pragma: a version pragma whose range crosses a breaking release series
// (`>=0.4.22 <0.6.0`, `>=0.5.0`, `*`) lets the contract be compiled by a compiler whose language
// semantics differ from the one it was written for: 0.5 changed address payability, 0.6
// fallback/receive, 0.8 made arithmetic checked (SWC-103). Informational.
// Avoids false positives: exact versions, and ranges that stay inside one breaking series
// (`^0.4.24`, `~0.8.0`, `>=0.8.4 <0.9.0`). In 0.x Solidity only a minor release may break the
// language; patch releases of a series fix bugs and add features without changing what existing
// code means, so such a range is a deployment-hygiene choice, not a risk claim about the code.
// Also not reported: files with no implementation (interfaces, declarations without bodies or
// state): nothing in them executes, so no compiler can change what they do; a wide range there
// (`>=0.4.16` on IERC20) is deliberate, so any version's code can import them. Over a run that
// covers several files the note is grouped into one (groupProjectNotes).
import semver from 'semver';
import { detectorPlugin, some, type StaticDetector, type AST } from '../../lib/analysis/static/index.ts';

/** Something in the file executes: a body, a state variable (its initializer, its storage). */
const hasImplementation = (ast: AST.SourceUnit) =>
  some(
    ast,
    (n) => ((n.type === 'FunctionDefinition' || n.type === 'ModifierDefinition') && !!n.body) || n.type === 'StateVariableDeclaration',
  );

/** The first release of the next breaking series after `v` (0.x: next minor; otherwise next major). */
function nextBreaking(v: semver.SemVer): string {
  return v.major === 0 ? `0.${v.minor + 1}.0` : `${v.major + 1}.0.0`;
}

/**
 * Whether a Solidity version range admits compilers of more than one breaking series.
 * Returns null for a range that cannot be parsed (never reported: the compiler will say).
 */
export function spansBreakingSeries(range: string): { from: string; into: string } | null {
  const r = range.replace(/\s+/g, ' ').trim();
  let min: semver.SemVer | null;
  try {
    if (!semver.validRange(r)) return null;
    min = semver.minVersion(r);
  } catch {
    return null;
  }
  if (!min) return null;
  const next = nextBreaking(min);
  return semver.intersects(r, `>=${next}`) ? { from: min.version, into: next } : null;
}

export const floatingPragmaDetector: StaticDetector = {
  meta: {
    id: 'floating-pragma',
    title: 'Floating pragma across breaking compiler releases',
    severity: 'INFO',
    confidence: 0.9,
    category: 'other',
    swc: 'SWC-103',
    cwe: 'CWE-664',
    description: 'The version pragma admits compilers of more than one breaking release series, whose language semantics differ.',
    recommendation:
      'Restrict the pragma to the release series the contract was written and tested for (pragma solidity ^0.8.24;), or pin it.',
    exploit_scenario:
      'Written for 0.7 with manual overflow handling in mind, the contract is compiled with 0.8, where the same arithmetic reverts instead of wrapping, and a payout path starts to fail.',
    messages: {
      pragma: 'Pragma `{{value}}` admits compilers from {{from}} up to and beyond {{into}}, a release that changes language semantics.',
    },
  },
  create(context) {
    return {
      PragmaDirective(n) {
        if (n.name !== 'solidity') return;
        if (!hasImplementation(context.facts.ast)) return;
        const value = String(n.value).replace(/\s+/g, ' ').trim();
        const span = spansBreakingSeries(value);
        if (!span) return;
        context.report({ node: n, messageId: 'pragma', data: { value, ...span } });
      },
    };
  },
};

export const detectors = [floatingPragmaDetector];
export default detectorPlugin(detectors);
