// `vigil analyze PATH`: the same body the REST analyze endpoints return, for a file, a folder or
// a project. The project (root, remappings, imports) is found as Foundry/Hardhat find it, and
// compiled once per compiler release group; every selected file is then analysed from that build.
// Exit codes (decisions.md): 0 = every file and tool completed, no finding at/above --fail-on;
// 1 = findings at/above --fail-on; 2 = bad input (no such path, no Solidity, invalid options, a
// file that is not Solidity); 3 = incomplete (a file did not compile or fell back to parse-only,
// a tool timed out or failed) unless --allow-partial. stderr always names what was incomplete.
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AnalysisEngine, AnalysisResult, AuditType, KernelServices } from '../../kernel/index.ts';
import { SEVERITIES, type Finding, type Severity, type ToolResult, type ToolStatus } from '../../schemas/finding.ts';
import { MAX_SOURCE_BYTES } from './engine.ts';
import { groupProjectNotes } from '../../lib/analysis/static/dedup.ts';
import { toMarkdown } from './format/markdown.ts';
import { toSarif } from './format/sarif.ts';
import { toHtml } from './format/html.ts';
import { compileGroup, groupByCompiler, scanProject, type ProjectPlan } from './build.ts';
import { acquireCompilerFor } from './acquire.ts';
import { findProjectRoot, loadProject, ProjectConfigError, type Project } from '../../lib/analysis/compiler/project.ts';
import type { CompileResult } from '../../lib/analysis/compiler/compile.ts';
import { formatHuman, type Incomplete } from './cli-human.ts';
import picomatch from 'picomatch';
import { baselineOption, BaselineError, finishReport } from './cli-filters.ts';

export interface AnalyzeCommandOptions {
  mode?: string;
  layer?: string | number;
  tool?: string;
  format?: string;
  failOn?: string;
  /** Seconds for the whole run (all files); without it every file gets its own budget. */
  timeout?: string | number;
  /** Turn exit 3 (incomplete) into 0/1; stderr still names what was incomplete. */
  allowPartial?: boolean;
  /** Globs (relative to the project root or to PATH) of files not to report on. */
  exclude?: string[] | string;
  /** Globs of the only files to report on (default: every file not excluded by default). */
  include?: string[] | string;
  /** Progress on stderr: default on a terminal, or every 10 s for runs longer than that. */
  progress?: boolean;
  /** An earlier JSON or SARIF output; only findings not in it are reported and failed on. */
  baseline?: string;
}

export interface Io {
  stdout: { write(s: string): unknown; isTTY?: boolean };
  stderr: { write(s: string): unknown; isTTY?: boolean };
}

class BadInput extends Error {}

const SKIP_DIRS = new Set(['node_modules', '.git', '.hg', '.svn']);

/** Every .sol file below dir, sorted, skipping node_modules and VCS folders (symlinked dirs not followed). */
export function findSolidityFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name)) walk(path.join(d, e.name));
      } else if (e.isFile() && e.name.endsWith('.sol')) out.push(path.join(d, e.name));
    }
  };
  walk(dir);
  return out.sort();
}

function resolveEngine(x: AnalysisEngine | KernelServices): AnalysisEngine | null {
  if (x && typeof (x as AnalysisEngine).analyze === 'function') return x as AnalysisEngine;
  const s = x as KernelServices;
  return typeof s?.get === 'function' ? (s.get<AnalysisEngine>('analysis') ?? null) : null;
}

