// `vigil analyze PATH`: the same body the REST analyze endpoints return, for a file or a whole
// folder (every .sol file below it, node_modules skipped). Exit codes: 0 = ran, 1 = a finding
// at or above --fail-on, 2 = bad input (missing path, no .sol files, bad option, unparsable
// or oversized source).
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AnalysisEngine, AnalysisResult, AuditType, KernelServices } from '../../kernel/index.ts';
import { SEVERITIES, type Finding, type Severity, type ToolResult, type ToolStatus } from '../../schemas/finding.ts';
import { MAX_SOURCE_BYTES } from './engine.ts';
import { toMarkdown } from './format/markdown.ts';
import { toSarif } from './format/sarif.ts';
import { toHtml } from './format/html.ts';
import { baselineOption, BaselineError, finishReport } from './cli-filters.ts'; // cliux: suppressions, --baseline

export interface AnalyzeCommandOptions {
  mode?: string;
  layer?: string | number;
  tool?: string;
  format?: string;
  failOn?: string;
  /** Seconds for the whole run (all files). */
  timeout?: string | number;
  /** cliux: an earlier JSON or SARIF output; only findings not in it are reported and failed on. */
  baseline?: string;
}

export interface Io {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown };
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

function parseOptions(o: AnalyzeCommandOptions) {
  const mode = String(o.mode ?? 'quick');
  if (mode !== 'quick' && mode !== 'full') throw new BadInput(`--mode must be quick or full, got "${mode}"`);
  let layer: number | undefined;
  if (o.layer !== undefined && o.layer !== null && o.layer !== '') {
    layer = Number(o.layer);
    if (!Number.isInteger(layer) || layer < 1 || layer > 9) throw new BadInput(`--layer must be an integer from 1 to 9, got "${o.layer}"`);
  }
  const tool = o.tool ? String(o.tool) : undefined;
  if (tool && layer !== undefined) throw new BadInput('use either --layer or --tool, not both');
  const format = String(o.format ?? 'json').toLowerCase();
  if (!['json', 'sarif', 'markdown', 'html'].includes(format)) throw new BadInput(`--format must be json, sarif or markdown, got "${o.format}"`);
  let failOn: Severity | undefined;
  if (o.failOn !== undefined && o.failOn !== null && o.failOn !== '') {
    const s = String(o.failOn).toUpperCase();
    if (!(SEVERITIES as readonly string[]).includes(s)) throw new BadInput(`--fail-on must be one of ${SEVERITIES.join(', ')}, got "${o.failOn}"`);
    failOn = s as Severity;
  }
  const timeout = o.timeout === undefined || o.timeout === '' ? 300 : Number(o.timeout);
  if (!Number.isFinite(timeout) || timeout <= 0 || timeout > 3600) throw new BadInput(`--timeout must be a number of seconds from 1 to 3600, got "${o.timeout}"`);
  const auditType: AuditType = tool ? 'tool' : layer !== undefined ? 'layer' : (mode as AuditType);
  return { auditType, layer, tool, format, failOn, timeoutMs: timeout * 1000 };
}

const RANK: Record<Severity, number> = { CRITICAL: 4, HIGH: 3, MEDIUM: 2, LOW: 1, INFO: 0 };

function displayName(abs: string, base: string | null): string {
  const fromCwd = path.relative(process.cwd(), abs);
  if (!fromCwd.startsWith('..') && !path.isAbsolute(fromCwd)) return fromCwd.split(path.sep).join('/');
  return (base ? path.relative(base, abs) : path.basename(abs)).split(path.sep).join('/');
}

function mergeStatus(a: ToolStatus, b: ToolStatus): ToolStatus {
  const order: ToolStatus[] = ['error', 'timeout', 'success', 'skipped', 'not_available'];
  return order.indexOf(a) <= order.indexOf(b) ? a : b;
}

