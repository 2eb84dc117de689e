// Real projects through the real CLI: `npm run bench:real-world [-- --mode quick|full] [-- --json]
// [-- --only NAME] [-- --dataset DIR] [-- --save DIR]`. Runs `vigil analyze <project> --format json` (a fresh
// process each, as a user or CI would) over every project in ../shared/datasets/real-world/ (or
// --dataset) and prints, per project: files reported, compiled, parse-only, incomplete items,
// builds (solc runs by release), findings per severity, findings per 10k SLOC, exit code and wall
// time. The exit code is the CLI's own: 0/1 complete, 3 incomplete (what stderr names is kept).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sloc } from './sloc.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const mode = flag('--mode') ?? 'quick';
const json = args.includes('--json');
const only = flag('--only');
/** Keep each project's JSON body (and stderr) in this folder. */
const save = flag('--save');
const dataset = path.resolve(flag('--dataset') ?? path.join(repoRoot, '..', 'shared', 'datasets', 'real-world'));

interface Row {
  project: string;
  exit: number | null;
  wall_s: number;
  cpu_s: number | null;
  load_avg: number;
  files: number;
  compiled: number;
  parse_only: number;
  incomplete: number;
  incomplete_items: string[];
  builds: string;
  sloc: number;
  findings: Record<string, number>;
  total: number;
  per_10k_sloc: number;
  error?: string;
}

// CPU seconds (user + system, every thread) say what a run costs on a machine shared with other
// work, where wall time mostly measures the neighbours: GNU time reports them when installed.
const GNU_TIME = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

function runCli(target: string): Promise<{ code: number | null; stdout: string; stderr: string; ms: number; cpu_s: number | null }> {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const cli = [process.execPath, path.join(repoRoot, 'bin', 'vigil.js'), 'analyze', target, '--mode', mode, '--format', 'json'];
    const argv = GNU_TIME ? [GNU_TIME, '-f', 'VIGIL_CPU %U %S', ...cli] : cli;
    const child = spawn(argv[0], argv.slice(1), { cwd: repoRoot, env: { ...process.env, VIGIL_LOG_LEVEL: 'error' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => {
      stderr += d;
      if (!json && !String(d).startsWith('VIGIL_CPU')) process.stderr.write(d);
    });
    child.on('close', (code) => {
      const m = /VIGIL_CPU ([\d.]+) ([\d.]+)/.exec(stderr);
      resolve({ code, stdout, stderr, ms: Date.now() - t0, cpu_s: m ? Math.round((Number(m[1]) + Number(m[2])) * 10) / 10 : null });
    });
  });
}

async function main() {
  const projects = fs
    .readdirSync(dataset, { withFileTypes: true })
    .filter((e) => e.isDirectory() && (!only || e.name === only))
    .map((e) => e.name)
    .sort();
  const rows: Row[] = [];
  for (const p of projects) {
    const dir = path.join(dataset, p);
    if (!json) process.stderr.write(`\n== ${p} (vigil analyze --mode ${mode})\n`);
    const r = await runCli(dir);
    if (save) {
      fs.mkdirSync(save, { recursive: true });
      fs.writeFileSync(path.join(save, `${p}.json`), r.stdout);
      fs.writeFileSync(path.join(save, `${p}.stderr.txt`), r.stderr);
    }
    let body: any = null;
    try {
      body = JSON.parse(r.stdout);
    } catch {
      /* reported below */
    }
    if (!body) {
      rows.push({
        project: p,
        exit: r.code,
        wall_s: r.ms / 1000,
        cpu_s: r.cpu_s,
        load_avg: os.loadavg()[0],
        files: 0,
        compiled: 0,
        parse_only: 0,
        incomplete: 0,
        incomplete_items: [],
        builds: '',
        sloc: 0,
        findings: {},
        total: 0,
        per_10k_sloc: 0,
        error: r.stderr.trim().split('\n').slice(-3).join(' '),
      });
      continue;
    }
    const files = (body.files ?? []) as Array<{ file: string; compilation: { ok: boolean } | null }>;
    let lines = 0;
    for (const f of files) {
      try {
        lines += sloc(fs.readFileSync(path.resolve(repoRoot, f.file), 'utf8'));
      } catch {
        try {
          lines += sloc(fs.readFileSync(path.join(dir, f.file), 'utf8'));
        } catch {
          /* unreadable: not counted */
        }
      }
    }
    const incomplete = (body.incomplete ?? []) as Array<{ file: string; what: string; detail: string }>;
    rows.push({
      project: p,
      exit: r.code,
      wall_s: Math.round(r.ms / 100) / 10,
      cpu_s: r.cpu_s,
      load_avg: Math.round(os.loadavg()[0] * 10) / 10,
      files: files.length,
      compiled: files.filter((f) => f.compilation?.ok).length,
      parse_only: files.filter((f) => f.compilation && !f.compilation.ok).length,
      incomplete: incomplete.length,
      incomplete_items: incomplete.map((i) => `${i.file}: ${i.what}`),
      builds: (body.project?.builds ?? []).map((b: { compiler: string; files: number }) => `${b.compiler}×${b.files}`).join(' '),
      sloc: lines,
      findings: body.summary,
      total: body.total_findings,
      per_10k_sloc: lines ? Math.round((body.total_findings / lines) * 10000 * 10) / 10 : 0,
    });
  }
  if (json) {
    process.stdout.write(JSON.stringify({ mode, dataset, rows }, null, 2) + '\n');
    return;
  }
  const head = [
    'project',
    'exit',
    'wall s',
    'CPU s',
    'load',
    'files',
    'compiled',
    'parse-only',
    'incomplete',
    'builds',
    'SLOC',
    'C/H/M/L/I',
    'per 10k SLOC',
  ];
  const table = rows.map((r) => [
    r.project,
    String(r.exit),
    String(r.wall_s),
    String(r.cpu_s ?? '-'),
    String(r.load_avg),
    String(r.files),
    String(r.compiled),
    String(r.parse_only),
    String(r.incomplete),
    r.builds,
    String(r.sloc),
    r.findings ? ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'].map((s) => r.findings[s] ?? 0).join('/') : '-',
    String(r.per_10k_sloc),
  ]);
  const w = head.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
  process.stdout.write('\n' + head.map((h, i) => h.padEnd(w[i])).join('  ') + '\n');
  for (const row of table) process.stdout.write(row.map((c, i) => c.padEnd(w[i])).join('  ') + '\n');
  for (const r of rows) {
    if (r.error) process.stdout.write(`${r.project}: ${r.error}\n`);
    if (r.incomplete_items.length)
      process.stdout.write(
        `${r.project} incomplete: ${r.incomplete_items.slice(0, 20).join('; ')}${r.incomplete_items.length > 20 ? ` … (${r.incomplete_items.length})` : ''}\n`,
      );
  }
}

await main();