function parseOptions(o: AnalyzeCommandOptions, tty: boolean) {
  const mode = String(o.mode ?? 'quick');
  if (mode !== 'quick' && mode !== 'full') throw new BadInput(`--mode must be quick or full, got "${mode}"`);
  let layer: number | undefined;
  if (o.layer !== undefined && o.layer !== null && o.layer !== '') {
    layer = Number(o.layer);
    if (!Number.isInteger(layer) || layer < 1 || layer > 9) throw new BadInput(`--layer must be an integer from 1 to 9, got "${o.layer}"`);
  }
  const tool = o.tool ? String(o.tool) : undefined;
  if (tool && layer !== undefined) throw new BadInput('use either --layer or --tool, not both');
  const format = String(o.format ?? (tty ? 'text' : 'json')).toLowerCase();
  if (!['text', 'json', 'sarif', 'markdown', 'html'].includes(format))
    throw new BadInput(`--format must be one of text, json, sarif, markdown, got "${o.format}"`);
  let failOn: Severity | undefined;
  if (o.failOn !== undefined && o.failOn !== null && o.failOn !== '') {
    const s = String(o.failOn).toUpperCase();
    if (!(SEVERITIES as readonly string[]).includes(s))
      throw new BadInput(`--fail-on must be one of ${SEVERITIES.join(', ')}, got "${o.failOn}"`);
    failOn = s as Severity;
  }
  const timeout = o.timeout === undefined || o.timeout === '' || o.timeout === null ? null : Number(o.timeout);
  if (timeout !== null && (!Number.isFinite(timeout) || timeout <= 0 || timeout > 86400))
    throw new BadInput(`--timeout must be a number of seconds from 1 to 86400, got "${o.timeout}"`);
  const auditType: AuditType = tool ? 'tool' : layer !== undefined ? 'layer' : mode;
  const globs = (v: string[] | string | undefined) =>
    (v === undefined ? [] : Array.isArray(v) ? v : [v]).map(String).filter((g) => g.trim() !== '');
  // Each file's own budget: the quick layers finish in seconds, full mode fuzzes and solves.
  const perFileMs = (auditType === 'quick' ? 120 : 600) * 1000;
  return {
    auditType,
    layer,
    tool,
    format,
    failOn,
    totalMs: timeout === null ? null : timeout * 1000,
    perFileMs,
    allowPartial: Boolean(o.allowPartial),
    exclude: globs(o.exclude),
    include: globs(o.include),
  };
}

const RANK: Record<Severity, number> = { CRITICAL: 4, HIGH: 3, MEDIUM: 2, LOW: 1, INFO: 0 };

function displayName(abs: string, base: string | null): string {
  const fromCwd = path.relative(process.cwd(), abs);
  if (!fromCwd.startsWith('..') && !path.isAbsolute(fromCwd)) return fromCwd.split(path.sep).join('/');
  return (base ? path.relative(base, abs) : path.basename(abs)).split(path.sep).join('/');
}

/** Where imports may come from: with a project (a framework config or package.json above PATH)
 *  anywhere a framework would look (node_modules up the tree); without, only PATH. */
function rootsFor(abs: string, isDir: boolean): string[] {
  const found = findProjectRoot(abs);
  return found.marker ? [path.parse(found.root).root] : [isDir ? abs : path.dirname(abs)];
}

/** The engine input `vigil analyze FILE` builds for one .sol file (read now). */
export function singleFileInput(abs: string): { source: string; file: string; absPath: string; roots: string[] } {
  return { source: fs.readFileSync(abs, 'utf8'), file: displayName(abs, null), absPath: abs, roots: rootsFor(abs, false) };
}

function mergeStatus(a: ToolStatus, b: ToolStatus): ToolStatus {
  const order: ToolStatus[] = ['error', 'timeout', 'success', 'skipped', 'not_available'];
  return order.indexOf(a) <= order.indexOf(b) ? a : b;
}

