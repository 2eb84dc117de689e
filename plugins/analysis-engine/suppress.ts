// In-source suppressions (decisions.md, "Added 2026-11-25"). A finding the developer has reviewed
// and silenced with a comment is not counted or failed on; it stays in the answer under
// `suppressed` (and in SARIF with a `suppressions` entry) so nothing disappears without a trace.
//
//   // vigil-disable-next-line [name ...] [-- reason]     the next line
//   // vigil-disable-line [name ...] [-- reason]          this line
//   // vigil-disable-start [name ...] / vigil-disable-end [name ...]   a range
//
// A name is a finding id, a detector id (tx-origin), a category (access_control) or an SWC id;
// no name means every finding. Slither's `slither-disable-next-line|start|end DETECTOR[,...]`
// (a name or `all`, as Slither reads them) and solhint's `solhint-disable-next-line|line|
// previous-line RULE[,...]` and `solhint-disable` / `solhint-enable` (no rule = all of solhint's
// rules) are honoured for the vigil detectors that report the same issue (suppress-rules.ts).
// A next-line directive on the line above a function or modifier covers the whole declaration,
// as Slither's does (its results start at the function).
//
// Pure: `applySuppressions(result, sources)` reads comments from the sources it is given and
// moves matching findings; it never reads files. The engine applies it to the source it analysed
// when asked (`suppress: true`, as REST, MCP and the contract_audit skill ask); the CLI applies it
// with the project's files.
import type { AnalysisResult } from '../../kernel/contracts/analysis.ts';
import type { Finding, Severity } from '../../schemas/finding.ts';
import { outlineSource } from '../../lib/analysis/outline.ts';
import { foreignAllTokens, foreignTokens, type ForeignTool } from './suppress-rules.ts';

export type DirectiveKind =
  | 'vigil-disable-next-line'
  | 'vigil-disable-line'
  | 'vigil-disable-start'
  | 'slither-disable-next-line'
  | 'slither-disable-start'
  | 'solhint-disable-next-line'
  | 'solhint-disable-line'
  | 'solhint-disable-previous-line'
  | 'solhint-disable';

/** One stretch of lines in which findings matching `tokens` (or all, when null) are suppressed. */
export interface SuppressionSpan {
  directive: DirectiveKind;
  /** 1-based line of the comment that made it. */
  line: number;
  from: number;
  to: number;
  /** Names as written in the comment (empty: all). */
  rules: string[];
  /** Normalised match tokens; null = every finding. Tokens ending in `*` match by prefix. */
  tokens: string[] | null;
  justification?: string;
}

export interface Suppression {
  kind: 'inSource';
  directive: DirectiveKind;
  line: number;
  rules: string[];
  justification?: string;
}

export type SuppressedFinding = Finding & { suppression: Suppression };

/** file -> source text, as a map, a record or a reader. */
export type SourceLookup = Map<string, string> | Record<string, string> | ((file: string) => string | null | undefined);

interface Comment {
  text: string;
  line: number;
  endLine: number;
}

/** Comments of a Solidity source with their lines; string literals are skipped, so `"// x"` is not one. */
export function scanComments(source: string): Comment[] {
  const out: Comment[] = [];
  let line = 1;
  const n = source.length;
  for (let i = 0; i < n; i++) {
    const c = source[i];
    if (c === '\n') {
      line++;
      continue;
    }
    if (c === '"' || c === "'") {
      for (i++; i < n && source[i] !== c; i++) {
        if (source[i] === '\\') i++;
        else if (source[i] === '\n') {
          line++;
          break; // unterminated string: stop at the line end rather than swallow the file
        }
      }
      continue;
    }
    if (c === '/' && source[i + 1] === '/') {
      const end = source.indexOf('\n', i);
      const stop = end === -1 ? n : end;
      out.push({ text: source.slice(i + 2, stop).replace(/\r$/, ''), line, endLine: line });
      i = stop - 1;
      continue;
    }
    if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? n : end;
      const body = source.slice(i + 2, stop);
      const start = line;
      for (const ch of body) if (ch === '\n') line++;
      out.push({ text: body, line: start, endLine: line });
      i = end === -1 ? n : end + 1;
    }
  }
  return out;
}

