// Which installed solc-js compiler compiles a given source. The compilers ship as npm aliases
// (solc, solc-0.4.11 ... solc-0.7.6), so analysis works offline for every Solidity generation
// the public benchmarks use. The choice is explained in words, because a user whose contract
// was compiled with a different patch release than the one it pins needs to know.
import { createRequire } from 'node:module';
import semver from 'semver';
import { cachedCompilers } from './solc-cache.ts';

const require = createRequire(import.meta.url);

export interface InstalledCompiler {
  version: string;
  /** npm package (alias) name to require (bundled releases). */
  pkg: string;
  /** soljson.js of a release installed on demand into the solc cache. */
  soljson?: string;
}

/** Every compiler alias package.json declares, oldest first. */
const CANDIDATES: InstalledCompiler[] = [
  { version: '0.4.11', pkg: 'solc-0.4.11' },
  { version: '0.4.18', pkg: 'solc-0.4.18' },
  { version: '0.4.24', pkg: 'solc-0.4.24' },
  { version: '0.4.26', pkg: 'solc-0.4.26' },
  { version: '0.5.17', pkg: 'solc-0.5.17' },
  { version: '0.6.12', pkg: 'solc-0.6.12' },
  { version: '0.7.6', pkg: 'solc-0.7.6' },
  { version: '0.8.30', pkg: 'solc' },
];

let installedCache: InstalledCompiler[] | null = null;

/** Compilers bundled in node_modules (a trimmed install may lack some), plus releases installed
 *  on demand into the solc cache, oldest first. */
export function installedCompilers(): InstalledCompiler[] {
  if (installedCache) return installedCache;
  const bundled = CANDIDATES.filter((c) => {
    try {
      const pj = require(`${c.pkg}/package.json`) as { version?: string };
      return pj.version === c.version;
    } catch {
      return false;
    }
  });
  const have = new Set(bundled.map((c) => c.version));
  const cached = cachedCompilers()
    .filter((c) => !have.has(c.version))
    .map((c) => ({ version: c.version, pkg: 'solc', soljson: c.soljson }));
  installedCache = [...bundled, ...cached].sort((a, b) => semver.compare(a.version, b.version));
  return installedCache;
}

/** Forget the list above (after an install, or when another process may have added one). */
export function refreshInstalledCompilers(): InstalledCompiler[] {
  installedCache = null;
  return installedCompilers();
}

/** Releases that ship with the package (work offline after npm install). */
export function bundledCompilers(): InstalledCompiler[] {
  return installedCompilers().filter((c) => !c.soljson);
}