/** One body for a folder: per-tool results merged across files, findings carrying their file. */
function combine(
  dir: string,
  bodies: Array<{ file: string; body: AnalysisResult | null; error: string | null }>,
  auditType: AuditType,
  t0: number,
): AnalysisResult {
  const results = new Map<string, ToolResult & { errors: string[] }>();
  const findings: Finding[] = [];
  const layers = new Set<number>();
  const tools: string[] = [];
  let version = '0.0.0';
  for (const { file, body } of bodies) {
    if (!body) continue;
    version = body.version;
    body.layers.forEach((l) => layers.add(l));
    for (const t of body.tools) if (!tools.includes(t)) tools.push(t);
    findings.push(...body.findings);
    for (const r of body.results) {
      const prev = results.get(r.tool);
      if (!prev) results.set(r.tool, { ...r, findings: [...r.findings], errors: r.error ? [`${file}: ${r.error}`] : [] });
      else {
        prev.status = mergeStatus(prev.status as ToolStatus, r.status as ToolStatus);
        prev.findings.push(...r.findings);
        prev.execution_time = Math.round((prev.execution_time + r.execution_time) * 1000) / 1000;
        if (r.error) prev.errors.push(`${file}: ${r.error}`);
      }
    }
  }
  // Notes about the project rather than one file (a floating pragma in every interface) are
  // folded into one note for the folder, as each tool already does within a file.
  const grouped = groupProjectNotes(findings);
  findings.length = 0;
  findings.push(...grouped);
  for (const r of results.values()) r.findings = groupProjectNotes(r.findings);
  const summary: Record<Severity, number> = { CRITICAL: 0, HIGH: 0, MEDIUM: 0, LOW: 0, INFO: 0 };
  for (const f of findings) summary[f.severity]++;
  findings.sort(
    (a, b) => RANK[b.severity] - RANK[a.severity] || a.location.file.localeCompare(b.location.file) || a.location.line - b.location.line,
  );
  const sha = createHash('sha256');
  for (const b of bodies) sha.update(`${b.file}\u0000${b.body?.contract.sha256 ?? ''}\n`);
  const ok = bodies.filter((b) => b.body);
  return {
    audit_id: randomUUID(),
    audit_type: auditType,
    contract: {
      name: path.basename(path.resolve(dir)),
      sha256: sha.digest('hex'),
      pragma: null,
      compiler: [...new Set(ok.map((b) => b.body!.contract.compiler).filter(Boolean))].join(', ') || null,
    },
    layers: [...layers].sort((a, b) => a - b),
    tools,
    results: [...results.values()].map(({ errors, ...r }) => ({ ...r, error: errors.length ? errors.join('; ') : null })),
    findings,
    summary,
    total_findings: findings.length,
    execution_time: Math.round(Date.now() - t0) / 1000,
    timestamp: new Date().toISOString(),
    version,
    files: bodies.map(({ file, body, error }) => ({
      file,
      contract: body?.contract ?? null,
      compilation: body?.compilation ?? null,
      total_findings: body?.total_findings ?? 0,
      execution_time: body?.execution_time ?? 0,
      ...(body?.notes ? { notes: body.notes } : {}),
      error,
    })),
  };
}

/** Reported by default except these (decisions.md); they still compile when a reported file imports them. */
export const DEFAULT_EXCLUDES = [
  'test/**',
  'tests/**',
  'script/**',
  '**/test/**',
  '**/tests/**',
  '**/script/**',
  'node_modules/**',
  'lib/**',
  '**/*.t.sol',
  '**/*.s.sol',
];

/** Which of the files found under a folder are reported on. */
export function selectFiles(
  files: string[],
  bases: string[],
  opts: { include: string[]; exclude: string[] },
): { selected: string[]; excluded: number } {
  const rels = (f: string) => bases.map((b) => path.relative(b, f).split(path.sep).join('/')).filter((r) => !r.startsWith('..'));
  const m = (globs: string[]): ((s: string) => boolean) => {
    if (!globs.length) return () => false;
    const isMatch = picomatch(globs, { dot: true });
    return (s) => isMatch(s);
  };
  const inc = m(opts.include);
  const exc = m(opts.exclude);
  const dflt = m(DEFAULT_EXCLUDES);
  const selected = files.filter((f) => {
    const r = rels(f);
    if (r.some(exc)) return false;
    if (opts.include.length) return r.some(inc);
    return !r.some(dflt);
  });
  return { selected, excluded: files.length - selected.length };
}

interface FileRun {
  file: string;
  abs: string;
  body: AnalysisResult | null;
  error: string | null;
  /** The file is not Solidity (invalid_solidity): its messages. */
  invalid?: Array<{ message: string; file: string; line: number | null; column: number | null }>;
}

/** What did not complete, per file and tool (stderr and the body's `incomplete`). */
function incompleteOf(runs: FileRun[]): Incomplete[] {
  const out: Incomplete[] = [];
  for (const r of runs) {
    if (r.invalid) {
      out.push({
        file: r.file,
        what: 'parse',
        detail: r.invalid.map((e) => `${e.line ? `line ${e.line}${e.column ? `:${e.column}` : ''}: ` : ''}${e.message}`).join('; '),
      });
      continue;
    }
    if (!r.body) {
      out.push({ file: r.file, what: 'file', detail: r.error ?? 'not analysed' });
      continue;
    }
    const c = r.body.compilation;
    if (c && !c.ok) out.push({ file: r.file, what: 'compile', detail: c.note ?? c.errors[0] ?? 'compilation failed' });
    for (const t of r.body.results) {
      if (t.status === 'timeout' || t.status === 'error')
        out.push({ file: r.file, what: t.tool, detail: `${t.status}${t.error ? `: ${t.error}` : ''}` });
    }
  }
  return out;
}