export function normToken(s: string): string {
  return s.trim().toLowerCase().replace(/_/g, '-');
}

const DIRECTIVE =
  /^[\s*/!]*((?:vigil|slither|solhint)-(?:disable-next-line|disable-previous-line|disable-line|disable-start|disable-end|disable|enable))(?=$|[\s,])(.*)$/s;

function splitRules(rest: string): { rules: string[]; justification?: string } {
  const flat = rest.replace(/\*\/\s*$/, '').replace(/\s*\n\s*\*?/g, ' ');
  const dash = flat.indexOf('--');
  const list = dash === -1 ? flat : flat.slice(0, dash);
  const justification = dash === -1 ? undefined : flat.slice(dash + 2).trim() || undefined;
  const rules = list
    .split(/[\s,]+/)
    .map((r) => r.trim())
    .filter(Boolean);
  return { rules, ...(justification ? { justification } : {}) };
}

/** The suppression spans a source's comments declare. */
export function parseSuppressions(source: string): SuppressionSpan[] {
  const lastLine = source.split('\n').length;
  let outline: ReturnType<typeof outlineSource> | null = null;
  const functionAt = (line: number) => {
    outline ??= outlineSource(source);
    for (const c of outline.contracts) for (const f of c.functions) if (f.line === line) return f;
    return null;
  };
  const spans: SuppressionSpan[] = [];
  // Open ranges per family (start/end and solhint-disable/enable), keyed by rule (or '*' for all).
  const open: Record<'vigil' | 'slither' | 'solhint', Map<string, SuppressionSpan>> = {
    vigil: new Map(),
    slither: new Map(),
    solhint: new Map(),
  };

  const tokensFor = (family: 'vigil' | ForeignTool, rules: string[]): string[] | null => {
    if (family === 'vigil') return rules.length ? rules.map(normToken) : null;
    // Slither ignores a bare directive; `all` is its "every detector".
    if (family === 'slither' && rules.length === 0) return [];
    if (rules.length === 0 || rules.some((r) => r.toLowerCase() === 'all')) return foreignAllTokens(family).map(normToken);
    return rules.flatMap((r) => foreignTokens(family, r)).map(normToken);
  };
  const pointSpan = (
    directive: DirectiveKind,
    family: 'vigil' | ForeignTool,
    c: Comment,
    target: number,
    rules: string[],
    justification?: string,
    wholeDeclaration = false,
  ) => {
    if (target < 1 || target > lastLine) return;
    const tokens = tokensFor(family, rules);
    if (tokens && tokens.length === 0) return;
    const fn = wholeDeclaration ? functionAt(target) : null;
    spans.push({
      directive,
      line: c.line,
      from: target,
      to: fn ? fn.end_line : target,
      rules,
      tokens,
      ...(justification ? { justification } : {}),
    });
  };
  const openRange = (directive: DirectiveKind, family: 'vigil' | ForeignTool, c: Comment, rules: string[], justification?: string) => {
    const keys = rules.length ? rules : ['*'];
    for (const key of keys) {
      const one = key === '*' ? [] : [key];
      const tokens = tokensFor(family, one);
      if (tokens && tokens.length === 0) continue;
      if (open[family].has(key.toLowerCase())) continue; // already open: the first start wins
      const span: SuppressionSpan = {
        directive,
        line: c.line,
        from: c.line,
        to: lastLine,
        rules: one,
        tokens,
        ...(justification ? { justification } : {}),
      };
      open[family].set(key.toLowerCase(), span);
      spans.push(span);
    }
  };
  const closeRange = (family: 'vigil' | ForeignTool, c: Comment, rules: string[]) => {
    const keys = rules.length ? rules.map((r) => r.toLowerCase()) : [...open[family].keys()];
    for (const key of keys) {
      const span = open[family].get(key);
      if (!span) continue;
      span.to = c.endLine;
      open[family].delete(key);
    }
  };

  for (const c of scanComments(source)) {
    const m = DIRECTIVE.exec(c.text);
    if (!m) continue;
    const name = m[1].toLowerCase();
    const family = name.split('-')[0] as 'vigil' | ForeignTool;
    const { rules, justification } = splitRules(m[2]);
    switch (name) {
      case 'vigil-disable-next-line':
      case 'slither-disable-next-line':
      case 'solhint-disable-next-line':
        // solhint's own next-line is one line; Slither's (and ours) also cover a declaration below.
        pointSpan(name, family, c, c.endLine + 1, rules, justification, family !== 'solhint');
        break;
      case 'vigil-disable-line':
      case 'solhint-disable-line':
        pointSpan(name, family, c, c.line, rules, justification);
        break;
      case 'solhint-disable-previous-line':
        pointSpan(name, family, c, c.line - 1, rules, justification);
        break;
      case 'vigil-disable-start':
      case 'slither-disable-start':
      case 'solhint-disable':
        openRange(name, family, c, rules, justification);
        break;
      case 'vigil-disable-end':
      case 'slither-disable-end':
      case 'solhint-enable':
        closeRange(family, c, rules);
        break;
      default:
        break; // vigil-disable / vigil-enable / slither-disable-line: not directives of these tools
    }
  }
  return spans;
}

