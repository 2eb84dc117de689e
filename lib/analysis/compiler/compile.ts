// Offline compilation of one Solidity source with the installed solc-js that its pragma selects.
// `compileTask` is what runs inside a kernel pool worker (compilers stay loaded per worker);
// `compileSolidity` sends it there under the caller's deadline, so a compiler stuck on a
// pathological input is killed with its worker instead of blocking the event loop.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import type { WorkerPool } from '../../../kernel/index.ts';
import { loadCompiler } from './solc-loader.ts';
import { sourceMemo } from '../source-memo.ts';
import { blankPragmas, chooseCompiler, installedCompilers, type InstalledCompiler } from './versions.ts';

export const COMPILE_MODULE = fileURLToPath(import.meta.url);

export interface CompilerDiagnostic {
  severity: 'error' | 'warning' | 'info';
  /** ParserError, TypeError, DeclarationError, Warning, ... */
  type: string;
  code: string | null;
  message: string;
  formatted: string;
  file: string | null;
  line: number | null;
  column: number | null;
  end_line: number | null;
  /** Notes attached to the message (the SMTChecker puts counterexamples and call stacks here). */
  secondary?: string[];
}

export interface CompiledContract {
  file: string;
  abi: unknown[];
  bytecode: string;
  deployedBytecode: string;
  sourceMap: string;
  deployedSourceMap: string;
  storageLayout?: unknown;
}

export interface CompileRequest {
  source: string;
  /** Display name; findings and diagnostics use it. */
  file: string;
  /** Absolute path when read from disk: relative imports resolve next to it. */
  absPath?: string | null;
  /** Directories imports may be read from (the allowed contract roots). */
  roots?: string[];
  /** Force one installed compiler instead of resolving the pragma. */
  compiler?: string;
  /** 'full': abi, bytecode, source maps, storage layout; 'check': analysis only (fastest). */
  outputs?: 'full' | 'check';
  ast?: boolean;
  /** settings.modelChecker (solc >= 0.7). */
  modelChecker?: Record<string, unknown>;
  /** Prefix `pragma experimental SMTChecker;` (solc 0.5-0.7 enable the checker that way). */
  smtPragma?: boolean;
  /** How many compiler series to try when the first fails (default 3). */
  maxAttempts?: number;
}

export interface CompileResult {
  ok: boolean;
  /** Installed compiler release used, e.g. "0.4.26"; null when none could be used. */
  compiler: string | null;
  compilerLong: string | null;
  /** Why this compiler (or why none). */
  reason: string;
  pragma: string | null;
  attempts: Array<{ compiler: string; ok: boolean; first_error: string | null }>;
  errors: CompilerDiagnostic[];
  warnings: CompilerDiagnostic[];
  missingImports: string[];
  contracts: Record<string, CompiledContract>;
  /** solc AST of the submitted source (compact AST, or legacyAST for compilers without one). */
  ast?: unknown;
  /** Key of the submitted source in solc's output. */
  sourceKey: string;
  durationMs: number;
}

const SMT_PRAGMA = 'pragma experimental SMTChecker; ';

/** Maps UTF-8 byte offsets (what solc reports) to 1-based lines and 0-based columns. */
export class LineIndex {
  private starts: number[] = [0];
  private buf: Buffer;
  constructor(text: string) {
    this.buf = Buffer.from(text, 'utf8');
    for (let i = 0; i < this.buf.length; i++) if (this.buf[i] === 0x0a) this.starts.push(i + 1);
  }
  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    const o = Math.max(0, Math.min(offset, this.buf.length));
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= o) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }
  columnOf(offset: number): number {
    const line = this.lineOf(offset);
    return Buffer.from(this.buf.subarray(this.starts[line - 1], Math.max(this.starts[line - 1], offset))).toString('utf8').length;
  }
  get lineCount(): number {
    return this.starts.length;
  }
}

function isInside(p: string, roots: string[]): boolean {
  return roots.some((r) => {
    const rel = path.relative(r, p);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  });
}

function rootsOf(req: CompileRequest): string[] {
  const dir = req.absPath ? path.dirname(req.absPath) : null;
  return (req.roots && req.roots.length ? req.roots : dir ? [dir] : []).map((r) => path.resolve(r));
}