/** Source with comments and string literals blanked (same length, newlines kept). */
export function stripCommentsAndStrings(src: string): string {
  let out = '';
  let i = 0;
  const n = src.length;
  while (i < n) {
    const c = src[i];
    const d = src[i + 1];
    if (c === '/' && d === '/') {
      while (i < n && src[i] !== '\n') {
        out += ' ';
        i++;
      }
    } else if (c === '/' && d === '*') {
      out += '  ';
      i += 2;
      while (i < n && !(src[i] === '*' && src[i + 1] === '/')) {
        out += src[i] === '\n' ? '\n' : ' ';
        i++;
      }
      if (i < n) {
        out += '  ';
        i += 2;
      }
    } else if (c === '"' || c === "'") {
      out += c;
      i++;
      while (i < n && src[i] !== c && src[i] !== '\n') {
        if (src[i] === '\\' && i + 1 < n) {
          out += ' ';
          i++;
        }
        out += ' ';
        i++;
      }
      if (i < n) {
        out += src[i];
        i++;
      }
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

export interface PragmaInfo {
  /** Range text(s) as written, joined with a space when a file has several (they all apply). */
  text: string | null;
  /** Each `pragma solidity ...;` statement: its range text and character span. */
  statements: Array<{ range: string; start: number; end: number; line: number }>;
}

export function extractPragma(source: string): PragmaInfo {
  const clean = stripCommentsAndStrings(source);
  const re = /\bpragma\s+solidity\s+([^;]+);/g;
  const statements: PragmaInfo['statements'] = [];
  let m: RegExpExecArray | null;
  while ((m = re.exec(clean))) {
    const range = source
      .slice(m.index, m.index + m[0].length)
      .replace(/^pragma\s+solidity\s+/, '')
      .replace(/;$/, '')
      .trim();
    const line = clean.slice(0, m.index).split('\n').length;
    statements.push({ range, start: m.index, end: m.index + m[0].length, line });
  }
  return { text: statements.length ? statements.map((s) => s.range).join(' ') : null, statements };
}

/** Solidity writes ranges semver understands, except for spacing such as ">= 0.4.22" and "^ 0.4.0". */
function normalizeRange(range: string): string {
  return range
    .replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

export interface CompilerChoice {
  /** Installed compilers to try, best first. Empty when none fits. */
  candidates: InstalledCompiler[];
  /** Why the first candidate was chosen, or why none can be. */
  reason: string;
  /** True when the compiled copy must have its pragma blanked (pinned version not installed). */
  blankPragma: boolean;
  pragma: string | null;
  ok: boolean;
}

function list(cs: InstalledCompiler[]): string {
  return cs.map((c) => c.version).join(', ');
}

/**
 * Resolves a source's pragma to installed compilers. Ranges pick the newest satisfying release
 * (bug fixes) and keep older satisfying minors as fallbacks; exact pins are honoured when the
 * release is installed, otherwise the nearest installed release of the same minor series is used
 * (pragma blanked in the compiled copy so offsets stay exact); no pragma tries newest first.
 */
export function chooseCompiler(source: string, installed: InstalledCompiler[] = installedCompilers()): CompilerChoice {
  const pragma = extractPragma(source);
  if (installed.length === 0) {
    return {
      candidates: [],
      reason: 'no solc compiler is installed (node_modules lacks solc and its aliases)',
      blankPragma: false,
      pragma: pragma.text,
      ok: false,
    };
  }
  const desc = [...installed].sort((a, b) => semver.rcompare(a.version, b.version));
  if (!pragma.text) {
    // Unversioned code is usually either current or from the 0.4 era the benchmarks come
    // from, so after the newest compiler try the newest 0.4, then the series in between.
    const series = oneMinorEach(desc);
    const old = series.filter((c) => semver.lt(c.version, '0.5.0'));
    const order = [
      series[0],
      ...old,
      ...series
        .slice(1)
        .filter((c) => !old.includes(c))
        .reverse(),
    ];
    return {
      candidates: order,
      reason: `no pragma solidity: tried the newest installed compiler first (${desc[0].version}), then other series if it failed`,
      blankPragma: false,
      pragma: null,
      ok: true,
    };
  }
  // The same range written in several files of a build counts once.
  const ranges = [...new Set(pragma.statements.map((s) => normalizeRange(s.range)))];
  for (const r of ranges) {
    if (!semver.validRange(r)) {
      return {
        candidates: [],
        reason: `pragma solidity ${pragma.text}: "${r}" is not a valid version range`,
        blankPragma: false,
        pragma: pragma.text,
        ok: false,
      };
    }
  }
  const satisfying = desc.filter((c) => ranges.every((r) => semver.satisfies(c.version, r)));
  if (satisfying.length) {
    const exact = exactPin(ranges) === first0(satisfying);
    const first = satisfying[0];
    const reason = exact
      ? `pragma ${pragma.text} pins ${first.version}, which is installed`
      : `pragma ${pragma.text}: ${first.version} is the newest installed compiler that satisfies it` +
        (oneMinorEach(satisfying).length > 1 ? ` (fallbacks: ${list(oneMinorEach(satisfying).slice(1))})` : '');
    return { candidates: oneMinorEach(satisfying), reason, blankPragma: false, pragma: pragma.text, ok: true };
  }
  // An exact pin of a release we do not ship: the same minor series is source-compatible.
  const pin = exactPin(ranges);
  if (pin) {
    const sameMinor = installed.filter(
      (c) => semver.major(c.version) === semver.major(pin) && semver.minor(c.version) === semver.minor(pin),
    );
    if (sameMinor.length) {
      sameMinor.sort(
        (a, b) =>
          Math.abs(semver.patch(a.version) - semver.patch(pin)) - Math.abs(semver.patch(b.version) - semver.patch(pin)) ||
          semver.rcompare(a.version, b.version),
      );
      return {
        candidates: [sameMinor[0]],
        reason: `pragma ${pragma.text} pins ${pin}, which is not installed; used ${sameMinor[0].version}, the nearest installed ${semver.major(pin)}.${semver.minor(pin)}.x release (pragma ignored for this compile)`,
        blankPragma: true,
        pragma: pragma.text,
        ok: true,
      };
    }
  }
  return {
    candidates: [],
    reason: `pragma ${pragma.text}: no installed compiler satisfies it; installed: ${list(installed)}`,
    blankPragma: false,
    pragma: pragma.text,
    ok: false,
  };
}

const first0 = (cs: InstalledCompiler[]) => cs[0]?.version ?? null;

/** The one release the ranges pin exactly ("=0.5.16" or "0.5.16"), when the other ranges allow it. */
export function exactPin(ranges: string[]): string | null {
  const pins = [...new Set(ranges.map((r) => semver.valid(r.replace(/^=/, ''))).filter((v): v is string => v !== null))];
  if (pins.length !== 1) return null;
  return ranges.every((r) => semver.satisfies(pins[0], r)) ? pins[0] : null;
}

/** Normalized ranges of a set of sources (a build: a file and everything it imports). */
export function pragmaRanges(sources: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const s of sources) for (const st of extractPragma(s).statements) out.add(normalizeRange(st.range));
  return [...out];
}

/** One text holding every distinct pragma of a build, for chooseCompiler. */
export function pragmaText(ranges: string[]): string {
  return ranges.map((r) => `pragma solidity ${r};`).join('\n');
}

/** Newest release of each minor series, in the given (descending) order. */
function oneMinorEach(desc: InstalledCompiler[]): InstalledCompiler[] {
  const seen = new Set<string>();
  const out: InstalledCompiler[] = [];
  for (const c of desc) {
    const k = `${semver.major(c.version)}.${semver.minor(c.version)}`;
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(c);
  }
  return out;
}

/** The source with every pragma solidity statement replaced by spaces (offsets unchanged). */
export function blankPragmas(source: string): string {
  const p = extractPragma(source);
  let out = source;
  for (const s of p.statements) out = out.slice(0, s.start) + ' '.repeat(s.end - s.start) + out.slice(s.end);
  return out;
}
