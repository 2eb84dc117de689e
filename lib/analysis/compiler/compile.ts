// Offline compilation of one Solidity source with the installed solc-js that its pragma selects.
// `compileTask` is what runs inside a kernel pool worker (compilers stay loaded per worker);
// `compileSolidity` sends it there under the caller's deadline, so a compiler stuck on a
// pathological input is killed with its worker instead of blocking the event loop.
import path from 'node:path';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import type { WorkerPool } from '../../../kernel/index.ts';
import { loadCompiler } from './solc-loader.ts';
import { sourceMemo } from '../source-memo.ts';
import {
  blankPragmas,
  chooseCompiler,
  installedCompilers,
  pragmaRanges,
  pragmaText,
  refreshInstalledCompilers,
  type InstalledCompiler,
} from './versions.ts';
import { collectClosure, loadProject, remappingStrings, unitNameOf, type MissingImport, type Project } from './project.ts';

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
  /** Run solc through the task's `runner` (compileTask's second argument: e.g. the SMTChecker's
   *  helper thread), stopped after `budgetMs` of its CPU time or at `deadline` (epoch ms): the
   *  result then has `stopped`, and the worker running this task stays alive with everything it
   *  has loaded. */
  isolate?: { budgetMs: number; deadline: number };
}

/** Runs one standard-JSON compile somewhere other than this thread's solc, within `limits`;
 *  throws CompileStopped when they end it. For compiles nothing inside solc can bound. */
export type SolcRunner = (
  version: string,
  input: string,
  limits: { budgetMs: number; deadline: number },
) => { raw: string; imports: string[]; longVersion: string };

/** A runner's budget or the caller's deadline ended the compile (the result says `stopped`). */
export class CompileStopped extends Error {
  constructor(
    readonly why: 'budget' | 'deadline',
    message: string,
  ) {
    super(message);
  }
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
  /** An `isolate`d compile its budget or deadline stopped (no output). */
  stopped?: { why: 'budget' | 'deadline'; message: string };
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
  /** Where the byte range [start, end) of a diagnostic lies. */
  span(start: number, end: number): Pick<CompilerDiagnostic, 'line' | 'column' | 'end_line'> {
    return { line: this.lineOf(start), column: this.columnOf(start), end_line: this.lineOf(Math.max(start, end - 1)) };
  }
}

/** One entry of solc's standard-JSON `errors`, not yet placed: each caller maps the source
 *  location to its own files and lines. */