/** One body for a folder: per-tool results merged across files, findings carrying their file. */
function combine(dir: string, bodies: Array<{ file: string; body: AnalysisResult | null; error: string | null }>, auditType: AuditType, t0: number): AnalysisResult {
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
  const summary: Record<Severity, number> = { CRITICAL: 0, HIGH: 0, MEDIUM: 0, LOW: 0, INFO: 0 };
  for (const f of findings) summary[f.severity]++;
  findings.sort((a, b) => RANK[b.severity] - RANK[a.severity] || a.location.file.localeCompare(b.location.file) || a.location.line - b.location.line);
  const sha = createHash('sha256');
  for (const b of bodies) sha.update(`${b.file}\u0000${b.body?.contract.sha256 ?? ''}\n`);
  const ok = bodies.filter((b) => b.body);
  return {
    audit_id: randomUUID(),
    audit_type: auditType,
    contract: { name: path.basename(path.resolve(dir)), sha256: sha.digest('hex'), pragma: null, compiler: [...new Set(ok.map((b) => b.body!.contract.compiler).filter(Boolean))].join(', ') || null },
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

export async function runAnalyzeCommand(target: AnalysisEngine | KernelServices, pathArg: string, opts: AnalyzeCommandOptions, io: Io): Promise<number> {
  const fail = (msg: string) => {
    io.stderr.write(`vigil analyze: ${msg}\n`);
    return 2;
  };
  let o: ReturnType<typeof parseOptions>;
  try {
    o = parseOptions(opts ?? {});
  } catch (e) {
    return fail((e as Error).message);
  }
  // cliux: a bad baseline is bad input, found before any analysis runs.
  let baseline: ReturnType<typeof baselineOption> = null;
  try {
    baseline = baselineOption(opts?.baseline);
  } catch (e) {
    if (e instanceof BaselineError) return fail(e.message);
    throw e;
  }
  const engine = resolveEngine(target);
  if (!engine) return fail('the analysis engine is not loaded (plugin "analysis-engine" missing or failed; see `vigil plugins`)');
  if (!pathArg || typeof pathArg !== 'string') return fail('give a .sol file or a folder to analyse');
  const abs = path.resolve(pathArg);
  let st: fs.Stats;
  try {
    st = fs.statSync(abs);
  } catch {
    return fail(`path not found: ${pathArg}`);
  }
  const isDir = st.isDirectory();
  const files = isDir ? findSolidityFiles(abs) : [abs];
  if (isDir && files.length === 0) return fail(`no .sol files under ${pathArg} (node_modules is skipped)`);
  if (!isDir && !abs.endsWith('.sol')) return fail(`${pathArg} is not a Solidity file (.sol)`);

  const t0 = Date.now();
  const deadline = t0 + o.timeoutMs;
  // The path the user named is trusted for imports, in addition to the configured roots.
  const root = isDir ? abs : path.dirname(abs);
  const bodies: Array<{ file: string; body: AnalysisResult | null; error: string | null }> = [];
  let badInput = false;
  for (let i = 0; i < files.length; i++) {
    const f = files[i];
    const name = displayName(f, isDir ? abs : null);
    const size = fs.statSync(f).size;
    if (size > MAX_SOURCE_BYTES) {
      const msg = `${name}: file is ${size} bytes; the limit is ${MAX_SOURCE_BYTES} bytes (1 MiB)`;
      if (!isDir) return fail(msg);
      io.stderr.write(`vigil analyze: skipped ${msg}\n`);
      bodies.push({ file: name, body: null, error: msg });
      continue;
    }
    const source = fs.readFileSync(f, 'utf8');
    // Unused time of earlier files rolls over to later ones.
    const share = Math.max(1000, Math.floor((deadline - Date.now()) / (files.length - i)));
    try {
      const body = await engine.analyze(
        { source, file: name, absPath: f, roots: [root] },
        { mode: o.auditType, layer: o.layer, tool: o.tool, timeoutMs: share },
      );
      bodies.push({ file: name, body, error: null });
      if (body.notes?.some((n) => n.startsWith('the source does not parse')) && body.compilation && !body.compilation.ok) {
        // A single file nothing can read is bad input; in a folder it is one file's note.
        if (!isDir) badInput = true;
        io.stderr.write(`vigil analyze: ${name}: ${body.notes.find((n) => n.startsWith('the source does not parse'))}\n`);
      }
    } catch (e) {
      const err = e as Error & { statusCode?: number };
      if (!isDir || (err.statusCode && err.statusCode !== 400 && err.statusCode !== 413)) return fail(`${name}: ${err.message}`);
      io.stderr.write(`vigil analyze: skipped ${name}: ${err.message}\n`);
      bodies.push({ file: name, body: null, error: err.message });
    }
  }
  if (!bodies.some((b) => b.body)) return fail('no file could be analysed');

  const result = isDir ? combine(pathArg, bodies, o.auditType, t0) : bodies[0].body!;
  // cliux: suppressed and already-known findings are neither reported nor failed on.
  finishReport(result, files.map((f) => ({ file: displayName(f, isDir ? abs : null), abs: f })), baseline, io);
  let text: string;
  switch (o.format) {
    case 'sarif':
      text = JSON.stringify(toSarif(result, isDir ? {} : { uri: bodies[0].file }), null, 2) + '\n';
      break;
    case 'markdown':
      text = toMarkdown(result);
      break;
    case 'html':
      text = toHtml(result);
      break;
    default:
      text = JSON.stringify(result, null, 2) + '\n';
  }
  io.stdout.write(text);
  if (badInput) return 2;
  if (o.failOn && result.findings.some((f) => RANK[f.severity] >= RANK[o.failOn!])) return 1;
  return 0;
}