/**
 * The folder solc's virtual file system is rooted at: the outermost allowed root holding the
 * file. solc normalizes "../lib/X.sol" against the importing file's key and drops ".." that
 * climbs above the key's root, so keys must carry the file's path below that folder.
 */
function importBase(req: CompileRequest): string | null {
  if (!req.absPath) return null;
  const holding = rootsOf(req).filter((r) => isInside(req.absPath!, [r])).sort((a, b) => a.length - b.length);
  return holding[0] ?? path.dirname(req.absPath);
}

/** Key of the submitted file in solc's standard-JSON input (and in its output). */
export function sourceKeyFor(req: Pick<CompileRequest, 'absPath' | 'file' | 'roots'>): string {
  const base = importBase(req as CompileRequest);
  if (base && req.absPath) return path.relative(base, req.absPath).split(path.sep).join('/');
  return path.basename(req.file || 'Contract.sol') || 'Contract.sol';
}

/** Import resolver over the allowed roots; records what it could not find. */
function makeImportResolver(req: CompileRequest, missing: string[], loaded: Map<string, string>) {
  const baseDir = importBase(req);
  const roots = rootsOf(req);
  const realRoots = roots.map((r) => {
    try {
      return fs.realpathSync(r);
    } catch {
      return r;
    }
  });
  return (importPath: string): { contents: string } | { error: string } => {
    const fail = (why: string) => {
      if (!missing.includes(importPath)) missing.push(importPath);
      return { error: why };
    };
    if (!baseDir) {
      return fail(`import "${importPath}" cannot be resolved: the contract was submitted as text, so imports have nowhere to come from (submit it by path, or flatten it)`);
    }
    const candidates: string[] = [path.resolve(baseDir, importPath)];
    if (!importPath.startsWith('.')) {
      // Package-style imports (@openzeppelin/...): node_modules and lib/ folders from the
      // file's folder up to the root.
      let dir = path.dirname(req.absPath!);
      for (;;) {
        candidates.push(path.join(dir, 'node_modules', importPath), path.join(dir, 'lib', importPath));
        const up = path.dirname(dir);
        if (up === dir || !isInside(up, roots)) break;
        dir = up;
      }
    }
    for (const c of candidates) {
      let real: string;
      try {
        real = fs.realpathSync(c);
      } catch {
        continue;
      }
      if (!isInside(real, realRoots)) return fail(`import "${importPath}" resolves to ${c}, which is outside the allowed contract roots`);
      // Only Solidity is read: compiler errors quote what they parse, so importing `.env` would echo it.
      if (!/\.sol$/i.test(real)) return fail(`import "${importPath}" is not a .sol file; only Solidity files are imported`);
      try {
        const st = fs.statSync(real);
        if (!st.isFile()) continue;
        if (st.size > 4 * 1024 * 1024) return fail(`import "${importPath}" is larger than 4 MiB`);
        const contents = fs.readFileSync(real, 'utf8');
        loaded.set(importPath, contents);
        return { contents };
      } catch (e) {
        return fail(`import "${importPath}" could not be read: ${(e as Error).message}`);
      }
    }
    return fail(`import "${importPath}" not found under ${baseDir} or in node_modules/lib folders inside the allowed roots`);
  };
}

function outputSelection(req: CompileRequest) {
  const perContract = req.outputs === 'check' ? ['abi'] : [
    'abi',
    'evm.bytecode.object',
    'evm.bytecode.sourceMap',
    'evm.deployedBytecode.object',
    'evm.deployedBytecode.sourceMap',
    'storageLayout',
  ];
  return { '*': { '*': perContract, '': req.ast ? ['ast', 'legacyAST'] : [] } };
}

interface Attempt {
  out: any;
  compiler: InstalledCompiler;
  longVersion: string;
  prefixBytes: number;
  mainKey: string;
}