export function unplacedDiagnostic(e: any): CompilerDiagnostic {
  const severity: CompilerDiagnostic['severity'] = e.severity === 'error' ? 'error' : e.severity === 'info' ? 'info' : 'warning';
  const formatted = String(e.formattedMessage ?? e.message ?? '');
  const d: CompilerDiagnostic = {
    severity,
    type: String(e.type ?? (severity === 'error' ? 'Error' : 'Warning')),
    code: e.errorCode != null ? String(e.errorCode) : null,
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
  return d;
}

function rootsOf(req: Pick<CompileRequest, 'absPath' | 'roots'>): string[] {
  const dir = req.absPath ? path.dirname(req.absPath) : null;
  return (req.roots && req.roots.length ? req.roots : dir ? [dir] : []).map((r) => path.resolve(r));
}

/** What one compile of a request reads: the project, and the file with everything it imports. */
interface Prepared {
  project: Project | null;
  mainKey: string;
  /** Source unit name -> contents (the submitted text for the main unit). */
  sources: Map<string, string>;
  missing: MissingImport[];
}

/**
 * A request with a path is compiled as part of its project (root, remappings, node_modules,
 * lib/): every import is resolved up front, so the compile gets all sources in one input and a
 * missing import is known with the file that asks for it. Submitted text has no imports to read.
 */
function prepare(req: CompileRequest): Prepared {
  if (!req.absPath) {
    const mainKey = path.basename(req.file || 'Contract.sol') || 'Contract.sol';
    return { project: null, mainKey, sources: new Map([[mainKey, req.source]]), missing: [] };
  }
  const project = loadProject(req.absPath, rootsOf(req));
  const closure = collectClosure(project, req.absPath, { entrySource: req.source });
  const sources = new Map<string, string>();
  for (const [k, u] of closure.units) sources.set(k, u.content);
  return { project, mainKey: closure.entry, sources, missing: closure.missing };
}

/** Key of the submitted file in solc's standard-JSON input (and in its output): its path in the project. */
export function sourceKeyFor(req: Pick<CompileRequest, 'absPath' | 'file' | 'roots'>): string {
  if (req.absPath) {
    const project = loadProject(req.absPath, rootsOf(req));
    return unitNameOf(project, req.absPath) ?? path.basename(req.absPath);
  }
  return path.basename(req.file || 'Contract.sol') || 'Contract.sol';
}

function outputSelection(req: CompileRequest) {
  const perContract =
    req.outputs === 'check'
      ? ['abi']
      : [
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

function runOnce(
  req: CompileRequest,
  prep: Prepared,
  c: InstalledCompiler,
  blank: boolean,
  missing: string[],
  runner?: SolcRunner,
): Attempt {
  const mainKey = prep.mainKey;
  let prefixBytes = 0;
  const usePragma = req.smtPragma && semver.lt(c.version, '0.8.0');
  const sources: Record<string, { content: string }> = {};
  for (const [unit, text] of prep.sources) {
    let content = blank ? blankPragmas(text) : text;
    if (unit === mainKey && usePragma) {
      // Same line, no newline: every line number of the submitted source stays the same.
      content = SMT_PRAGMA + content;
      prefixBytes = Buffer.byteLength(SMT_PRAGMA);
    }
    sources[unit] = { content };
  }
  const settings: Record<string, unknown> = { outputSelection: outputSelection(req) };
  if (req.modelChecker && semver.gte(c.version, '0.7.0')) settings.modelChecker = req.modelChecker;
  if (prep.project && prep.project.remappings.length) settings.remappings = remappingStrings(prep.project);
  const input = JSON.stringify({ language: 'Solidity', sources, settings });
  // Every import was resolved before; solc asks only for what is not there.
  const onImport = (p: string) => {
    if (!missing.includes(p)) missing.push(p);
    return {
      error: prep.project
        ? `import "${p}" not found in the project (${prep.project.root}), its remappings, node_modules or lib folders`
        : `import "${p}" cannot be resolved: the contract was submitted as text, so imports have nowhere to come from (submit it by path, or flatten it)`,
    };
  };
  let raw: string;
  let longVersion: string;
  if (req.isolate) {
    if (!runner) throw new Error('an isolated compile needs a runner (compileTask second argument)');
    const r = runner(c.version, input, req.isolate);
    for (const p of r.imports) onImport(p);
    raw = r.raw;
    longVersion = r.longVersion;
  } else {
    const solc = loadCompiler(c.version);
    raw = solc.compileStandard(input, onImport);
    longVersion = solc.longVersion;
  }
  let out: any;
  try {
    out = JSON.parse(raw);
  } catch {
    out = { errors: [{ severity: 'error', type: 'CompilerError', message: `solc ${c.version} returned output that is not JSON` }] };
  }
  return { out, compiler: c, longVersion, prefixBytes, mainKey };
}

function diagnostics(
  a: Attempt,
  req: CompileRequest,
  loaded: Map<string, string>,
  blanked: boolean,
): { errors: CompilerDiagnostic[]; warnings: CompilerDiagnostic[] } {
  const mainIndex = new LineIndex(req.source);
  const indexes = new Map<string, LineIndex>();
  const errors: CompilerDiagnostic[] = [];
  const warnings: CompilerDiagnostic[] = [];
  for (const e of (a.out?.errors ?? []) as any[]) {
    const d = unplacedDiagnostic(e);
    // Noise that says nothing about the code: missing SPDX line; and our own blanked pragma.
    if (d.code === '1878' || (blanked && d.code === '3420')) continue;
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
        Object.assign(d, idx.span(s, Math.max(s, (loc.end ?? loc.start) - shift)));
      }
      d.file = isMain ? req.file : file;
    } else {
      // Old compilers only put "file:line:col:" in the formatted message.
      const m = /^([^\s:]+):(\d+):(\d+):/.exec(d.formatted);
      if (m) {
        d.file = m[1] === a.mainKey ? req.file : m[1];
        d.line = Number(m[2]);
        d.column = Number(m[3]) - 1;
        d.end_line = d.line;
      }
    }
    (d.severity === 'error' ? errors : warnings).push(d);
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
// SMTChecker runs (modelChecker / smtPragma) and isolated runs are never kept: their output depends on time limits.
const compiled = sourceMemo<{ result: CompileResult; maxAttempts: number | null }>({ max: 4, maxChars: 4 * 1024 * 1024 });

const memoStats = { hits: 0, misses: 0 };
/** This thread's compile memo counters (cacheable requests only). */
export function compileMemoStats(): { hits: number; misses: number } {
  return { ...memoStats };
}

/** The key covers every source of the build, so an edited import is never answered from memory. */
function memoKey(req: CompileRequest, prep: Prepared, outputs: 'full' | 'check'): string {
  const h = createHash('sha256');
  for (const [k, v] of prep.sources) h.update(`${k}\u0000${v}\u0000`);
  h.update(JSON.stringify(prep.project ? remappingStrings(prep.project) : []));
  return JSON.stringify([
    req.file,
    req.absPath ?? null,
    rootsOf(req),
    req.compiler ?? null,
    outputs,
    Boolean(req.ast),
    h.digest('hex'),
    prep.missing.length,
  ]);
}

/** A kept result answers a request allowing a different number of compiler attempts when it
 *  compiled within that many (candidates are tried in the same order; only the cut-off differs),
 *  or when it was made with the same cut-off. The ML tool asks for 2, the other layers for the default. */
function attemptsFit(req: CompileRequest, hit: { result: CompileResult; maxAttempts: number | null }): boolean {
  if (hit.maxAttempts === (req.maxAttempts ?? null)) return true;
  return hit.result.ok && hit.result.attempts.length <= (req.maxAttempts ?? Infinity);
}

export function compileTask(req: CompileRequest, ctx?: { started?: () => void; runner?: SolcRunner }): CompileResult {
  // A solver budget (the SMTChecker's) is solving time: a cold worker loads the compiler first
  // (seconds on a busy machine, once per worker), and only then does the budget start.
  if (req.compiler && !req.isolate) {
    try {
      loadCompiler(req.compiler);
    } catch {
      /* compileUncached reports it */
    }
  }
  ctx?.started?.();
  if (typeof req.source !== 'string') return compileUncached(req, null);
  let prep: Prepared;
  try {
    prep = prepare(req);
  } catch (e) {
    return compileUncached(req, null, (e as Error).message);
  }
  // Nor are isolated runs: a budget may have stopped them.
  if (req.modelChecker || req.smtPragma || req.isolate) return compileUncached(req, prep, undefined, ctx?.runner);
  const outputs = req.outputs === 'check' ? 'check' : 'full';
  // A full result answers a check request too (it holds the ABI and everything else).
  for (const o of outputs === 'check' ? (['check', 'full'] as const) : (['full'] as const)) {
    const hit = compiled.peek(memoKey(req, prep, o));
    if (hit && attemptsFit(req, hit)) {
      memoStats.hits++;
      return structuredClone(hit.result);
    }
  }
  memoStats.misses++;
  const result = compileUncached(req, prep);
  compiled.set(memoKey(req, prep, outputs), { result, maxAttempts: req.maxAttempts ?? null });
  return structuredClone(result);
}

/** Line of the first import statement naming `imp` in a source (for a missing-import diagnostic). */
function importLine(text: string | undefined, imp: string): number | null {
  if (!text) return null;
  const i = text.indexOf(`"${imp}"`) >= 0 ? text.indexOf(`"${imp}"`) : text.indexOf(`'${imp}'`);
  return i < 0 ? null : text.slice(0, i).split('\n').length;
}

function compileUncached(req: CompileRequest, prep: Prepared | null, prepError?: string, runner?: SolcRunner): CompileResult {
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
    sourceKey: prep?.mainKey ?? path.basename(req.file || 'Contract.sol'),
    durationMs: 0,
  };
  if (typeof req.source !== 'string' || req.source.trim() === '') {
    base.reason = 'source is empty';
    base.errors.push(diag('source is empty: there is nothing to compile'));
    base.durationMs = Date.now() - t0;
    return base;
  }
  if (!prep) {
    base.reason = prepError ?? 'the project could not be read';
    base.errors.push(diag(base.reason));
    base.durationMs = Date.now() - t0;
    return base;
  }
  // Releases installed on demand by another thread show up here without a restart.
  refreshInstalledCompilers();
  // Every file of the build must accept the compiler: the pragmas of the file and of its imports.
  const buildPragmas = pragmaText(pragmaRanges(prep.sources.values()));
  if (prep.missing.length) {
    // Nothing to gain from running solc: say which file asks for what.
    base.reason = `missing import${prep.missing.length > 1 ? 's' : ''}`;
    base.pragma = chooseCompiler(req.source).pragma;
    base.missingImports = [...new Set(prep.missing.map((m) => m.import))];
    for (const m of prep.missing) {
      const isMain = m.file === prep.mainKey;
      base.errors.push({
        severity: 'error',
        type: 'ImportError',
        code: null,
        message: `import "${m.import}" ${m.reason}`,
        formatted: `${m.file}: import "${m.import}" ${m.reason}`,
        file: isMain ? req.file : m.file,
        line: importLine(prep.sources.get(m.file), m.import),
        column: null,
        end_line: null,
      });
    }
    base.durationMs = Date.now() - t0;
    return base;
  }
  let candidates: InstalledCompiler[];
  let blank: boolean;
  if (req.compiler) {
    const c = installedCompilers().find((x) => x.version === req.compiler);
    const choice = chooseCompiler(req.source);
    base.pragma = choice.pragma;
    if (!c) {
      base.reason = `solc ${req.compiler} is not installed (run \`vigil solc install ${req.compiler}\`); installed: ${installedCompilers()
        .map((x) => x.version)
        .join(', ')}`;
      base.errors.push(diag(base.reason));
      base.durationMs = Date.now() - t0;
      return base;
    }
    candidates = [c];
    base.reason = `solc ${c.version} requested explicitly`;
    // The release the engine chose for a pin it could not honour (same minor series): the pragmas
    // are blanked for this compile too, as they were for the engine's.
    const forced = chooseCompiler(buildPragmas, [c]);
    blank = forced.ok && forced.blankPragma;
  } else {
    const choice = chooseCompiler(buildPragmas);
    base.pragma = chooseCompiler(req.source).pragma;
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
  let last: { a: Attempt; errors: CompilerDiagnostic[]; warnings: CompilerDiagnostic[]; missing: string[] } | null = null;
  const loaded = prep.sources;
  for (const c of candidates) {
    const missing: string[] = [];
    let a: Attempt;
    try {
      a = runOnce(req, prep, c, blank, missing, runner);
    } catch (e) {
      if (e instanceof CompileStopped) {
        base.reason = e.message;
        base.errors.push(diag(e.message));
        base.durationMs = Date.now() - t0;
        return { ...base, compiler: c.version, stopped: { why: e.why, message: e.message } };
      }
      base.attempts.push({ compiler: c.version, ok: false, first_error: `solc ${c.version} crashed: ${(e as Error).message}` });
      continue;
    }
    const { errors, warnings } = diagnostics(a, req, loaded, blank);
    base.attempts.push({ compiler: c.version, ok: errors.length === 0, first_error: errors[0] ? oneLine(errors[0]) : null });
    if (!last || errors.length < last.errors.length) last = { a, errors, warnings, missing };
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
  return {
    severity: 'error',
    type: 'VigilCompilerSelection',
    code: null,
    message,
    formatted: message,
    file: null,
    line: null,
    column: null,
    end_line: null,
  };
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
  opts: { pool?: WorkerPool | null; signal?: AbortSignal; deadline?: number; budgetMs?: number; share?: boolean } = {},
): Promise<CompileResult> {
  // Hashing the source is only worth it when a shared run exists or one is being started.
  const key = shared.size || opts.share ? shareKey(req) : null;
  const early = key === null ? undefined : shared.get(key);
  if (early && Date.now() - early.at < SHARE_MS) return early.result;
  if (!opts.pool) return compileTask(req);
  const result = opts.pool.run<CompileResult>(COMPILE_MODULE, 'compileTask', req, {
    signal: opts.signal,
    deadline: opts.deadline,
    ...(opts.budgetMs !== undefined ? { budgetMs: opts.budgetMs, budgetFromTask: true } : {}),
  });
  if (opts.share && key !== null) {
    for (const [k, v] of shared) if (Date.now() - v.at >= SHARE_MS) shared.delete(k);
    shared.set(key, { at: Date.now(), result });
    result.catch(() => shared.delete(key));
  }
  return result;
}

// A one-shot `vigil analyze one.sol` starts its file's compile before the plugins load
// (analysis-engine's warm-up.ts, `share: true`); the analysis then asks for the very same compile
// and gets that run instead of loading solc in a second worker. Only such early runs are shared,
// for a minute (expired ones are dropped when the next is started), and a failed one is forgotten.
const SHARE_MS = 60_000;
const shared = new Map<string, { at: number; result: Promise<CompileResult> }>();
function shareKey(r: CompileRequest): string {
  return JSON.stringify([
    createHash('sha256').update(r.source).digest('hex'),
    r.file,
    r.absPath ?? null,
    r.roots ?? null,
    r.compiler ?? null,
    r.outputs ?? null,
    r.ast ?? null,
    r.modelChecker ?? null,
    r.smtPragma ?? null,
    r.maxAttempts ?? null,
  ]);
}
