// Source-level plumbing for the fix engine: parsing with positions, text edits on character
// ranges, position mapping across edits, and the Solidity version facts a fix needs to emit
// syntax the selected compiler accepts.
import { parseSolidityText } from '../../lib/analysis/solidity-parser.ts';
import semver from 'semver';
import { chooseCompiler, extractPragma, stripCommentsAndStrings } from '../../lib/analysis/compiler/index.ts';
import { endOf, startOf, type AST, type Node } from '../../lib/analysis/static/ast.ts';

export interface Parsed {
  ast: AST.SourceUnit;
  source: string;
}

type ParserErrorItem = { message: string; line?: number };

/** Strict parse (the fix engine never rewrites code it cannot fully read). */
export function parseStrict(source: string): { ok: true; parsed: Parsed } | { ok: false; error: string } {
  try {
    // The parser's own result type: the SourceUnit, with `errors` in tolerant mode.
    const ast = parseSolidityText(source, { loc: true, range: true, tolerant: true }) as AST.SourceUnit & { errors?: ParserErrorItem[] };
    if (ast.errors && ast.errors.length) {
      const e = ast.errors[0];
      return { ok: false, error: `line ${e.line ?? '?'}: ${e.message}` };
    }
    return { ok: true, parsed: { ast, source } };
  } catch (e: unknown) {
    const err = e as { errors?: unknown; message?: unknown } | null;
    const list = Array.isArray(err?.errors) ? (err.errors as ParserErrorItem[]) : [];
    const first = list[0] ? `line ${list[0].line}: ${list[0].message}` : String(err?.message ?? e);
    return { ok: false, error: first };
  }
}

/** [start, end) of a node (the parser's range end is inclusive). */
export function span(n: Node): [number, number] {
  return [startOf(n), endOf(n) + 1];
}

export function lineOf(src: string, pos: number): number {
  let line = 1;
  for (let i = 0; i < pos && i < src.length; i++) if (src.charCodeAt(i) === 10) line++;
  return line;
}

export function lineStart(src: string, pos: number): number {
  return src.lastIndexOf('\n', pos - 1) + 1;
}

/** Leading whitespace of the line that holds `pos`. */
export function indentAt(src: string, pos: number): string {
  const ls = lineStart(src, pos);
  const m = /^[ \t]*/.exec(src.slice(ls));
  return m ? m[0] : '';
}

/** One indentation step as the file writes it (tabs, or the smallest space indent seen). */
export function indentUnit(src: string): string {
  if (/^\t/m.test(src)) return '\t';
  let min = Infinity;
  for (const m of src.matchAll(/^( +)\S/gm)) min = Math.min(min, m[1].length);
  return ' '.repeat(Number.isFinite(min) && min <= 8 ? min : 4);
}

export interface Edit {
  start: number;
  end: number;
  text: string;
}

/** A verbatim relocation inside one fix: source [from, to) now starts at `insertAt` + `offset` of that insertion's text. */
export interface Move {
  from: number;
  to: number;
  insertAt: number;
  offset: number;
}

export function overlaps(edits: Edit[]): boolean {
  const s = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  for (let i = 1; i < s.length; i++) {
    const a = s[i - 1];
    const b = s[i];
    if (b.start < a.end) return true;
  }
  return false;
}

/** Applies non-overlapping edits; insertions at the same point keep their given order. */
export function applyEdits(src: string, edits: Edit[]): string {
  const indexed = edits.map((e, i) => ({ ...e, i }));
  indexed.sort((a, b) => b.start - a.start || b.end - a.end || b.i - a.i);
  let out = src;
  for (const e of indexed) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/** Maps a position of the source before `edits` to the source after them. */
export function mapPosition(p: number, edits: Edit[], moves: Move[] = []): number {
  for (const m of moves) {
    if (p >= m.from && p < m.to)
      return (
        mapPosition(
          m.insertAt,
          edits.filter((e) => !(e.start === m.insertAt && e.end === m.insertAt)),
          [],
        ) +
        m.offset +
        (p - m.from)
      );
  }
  // Text inserted exactly at p lands before the character at p, so it shifts p too.
  let delta = 0;
  let inside: number | null = null;
  for (const e of edits) {
    if (e.end <= p) delta += e.text.length - (e.end - e.start);
    else if (e.start <= p && p < e.end) inside = e.start;
  }
  if (inside !== null) {
    let d = 0;
    for (const e of edits) if (e.end <= inside) d += e.text.length - (e.end - e.start);
    return inside + d;
  }
  return p + delta;
}

/** Identifiers used anywhere in the source (to pick names that cannot clash). */
export function usedIdentifiers(src: string): Set<string> {
  return new Set(stripCommentsAndStrings(src).match(/[A-Za-z_$][\w$]*/g) ?? []);
}

export function freshName(base: string, used: Set<string>): string {
  let name = base;
  for (let i = 2; used.has(name); i++) name = `${base}${i}`;
  used.add(name);
  return name;
}

export interface VersionFacts {
  /** Compiler the service compiles this source with (null when none fits). */
  compiler: string | null;
  /** Lowest version the pragma admits (null without a pragma). */
  pragmaMin: string | null;
  /** Exact version when the pragma pins one. */
  pinned: string | null;
  pragma: string | null;
}

export function versionFacts(source: string): VersionFacts {
  const choice = chooseCompiler(source);
  const pragma = extractPragma(source);
  const compiler = choice.ok && choice.candidates[0] ? choice.candidates[0].version : null;
  let pragmaMin: string | null = null;
  let pinned: string | null = null;
  if (pragma.text) {
    const ranges = pragma.statements.map((s) => s.range.replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1').trim());
    try {
      const mins = ranges.map((r) => semver.minVersion(r)?.version).filter((v): v is string => !!v);
      pragmaMin = mins.sort(semver.rcompare)[0] ?? null;
    } catch {
      pragmaMin = null;
    }
    if (ranges.length === 1) pinned = semver.valid(ranges[0].replace(/^=/, ''));
  }
  return { compiler, pragmaMin, pinned, pragma: pragma.text };
}

/** The version whose syntax a fix must respect: the selected compiler (or the pin, or the pragma floor). */
export function effectiveVersion(v: VersionFacts): string {
  return v.compiler ?? v.pinned ?? v.pragmaMin ?? '0.8.30';
}