function runOnce(req: CompileRequest, c: InstalledCompiler, blank: boolean, missing: string[], loaded: Map<string, string>): Attempt {
  const solc = loadCompiler(c.version);
  const mainKey = sourceKeyFor(req);
  let content = blank ? blankPragmas(req.source) : req.source;
  let prefixBytes = 0;
  const usePragma = req.smtPragma && semver.lt(c.version, '0.8.0');
  if (usePragma) {
    // Same line, no newline: every line number of the submitted source stays the same.
    content = SMT_PRAGMA + content;
    prefixBytes = Buffer.byteLength(SMT_PRAGMA);
  }
  const settings: Record<string, unknown> = { outputSelection: outputSelection(req) };
  if (req.modelChecker && semver.gte(c.version, '0.7.0')) settings.modelChecker = req.modelChecker;
  const input = JSON.stringify({ language: 'Solidity', sources: { [mainKey]: { content } }, settings });
  const raw = solc.compileStandard(input, makeImportResolver(req, missing, loaded));
  let out: any;
  try {
    out = JSON.parse(raw);
  } catch {
    out = { errors: [{ severity: 'error', type: 'CompilerError', message: `solc ${c.version} returned output that is not JSON` }] };
  }
  return { out, compiler: c, longVersion: solc.longVersion, prefixBytes, mainKey };
}

function diagnostics(a: Attempt, req: CompileRequest, loaded: Map<string, string>, blanked: boolean): { errors: CompilerDiagnostic[]; warnings: CompilerDiagnostic[] } {
  const mainIndex = new LineIndex(req.source);
  const indexes = new Map<string, LineIndex>();
  const errors: CompilerDiagnostic[] = [];
  const warnings: CompilerDiagnostic[] = [];
  for (const e of (a.out?.errors ?? []) as any[]) {
    const severity: CompilerDiagnostic['severity'] = e.severity === 'error' ? 'error' : e.severity === 'info' ? 'info' : 'warning';
    const code = e.errorCode != null ? String(e.errorCode) : null;
    // Noise that says nothing about the code: missing SPDX line; and our own blanked pragma.
    if (code === '1878' || (blanked && code === '3420')) continue;
    const formatted = String(e.formattedMessage ?? e.message ?? '');
    const d: CompilerDiagnostic = {
      severity,
      type: String(e.type ?? (severity === 'error' ? 'Error' : 'Warning')),
      code,
      message: String(e.message ?? formatted).trim(),
      formatted,
      file: null,
      line: null,
      column: null,
      end_line: null,
    };
    if (Array.isArray(e.secondarySourceLocations)) {
      d.secondary = e.secondarySourceLocations.map((x: any) => String(x?.message ?? '')).filter((x: string) => x.trim() !== '');
    }
    const loc = e.sourceLocation;
    let file: string | null = loc?.file ?? null;
    if (file === '' && a.mainKey) file = a.mainKey; // compilers before 0.4.11 use "" for the single source
    if (loc && file && typeof loc.start === 'number' && loc.start >= 0) {
      const isMain = file === a.mainKey;
      let idx: LineIndex | undefined;
      if (isMain) idx = mainIndex;
      else if (loaded.has(file)) {
        idx = indexes.get(file) ?? new LineIndex(loaded.get(file)!);
        indexes.set(file, idx);
      }
      const shift = isMain ? a.prefixBytes : 0;
      if (idx) {
        const s = Math.max(0, loc.start - shift);
        const en = Math.max(s, (loc.end ?? loc.start) - shift);
        d.line = idx.lineOf(s);
        d.column = idx.columnOf(s);
        d.end_line = idx.lineOf(Math.max(s, en - 1));
      }
      d.file = isMain ? req.file : file;
    } else {
      // Old compilers only put "file:line:col:" in the formatted message.
      const m = /^([^\s:]+):(\d+):(\d+):/.exec(formatted);
      if (m) {
        d.file = m[1] === a.mainKey ? req.file : m[1];
        d.line = Number(m[2]);
        d.column = Number(m[3]) - 1;
        d.end_line = d.line;
      }
    }
    (severity === 'error' ? errors : warnings).push(d);
  }
  return { errors, warnings };
}

function collectContracts(a: Attempt, req: CompileRequest): Record<string, CompiledContract> {
  const out: Record<string, CompiledContract> = {};
  const all = (a.out?.contracts ?? {}) as Record<string, Record<string, any>>;
  // Submitted file first so its contracts win a name clash with an import.
  const keys = Object.keys(all).sort((x, y) => Number(y === a.mainKey || y === '') - Number(x === a.mainKey || x === ''));
  for (const key of keys) {
    for (const [name, c] of Object.entries(all[key] ?? {})) {
      if (out[name]) continue;
      out[name] = {
        file: key === a.mainKey || key === '' ? req.file : key,
        abi: Array.isArray(c.abi) ? c.abi : typeof c.abi === 'string' ? safeJson(c.abi, []) : [],
        bytecode: c.evm?.bytecode?.object ?? '',
        deployedBytecode: c.evm?.deployedBytecode?.object ?? '',
        sourceMap: c.evm?.bytecode?.sourceMap ?? '',
        deployedSourceMap: c.evm?.deployedBytecode?.sourceMap ?? '',
        ...(c.storageLayout ? { storageLayout: c.storageLayout } : {}),
      };
    }
  }
  return out;
}