function findingTokens(f: Finding): string[] {
  return [f.id, f.detector, f.category, f.swc_id].filter((x): x is string => typeof x === 'string' && x !== '').map(normToken);
}

function matches(span: SuppressionSpan, keys: string[]): boolean {
  if (span.tokens === null) return true;
  return span.tokens.some((t) => (t.endsWith('*') ? keys.some((k) => k.startsWith(t.slice(0, -1))) : keys.includes(t)));
}

/** The span suppressing a finding, if any. */
export function suppressionFor(f: Finding, spans: SuppressionSpan[]): SuppressionSpan | null {
  const line = f.location.line;
  const keys = findingTokens(f);
  return spans.find((s) => line >= s.from && line <= s.to && matches(s, keys)) ?? null;
}

function lookup(sources: SourceLookup): (file: string) => string | null {
  if (typeof sources === 'function') return (f) => sources(f) ?? null;
  const get =
    sources instanceof Map
      ? (f: string) => sources.get(f)
      : (f: string) => (Object.prototype.hasOwnProperty.call(sources, f) ? sources[f] : undefined);
  const all = sources instanceof Map ? [...sources.values()] : Object.values(sources);
  // A single-source answer names its file as the caller chose; a finding without that name is still in it.
  return (f) => get(f) ?? (all.length === 1 ? all[0] : null);
}

const EMPTY = (): Record<Severity, number> => ({ CRITICAL: 0, HIGH: 0, MEDIUM: 0, LOW: 0, INFO: 0 });

/** Recomputes `summary` and `total_findings` from `findings` (after findings were moved out). */
export function recount(result: AnalysisResult): void {
  const summary = EMPTY();
  for (const f of result.findings) summary[f.severity]++;
  result.summary = summary;
  result.total_findings = result.findings.length;
}

/**
 * Moves findings silenced by comments in their source from `findings` to `suppressed` (each with
 * a `suppression` record), recounts the summary and sets `total_suppressed`. Idempotent.
 */
export function applySuppressions(result: AnalysisResult, sources: SourceLookup): AnalysisResult {
  const read = lookup(sources);
  const cache = new Map<string, SuppressionSpan[]>();
  const spansOf = (file: string) => {
    if (!cache.has(file)) {
      const src = read(file);
      cache.set(file, src ? parseSuppressions(src) : []);
    }
    return cache.get(file)!;
  };
  const kept: Finding[] = [];
  const suppressed: SuppressedFinding[] = Array.isArray(result.suppressed) ? (result.suppressed as SuppressedFinding[]) : [];
  for (const f of result.findings) {
    const span = suppressionFor(f, spansOf(f.location.file));
    if (!span) {
      kept.push(f);
      continue;
    }
    suppressed.push({
      ...f,
      suppression: {
        kind: 'inSource',
        directive: span.directive,
        line: span.line,
        rules: span.rules,
        ...(span.justification ? { justification: span.justification } : {}),
      },
    });
  }
  result.findings = kept;
  result.suppressed = suppressed;
  result.total_suppressed = suppressed.length;
  recount(result);
  return result;
}
