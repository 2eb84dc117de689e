// Parsing with error recovery. @solidity-parser/parser's tolerant mode still throws on many
// broken inputs, and one typo should not hide every finding in the rest of the file. On a
// failure we blank out (with spaces, keeping newlines so every line number stays exact) the
// smallest top-level member or contract that contains the reported error, and parse again.
import { parseSolidityText } from '../solidity-parser.ts';
import type { AST } from './ast.ts';

export interface ParseDiagnostic {
  kind: 'parse_error';
  message: string;
  line: number | null;
  column: number | null;
  /** Lines [from, to] that were skipped to recover, when recovery was needed. */
  skipped?: { from: number; to: number } | null;
}

export interface ParseResult {
  ast: AST.SourceUnit;
  diagnostics: ParseDiagnostic[];
  /** True when parts of the source were skipped. */
  partial: boolean;
}

const OPTS = { loc: true, range: true, tolerant: true } as const;
const MAX_RECOVERIES = 20;

interface RawError {
  message: string;
  line: number | null;
  column: number | null;
}

/** One error as the parser reports it (tolerant-mode `errors`, a ParserError's `errors`). */
interface ParserErrorItem {
  message?: unknown;
  line?: number | null;
  column?: number | null;
}

const rawError = (e: ParserErrorItem): RawError => ({ message: String(e.message), line: e.line ?? null, column: e.column ?? null });

function tryParse(source: string): { ast: AST.SourceUnit | null; errors: RawError[] } {
  try {
    // The parser's own result type: the SourceUnit, with `errors` in tolerant mode.
    const ast = parseSolidityText(source, OPTS) as AST.SourceUnit & { errors?: ParserErrorItem[] };
    const errs: RawError[] = (ast.errors ?? []).map(rawError);
    return { ast, errors: errs };
  } catch {
    // Tolerant mode crashed; a strict parse gives the real syntax error and its position.
    try {
      parseSolidityText(source, { loc: true, range: true });
      return { ast: null, errors: [{ message: 'parser failed on this input', line: null, column: null }] };
    } catch (e: unknown) {
      const err = e as { errors?: unknown; message?: unknown } | null;
      const list: RawError[] =
        Array.isArray(err?.errors) && err.errors.length
          ? (err.errors as ParserErrorItem[]).map(rawError)
          : [{ message: String(err?.message ?? e), line: null, column: null }];
      return { ast: null, errors: list };
    }
  }
}