function safeJson<T>(s: string, dflt: T): T {
  try {
    return JSON.parse(s) as T;
  } catch {
    return dflt;
  }
}

/** Compiles in the current thread. Pool workers call this; so may tests and tools already in a worker. */
// In full mode the engine's compile check, the fuzzer and the symbolic engine compile the same
// source with the same settings, often on the same worker: keep recent results per thread. A hit
// is only used if every import it read still has the same contents (a user may edit an imported
// file between two runs), and is handed out as a copy, so no caller can change another's result.
// SMTChecker runs (modelChecker / smtPragma) are never kept: their output depends on time limits.
const compiled = sourceMemo<{ result: CompileResult; imports: Array<[string, string]>; maxAttempts: number | null }>({ max: 4, maxChars: 4 * 1024 * 1024 });

const memoStats = { hits: 0, misses: 0 };
/** This thread's compile memo counters (cacheable requests only). */
export function compileMemoStats(): { hits: number; misses: number } {
  return { ...memoStats };
}

function memoKey(req: CompileRequest, outputs: 'full' | 'check'): string {
  return JSON.stringify([req.file, req.absPath ?? null, rootsOf(req), req.compiler ?? null, outputs, Boolean(req.ast), req.source]);
}

/** A kept result answers a request allowing a different number of compiler attempts when it
 *  compiled within that many (candidates are tried in the same order; only the cut-off differs),
 *  or when it was made with the same cut-off. The ML tool asks for 2, the other layers for the default. */
function attemptsFit(req: CompileRequest, hit: { result: CompileResult; maxAttempts: number | null }): boolean {
  if (hit.maxAttempts === (req.maxAttempts ?? null)) return true;
  return hit.result.ok && hit.result.attempts.length <= (req.maxAttempts ?? Infinity);
}

function importsUnchanged(req: CompileRequest, imports: Array<[string, string]>): boolean {
  if (!imports.length) return true;
  const resolve = makeImportResolver(req, [], new Map());
  return imports.every(([p, contents]) => {
    const r = resolve(p);
    return 'contents' in r && r.contents === contents;
  });
}

export function compileTask(req: CompileRequest): CompileResult {
  if (req.modelChecker || req.smtPragma || typeof req.source !== 'string') return compileUncached(req, null);
  const outputs = req.outputs === 'check' ? 'check' : 'full';
  // A full result answers a check request too (it holds the ABI and everything else).
  for (const o of outputs === 'check' ? (['check', 'full'] as const) : (['full'] as const)) {
    const hit = compiled.peek(memoKey(req, o));
    if (hit && attemptsFit(req, hit) && importsUnchanged(req, hit.imports)) {
      memoStats.hits++;
      return structuredClone(hit.result);
    }
  }
  memoStats.misses++;
  const imports = new Map<string, string>();
  const result = compileUncached(req, imports);
  compiled.set(memoKey(req, outputs), { result, imports: [...imports], maxAttempts: req.maxAttempts ?? null });
  return structuredClone(result);
}