/** Tools that ran but left a file out by design (quick mode's scope, a compiler without an SMT
 *  solver): not incomplete (exit codes unchanged), but never silent. */
function skippedOf(runs: FileRun[]): Incomplete[] {
  const out: Incomplete[] = [];
  for (const r of runs)
    for (const t of r.body?.results ?? [])
      if (t.status === 'skipped') out.push({ file: r.file, what: t.tool, detail: t.error ?? 'skipped' });
  return out;
}

export async function runAnalyzeCommand(
  target: AnalysisEngine | KernelServices,
  pathArg: string,
  opts: AnalyzeCommandOptions,
  io: Io,
): Promise<number> {
  const fail = (msg: string) => {
    io.stderr.write(`vigil analyze: ${msg}\n`);
    return 2;
  };
  let o: ReturnType<typeof parseOptions>;
  try {
    o = parseOptions(opts ?? {}, Boolean(io.stdout.isTTY));
  } catch (e) {
    return fail((e as Error).message);
  }
  // A bad baseline is bad input, found before any analysis runs.
  let baseline: ReturnType<typeof baselineOption>;
  try {
    baseline = baselineOption(opts?.baseline);
  } catch (e) {
    if (e instanceof BaselineError) return fail(e.message);
    throw e;
  }
  const engine = resolveEngine(target);
  if (!engine) return fail('the analysis engine is not loaded (plugin "analysis-engine" missing or failed; see `vigil plugins`)');
  const pool = (target as KernelServices)?.pool ?? null;
  if (!pathArg || typeof pathArg !== 'string') return fail('give a .sol file, a folder or a project root to analyse');
  const abs = path.resolve(pathArg);
  let st: fs.Stats;
  try {
    st = fs.statSync(abs);
  } catch {
    return fail(`path not found: ${pathArg}`);
  }
  const isDir = st.isDirectory();
  if (!isDir && !abs.endsWith('.sol')) return fail(`${pathArg} is not a Solidity file (.sol)`);

  // The project: nearest framework config or package.json above PATH. With one, imports may come
  // from anywhere a framework would look (node_modules up the tree); without, only from PATH.
  const roots = rootsFor(abs, isDir);
  let project: Project;
  try {
    project = loadProject(abs, roots);
  } catch (e) {
    if (e instanceof ProjectConfigError) return fail(e.message);
    throw e;
  }
  const all = isDir ? findSolidityFiles(abs) : [abs];
  if (isDir && all.length === 0) return fail(`no .sol files under ${pathArg} (node_modules is skipped)`);
  const { selected, excluded } = isDir ? selectFiles(all, [project.root, abs], o) : { selected: all, excluded: 0 };
  if (selected.length === 0) {
    return fail(
      `no .sol files to analyse under ${pathArg}: all ${all.length} are excluded (${o.include.length ? `--include ${o.include.join(' ')} matched none` : `default exclusions ${DEFAULT_EXCLUDES.join(', ')}`}${o.exclude.length ? `, --exclude ${o.exclude.join(' ')}` : ''})`,
    );
  }

  const t0 = Date.now();
  const deadline = o.totalMs === null ? Infinity : t0 + o.totalMs;
  const tty = Boolean(io.stderr.isTTY);
  // Progress is for folders; one file's run is one line of output anyway.
  const showProgress = (opts.progress ?? true) && isDir;
  let lastLine = t0;
  const progress = (msg: string, force = false) => {
    if (!showProgress) return;
    const now = Date.now();
    if (tty) io.stderr.write(`\r\x1b[K${msg}`);
    else if (force || now - lastLine >= 10_000) {
      io.stderr.write(`vigil analyze: ${msg}\n`);
      lastLine = now;
    }
  };
  const secs = () => `${Math.round((Date.now() - t0) / 100) / 10} s`;

  // Oversized files are refused before anything compiles them.
  const runs: FileRun[] = [];
  const todo: Array<{ abs: string; file: string }> = [];
  for (const f of selected) {
    const name = displayName(f, isDir ? abs : null);
    const size = fs.statSync(f).size;
    if (size > MAX_SOURCE_BYTES) {
      const msg = `${name}: file is ${size} bytes; the limit is ${MAX_SOURCE_BYTES} bytes (1 MiB)`;
      if (!isDir) return fail(msg);
      runs.push({ file: name, abs: f, body: null, error: msg });
      continue;
    }
    todo.push({ abs: f, file: name });
  }

  // Plan and build: the releases the project needs (installed from npm when missing), then one
  // solc run per release group, in the worker pool.
  const builds = new Map<string, CompileResult>();
  let plan: ProjectPlan | null = null;
  // One file: the engine compiles it (installing its release if needed) while the tools run,
  // which is faster than building first; a folder is built first, once per release group.
  if (isDir)
    try {
      progress(`reading ${todo.length} file${todo.length === 1 ? '' : 's'} and their imports`, todo.length > 50);
      const scanned = scanProject(project, todo);
      const wanted = new Map<string, string[]>();
      for (const f of scanned) if (!f.missing.length) wanted.set(f.ranges.join(' '), f.ranges);
      for (const ranges of wanted.values()) {
        const a = await acquireCompilerFor(ranges);
        if (a.installed) io.stderr.write(`vigil analyze: installed solc ${a.installed} from the npm registry into the solc cache\n`);
        if (a.note) io.stderr.write(`vigil analyze: ${a.note}\n`);
      }
      plan = groupByCompiler(project.root, scanned, project.configSolc);
      if (plan.groups.length)
        progress(
          `compiling ${todo.length} file${todo.length === 1 ? '' : 's'} in ${plan.groups.length} build${plan.groups.length > 1 ? 's' : ''} (${plan.groups.map((g) => `solc ${g.version}: ${g.entries.length}`).join(', ')})`,
          todo.length > 50,
        );
      const buildDeadline = Number.isFinite(deadline) ? deadline : Date.now() + Math.max(120_000, o.perFileMs);
      const built = await Promise.all(
        plan.groups.map((g) =>
          compileGroup({ start: project.root, roots, group: g, outputs: 'check' }, { pool, deadline: buildDeadline }).catch((e: Error) => {
            io.stderr.write(
              `vigil analyze: the solc ${g.version} build of ${g.entries.length} files did not finish (${e.message}); compiling them one by one\n`,
            );
            return null;
          }),
        ),
      );
      for (const b of built) if (b) for (const [file, r] of Object.entries(b.results)) if (r) builds.set(file, r);
    } catch (e) {
      if (e instanceof ProjectConfigError) return fail(e.message);
      throw e;
    }

  // Analyse every file from the build, a few at a time (each runs its tools in the pool).
  // Twice the pool's threads: while one file's tools run, the next file's are queued (its main-
  // thread work, reading and correlating, overlaps theirs). Every layer at once (full mode) is
  // different: a file's analysis budget runs from its start and its two searches (fuzzing and
  // symbolic execution) each hold a worker for it, so one file per two threads, or files queued
  // behind others would find their budget spent before their searches got a worker.
  const threads = Math.min(4, os.availableParallelism());
  const everyLayer = o.auditType === 'full' || (o.auditType === 'layer' && o.layer === 9);
  const concurrency = Math.max(1, Math.min(8, !pool ? 1 : everyLayer ? Math.floor(threads / 2) : 2 * threads, todo.length));
  let next = 0;
  let done = 0;
  const one = async (item: { abs: string; file: string }) => {
    const source = fs.readFileSync(item.abs, 'utf8');
    const left = deadline - Date.now();
    const remainingFiles = todo.length - done;
    // With --timeout the files share what is left (a few run at a time); without, each has its own budget.
    const budget = Number.isFinite(left)
      ? Math.max(1000, Math.min(o.perFileMs, Math.floor((left * concurrency) / Math.max(1, remainingFiles)), left))
      : o.perFileMs;
    const precompiled = builds.get(item.file);
    try {
      const body = await engine.analyze(
        { source, file: item.file, absPath: item.abs, roots, ...(precompiled ? { precompiled } : {}) },
        { mode: o.auditType, layer: o.layer, tool: o.tool, timeoutMs: budget },
      );
      runs.push({ file: item.file, abs: item.abs, body, error: null });
    } catch (e) {
      const err = e as Error & { statusCode?: number; code?: string; details?: { errors?: FileRun['invalid'] } };
      if (err.code === 'invalid_solidity')
        runs.push({
          file: item.file,
          abs: item.abs,
          body: null,
          error: err.message,
          invalid: err.details?.errors ?? [{ message: err.message, file: item.file, line: null, column: null }],
        });
      else if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500 && err.statusCode !== 408) {
        if (!isDir) throw new BadInput(`${item.file}: ${err.message}`);
        runs.push({ file: item.file, abs: item.abs, body: null, error: err.message });
      } else runs.push({ file: item.file, abs: item.abs, body: null, error: `analysis failed: ${err.message}` });
    }
    done++;
    progress(`[${done}/${todo.length}] ${secs()}  ${item.file}`);
  };
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < todo.length) await one(todo[next++]);
      }),
    );
  } catch (e) {
    if (tty && showProgress) io.stderr.write('\r\x1b[K');
    if (e instanceof BadInput) return fail(e.message);
    throw e;
  }
  if (tty && showProgress) io.stderr.write('\r\x1b[K');
  else if (todo.length > 1 && Date.now() - t0 > 10_000) progress(`${todo.length} files analysed in ${secs()}`, true);

  // Input order, not completion order.
  const order = new Map(selected.map((f, i) => [f, i]));
  runs.sort((a, b) => order.get(a.abs)! - order.get(b.abs)!);
  const analysed = runs.filter((r) => r.body);
  if (!analysed.length) {
    const invalid = runs.filter((r) => r.invalid);
    for (const r of invalid)
      for (const e of r.invalid!)
        io.stderr.write(`vigil analyze: ${e.file}${e.line ? `:${e.line}${e.column ? `:${e.column}` : ''}` : ''}: ${e.message}\n`);
    for (const r of runs.filter((x) => !x.invalid)) io.stderr.write(`vigil analyze: ${r.file}: ${r.error}\n`);
    return fail(
      invalid.length
        ? `${invalid.length === 1 && !isDir ? pathArg : `every file under ${pathArg}`} is not valid Solidity`
        : 'no file could be analysed',
    );
  }

  const incomplete = incompleteOf(runs);
  const result = isDir ? combine(pathArg, runs, o.auditType, t0) : analysed[0].body!;
  result.incomplete = incomplete;
  const skipped = skippedOf(runs);
  result.skipped = skipped;
  if (isDir) {
    result.project = {
      root: project.root,
      config: project.marker,
      remappings: project.remappings.length,
      files_found: all.length,
      files_excluded: excluded,
      builds: plan?.groups.map((g) => ({ compiler: g.version, files: g.entries.length, pinned_release_missing: g.blank })) ?? [],
    };
  }
  // Suppressed and already-known findings are neither reported nor failed on.
  finishReport(
    result,
    runs.map((r) => ({ file: r.file, abs: r.abs })),
    baseline,
    io,
  );
  let text: string;
  switch (o.format) {
    case 'sarif':
      text = JSON.stringify(toSarif(result, isDir ? {} : { uri: runs[0].file }), null, 2) + '\n';
      break;
    case 'markdown':
      text = toMarkdown(result);
      break;
    case 'html':
      text = toHtml(result);
      break;
    case 'text':
      text = formatHuman(result, { color: Boolean(io.stdout.isTTY) && !process.env.NO_COLOR, files: runs.length });
      break;
    default:
      text = JSON.stringify(result, null, 2) + '\n';
  }
  io.stdout.write(text);
  // stderr names every incomplete file and tool, whatever the format.
  if (incomplete.length) {
    io.stderr.write(
      `vigil analyze: incomplete: ${incomplete.length} item${incomplete.length > 1 ? 's' : ''} did not complete${o.allowPartial ? ' (--allow-partial)' : ''}:\n`,
    );
    for (const i of incomplete)
      io.stderr.write(
        `  ${i.file}: ${i.what === 'compile' ? 'compilation' : i.what === 'parse' ? 'not valid Solidity' : i.what === 'file' ? 'not analysed' : `tool ${i.what}`}: ${i.detail}\n`,
      );
  }
  if (skipped.length) {
    const byTool = new Map<string, Incomplete[]>();
    for (const k of skipped) byTool.set(k.what, [...(byTool.get(k.what) ?? []), k]);
    io.stderr.write(`vigil analyze: skipped by design, not counted as incomplete (each is in the output's "skipped"):\n`);
    for (const [tool, list] of byTool)
      io.stderr.write(
        `  tool ${tool} skipped ${list.length} file${list.length > 1 ? 's' : ''}, e.g. ${list
          .slice(0, 2)
          .map((k) => `${k.file}: ${k.detail}`)
          .join('; ')}\n`,
      );
  }
  const failed = o.failOn ? result.findings.some((f) => RANK[f.severity] >= RANK[o.failOn!]) : false;
  if (incomplete.length && !o.allowPartial) return 3;
  return failed ? 1 : 0;
}