/** Spans [start, end) of depth-0 and depth-1 items (contracts and their members), skipping strings and comments. */
function structuralSpans(src: string): Array<{ start: number; end: number; depth: number }> {
  const spans: Array<{ start: number; end: number; depth: number }> = [];
  let depth = 0;
  const itemStart: number[] = [0, 0];
  const n = src.length;
  let i = 0;
  while (i < n) {
    const c = src[i];
    if (c === '/' && src[i + 1] === '/') {
      while (i < n && src[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && src[i + 1] === '*') {
      const e = src.indexOf('*/', i + 2);
      i = e < 0 ? n : e + 2;
      continue;
    }
    if (c === '"' || c === "'") {
      i++;
      while (i < n && src[i] !== c && src[i] !== '\n') i += src[i] === '\\' ? 2 : 1;
      i++;
      continue;
    }
    if (c === '{') {
      depth++;
      if (depth === 1) itemStart[1] = i + 1;
    } else if (c === '}') {
      if (depth === 2) {
        spans.push({ start: itemStart[1], end: i + 1, depth: 1 });
        itemStart[1] = i + 1;
      }
      if (depth === 1) {
        spans.push({ start: itemStart[0], end: i + 1, depth: 0 });
        itemStart[0] = i + 1;
      }
      depth = Math.max(0, depth - 1);
    } else if (c === ';') {
      if (depth === 1) {
        spans.push({ start: itemStart[1], end: i + 1, depth: 1 });
        itemStart[1] = i + 1;
      } else if (depth === 0) {
        spans.push({ start: itemStart[0], end: i + 1, depth: 0 });
        itemStart[0] = i + 1;
      }
    }
    i++;
  }
  if (itemStart[0] < n && depth > 0) spans.push({ start: itemStart[0], end: n, depth: 0 });
  return spans;
}

function offsetOfLine(src: string, line: number, column: number): number {
  let off = 0;
  for (let l = 1; l < line; l++) {
    const nl = src.indexOf('\n', off);
    if (nl < 0) return src.length;
    off = nl + 1;
  }
  return Math.min(src.length, off + Math.max(0, column));
}

function lineOf(src: string, off: number): number {
  let line = 1;
  for (let i = 0; i < off && i < src.length; i++) if (src.charCodeAt(i) === 10) line++;
  return line;
}

function blank(src: string, start: number, end: number): string {
  return src.slice(0, start) + src.slice(start, end).replace(/[^\n\r]/g, ' ') + src.slice(end);
}

/** The first contract member that does not parse on its own (for errors without a position). */
function locateBadMember(src: string): { start: number; end: number; depth: number } | null {
  const spans = structuralSpans(src).filter((sp) => sp.depth === 1 && src.slice(sp.start, sp.end).trim() !== '');
  for (const sp of spans.slice(0, 400)) {
    const member = src.slice(sp.start, sp.end);
    if (/^\s*}\s*$/.test(member)) continue;
    try {
      parseSolidityText(`contract __Probe {\n${member}\n}`, {});
    } catch {
      return sp;
    }
  }
  return null;
}

/** Parses Solidity, recovering from syntax errors by skipping the members that contain them. */
export function parseSolidity(source: string): ParseResult {
  const diagnostics: ParseDiagnostic[] = [];
  let text = source;
  for (let attempt = 0; attempt <= MAX_RECOVERIES; attempt++) {
    const r = tryParse(text);
    if (r.ast && r.errors.length === 0) return { ast: r.ast, diagnostics, partial: attempt > 0 };
    if (r.ast && r.errors.every((e) => e.line !== null)) {
      // Tolerant mode produced a tree and says where the errors are: keep it.
      for (const e of r.errors)
        diagnostics.push({ kind: 'parse_error', message: e.message, line: e.line, column: e.column, skipped: null });
      return { ast: r.ast, diagnostics, partial: true };
    }
    const err = r.errors[0] ?? { message: 'syntax error', line: null, column: null };
    let hit: { start: number; end: number; depth: number } | null | undefined;
    if (err.line !== null) {
      const spans = structuralSpans(text);
      const at = offsetOfLine(text, err.line, err.column ?? 0);
      hit =
        spans.find((sp) => sp.depth === 1 && at >= sp.start && at < sp.end && text.slice(sp.start, sp.end).trim() !== '') ??
        spans.find((sp) => sp.depth === 0 && at >= sp.start && at < sp.end && text.slice(sp.start, sp.end).trim() !== '');
    } else {
      hit = locateBadMember(text);
    }
    if (!hit) {
      diagnostics.push({ kind: 'parse_error', message: err.message, line: err.line, column: err.column, skipped: null });
      if (r.ast) return { ast: r.ast, diagnostics, partial: true };
      break;
    }
    const lead = text.slice(hit.start, hit.end).length - text.slice(hit.start, hit.end).trimStart().length;
    const from = lineOf(text, hit.start + lead);
    const to = lineOf(text, hit.end - 1);
    diagnostics.push({ kind: 'parse_error', message: err.message, line: err.line ?? from, column: err.column, skipped: { from, to } });
    text = blank(text, hit.start, hit.end);
  }
  // Nothing parseable: an empty unit keeps every consumer working.
  const lines = source.split('\n').length;
  return {
    ast: {
      type: 'SourceUnit',
      children: [],
      loc: { start: { line: 1, column: 0 }, end: { line: lines, column: 0 } },
      range: [0, Math.max(0, source.length - 1)],
    },
    diagnostics,
    partial: true,
  };
}

/** Text of `pragma solidity ...;` (first one), or null. */
export function solidityPragma(ast: AST.SourceUnit | null | undefined): string | null {
  for (const c of ast?.children ?? []) if (c.type === 'PragmaDirective' && c.name === 'solidity') return String(c.value);
  return null;
}