function compileUncached(req: CompileRequest, importsRead: Map<string, string> | null): CompileResult {
  const t0 = Date.now();
  const base: CompileResult = {
    ok: false,
    compiler: null,
    compilerLong: null,
    reason: '',
    pragma: null,
    attempts: [],
    errors: [],
    warnings: [],
    missingImports: [],
    contracts: {},
    sourceKey: sourceKeyFor(req),
    durationMs: 0,
  };
  if (typeof req.source !== 'string' || req.source.trim() === '') {
    base.reason = 'source is empty';
    base.errors.push(diag('source is empty: there is nothing to compile'));
    base.durationMs = Date.now() - t0;
    return base;
  }
  let candidates: InstalledCompiler[];
  let blank = false;
  if (req.compiler) {
    const c = installedCompilers().find((x) => x.version === req.compiler);
    const choice = chooseCompiler(req.source);
    base.pragma = choice.pragma;
    if (!c) {
      base.reason = `solc ${req.compiler} is not installed; installed: ${installedCompilers().map((x) => x.version).join(', ')}`;
      base.errors.push(diag(base.reason));
      base.durationMs = Date.now() - t0;
      return base;
    }
    candidates = [c];
    base.reason = `solc ${c.version} requested explicitly`;
  } else {
    const choice = chooseCompiler(req.source);
    base.pragma = choice.pragma;
    base.reason = choice.reason;
    if (!choice.ok) {
      base.errors.push(diag(choice.reason));
      base.durationMs = Date.now() - t0;
      return base;
    }
    candidates = choice.candidates.slice(0, Math.max(1, req.maxAttempts ?? (choice.pragma ? 3 : 5)));
    blank = choice.blankPragma;
  }
  // The attempt reported when every candidate fails is the one with the fewest errors: the
  // compiler that came closest is the one whose messages are about the code, not its dialect.
  let last: { a: Attempt; errors: CompilerDiagnostic[]; warnings: CompilerDiagnostic[]; missing: string[]; loaded: Map<string, string> } | null = null;
  for (const c of candidates) {
    const missing: string[] = [];
    const loaded = new Map<string, string>();
    let a: Attempt;
    try {
      a = runOnce(req, c, blank, missing, loaded);
    } catch (e) {
      base.attempts.push({ compiler: c.version, ok: false, first_error: `solc ${c.version} crashed: ${(e as Error).message}` });
      continue;
    }
    const { errors, warnings } = diagnostics(a, req, loaded, blank);
    base.attempts.push({ compiler: c.version, ok: errors.length === 0, first_error: errors[0] ? oneLine(errors[0]) : null });
    if (!last || errors.length < last.errors.length) last = { a, errors, warnings, missing, loaded };
    if (errors.length === 0) break;
    // A missing import fails the same way under every compiler: do not try others.
    if (missing.length) break;
  }
  if (!last) {
    base.reason = `every candidate compiler crashed (${base.attempts.map((x) => x.first_error).join('; ')})`;
    base.errors.push(diag(base.reason));
    base.durationMs = Date.now() - t0;
    return base;
  }
  const { a, errors, warnings, missing } = last;
  if (importsRead) for (const [k, v] of last.loaded) importsRead.set(k, v);
  const used = a.compiler.version;
  if (base.attempts.length > 1) {
    const failed = base.attempts.filter((x) => !x.ok).map((x) => `${x.compiler} failed: ${x.first_error}`);
    base.reason += errors.length === 0 ? `; used ${used} after ${failed.join('; ')}` : `; every candidate failed (${failed.join('; ')})`;
  }
  const srcOut = a.out?.sources?.[a.mainKey] ?? a.out?.sources?.[''];
  return {
    ...base,
    ok: errors.length === 0,
    compiler: used,
    compilerLong: a.longVersion,
    errors,
    warnings,
    missingImports: missing,
    contracts: errors.length === 0 ? collectContracts(a, req) : {},
    ...(req.ast && srcOut ? { ast: srcOut.ast ?? srcOut.legacyAST } : {}),
    sourceKey: a.mainKey,
    durationMs: Date.now() - t0,
  };
}

function diag(message: string): CompilerDiagnostic {
  return { severity: 'error', type: 'VigilCompilerSelection', code: null, message, formatted: message, file: null, line: null, column: null, end_line: null };
}

/** "line 3: ParserError: Expected ';' but got '}'" */
export function oneLine(d: CompilerDiagnostic): string {
  const where = d.line ? `${d.file && d.file !== '' ? d.file + ':' : ''}${d.line}: ` : '';
  const type = d.type && d.type !== 'VigilCompilerSelection' ? `${d.type}: ` : '';
  return `${where}${type}${d.message.split('\n')[0]}`;
}

/**
 * Compiles through the kernel's worker pool under a deadline (or in-thread when no pool is
 * given, e.g. inside a task that is itself already on a worker).
 */
export async function compileSolidity(
  req: CompileRequest,
  opts: { pool?: WorkerPool | null; signal?: AbortSignal; deadline?: number } = {},
): Promise<CompileResult> {
  if (!opts.pool) return compileTask(req);
  return opts.pool.run<CompileResult>(COMPILE_MODULE, 'compileTask', req, { signal: opts.signal, deadline: opts.deadline });
}
