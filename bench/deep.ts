// Deep-layer robustness benchmark: `npm run bench:deep [-- --json] [-- --timeout S] [-- --dir DIR] [-- --only NAME] [-- --per-tool] [-- --warm]`.
// Runs full mode (every available layer, through a booted kernel and its worker pool, as
// `POST /analyze/full/` does) over bench/deep-corpus/ — larger real-style contracts (tokens with
// fees and permits, NFTs, vaults, staking, governance and timelock, multisig, AMM pair, lending,
// auctions, airdrops; solc 0.5 to 0.8) — and prints, per contract, the status and time of the
// two EVM tools (vigil-fuzz, layer 2; vigil-symbolic, layer 3), their findings, and any error
// with its cause; then totals: tool errors, timeouts (and whether the request's deadline had
// run out), the mean time per contract. Tool errors are also logged by the plugin (stderr).
// `--per-tool` runs each full-mode tool alone (`mode: 'tool'`, one after the other, same kernel)
// and prints the CPU seconds (user+sys of this process, pool workers included) each one costs per
// contract: where full mode's time goes, on a machine where wall time says little.
// BENCH_FULL_BUDGET_MS overrides full mode's shared analysis budget (plugins.analysis-engine.full_budget_ms).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { Kernel } from '../kernel/kernel.ts';
import { resolveSettings } from '../kernel/config.ts';
import type { AnalysisEngine } from '../kernel/index.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const WARM_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Warm {
    mapping(address => uint256) public balance;
    uint256 public total;
    function deposit() external payable { balance[msg.sender] += msg.value; total += msg.value; }
    function withdraw(uint256 a) external {
        require(balance[msg.sender] >= a);
        balance[msg.sender] -= a;
        total -= a;
        payable(msg.sender).transfer(a);
    }
    function share(uint256 a, uint256 b) external pure returns (uint256) { return a / b; }
}
`;
const EVM_TOOLS = ['vigil-fuzz', 'vigil-symbolic'];

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

interface ToolRow {
  status: string;
  seconds: number;
  findings: number;
  error: string | null;
}

interface ContractRow {
  file: string;
  lines: number;
  seconds: number;
  /** CPU seconds (user+sys of the process, pool workers included) the contract took. */
  cpu_s: number;
  tools: Record<string, ToolRow>;
  /** Every tool's status (all layers), for the totals. */
  all: Record<string, string>;
  /** Each tool's findings as "detector:line:severity" (to compare runs). */
  findings: Record<string, string[]>;
  /** --per-tool: CPU seconds of each tool run alone. */
  tool_cpu_s?: Record<string, number>;
  /** Tools whose answer a budget cut short (the response's "<tool>: partial result: …" notes). */
  partial?: string[];
  /** The SMTChecker's model-checking jobs: answered, and those a budget left unchecked (from its note). */
  smt_jobs?: { answered: number; not_checked: number };
}

/** Job names of a list as the SMTChecker writes it ("A [x, y], B"): commas inside brackets are not separators. */
const jobList = (s: string | undefined) => (!s || s === 'no job' ? [] : s.split(/,\s(?![^[]*\])/));

/** Answered and unchecked jobs from the SMTChecker's partial-result note (null: no note, i.e. complete or skipped). */
export function smtJobsOf(notes: string[]): { answered: number; not_checked: number } | null {
  const n = notes.find((x) => x.startsWith('smtchecker: partial result: '));
  if (!n) return null;
  const before = /ended before (.*?) (?:was|were) answered/.exec(n)?.[1];
  const answered = /the answers of (.*?) are reported/.exec(n)?.[1];
  return { answered: jobList(answered).length, not_checked: jobList(before).length };
}

export async function runDeepBenchmark(opts: {
  dir: string;
  timeoutS: number;
  only?: string;
  log?: pino.Logger;
  perTool?: boolean;
  /** One uncounted full-mode run first (a server's workers are warm: solc, Z3, the parser loaded). */
  warm?: boolean;
}) {
  const files = fs
    .readdirSync(opts.dir)
    .filter((f) => f.endsWith('.sol') && (!opts.only || opts.only.split(',').some((o) => f.includes(o))))
    .sort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-bench-deep-'));
  const settings = resolveSettings({ dataDir, logLevel: 'warn' });
  // The health self-tests would compete with the benchmark for the two pool workers.
  settings.file.plugins = {
    ...(settings.file.plugins ?? {}),
    'analysis-engine': {
      self_test_on_start: false,
      ...(process.env.BENCH_FULL_BUDGET_MS ? { full_budget_ms: Number(process.env.BENCH_FULL_BUDGET_MS) } : {}),
    },
  };
  const kernel = new Kernel({ settings, logger: opts.log ?? pino({ level: 'warn' }, pino.destination(2)) });
  await kernel.boot();
  const rows: ContractRow[] = [];
  const cpuOf = (c0: NodeJS.CpuUsage) => {
    const d = process.cpuUsage(c0);
    return round((d.user + d.system) / 1e6);
  };
  try {
    const engine = kernel.services.get<AnalysisEngine>('analysis');
    if (!engine) throw new Error('the analysis engine plugin did not load');
    // A contract of none of the files (so no memo answers a measured one): loads solc 0.8, Z3 and
    // the parser in the workers, as a server that has analysed anything has them.
    if (opts.warm) await engine.analyze({ source: WARM_SOURCE, file: 'Warm.sol' }, { mode: 'full', timeoutMs: opts.timeoutS * 1000 });
    const fullTools = opts.perTool
      ? (await engine.listTools()).filter((t) => t.available && t.modes.includes('full')).map((t) => t.name)
      : [];
    for (const file of files) {
      const source = fs.readFileSync(path.join(opts.dir, file), 'utf8');
      const c0 = process.cpuUsage();
      const t0 = Date.now();
      if (opts.perTool) {
        const cpu: Record<string, number> = {};
        const status: Record<string, string> = {};
        const found: Record<string, string[]> = {};
        for (const tool of fullTools) {
          const c1 = process.cpuUsage();
          const r = await engine.analyze({ source, file }, { mode: 'tool', tool, timeoutMs: opts.timeoutS * 1000 });
          cpu[tool] = cpuOf(c1);
          const res = r.results.find((x) => x.tool === tool);
          status[tool] = res?.status ?? 'absent';
          found[tool] = findingKeys(res?.findings ?? []);
        }
        const row = {
          file,
          lines: source.split('\n').length,
          seconds: (Date.now() - t0) / 1000,
          cpu_s: cpuOf(c0),
          tools: {},
          all: status,
          tool_cpu_s: cpu,
          findings: found,
        };
        rows.push(row);
        if (!process.argv.includes('--json'))
          console.log(
            `${file.padEnd(22)} ${Object.entries(cpu)
              .map(([t, s]) => `${t} ${s}s/${status[t]}`)
              .join('  ')}`,
          );
        continue;
      }
      const r = await engine.analyze({ source, file }, { mode: 'full', timeoutMs: opts.timeoutS * 1000 });
      const seconds = (Date.now() - t0) / 1000;
      const tools: Record<string, ToolRow> = {};
      const all: Record<string, string> = {};
      for (const t of r.results) {
        all[t.tool] = t.status;
        if (!EVM_TOOLS.includes(t.tool)) continue;
        tools[t.tool] = {
          status: t.status,
          seconds: t.execution_time,
          findings: r.findings.filter((f) => f.tools.includes(t.tool)).length,
          error: t.error ?? null,
        };
      }
      const found: Record<string, string[]> = {};
      for (const t of r.results) found[t.tool] = findingKeys(t.findings);
      const partial = (r.notes ?? []).map((n) => /^(\S+): partial result: /.exec(n)?.[1]).filter((t): t is string => Boolean(t));
      const smt = smtJobsOf(r.notes ?? []);
      const row = {
        file,
        lines: source.split('\n').length,
        seconds,
        cpu_s: cpuOf(c0),
        tools,
        all,
        findings: found,
        partial,
        ...(smt ? { smt_jobs: smt } : {}),
        partial_notes: (r.notes ?? []).filter((n) => n.includes(': partial result: ')),
      };
      rows.push(row);
      if (!process.argv.includes('--json')) printRow(row);
    }
  } finally {
    await kernel.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return { rows, totals: totalsOf(rows, opts.timeoutS) };
}

const findingKeys = (fs: Array<{ detector?: string; title: string; location: { line: number }; severity: string }>) =>
  fs.map((f) => `${f.detector ?? f.title}:${f.location.line}:${f.severity}`).sort();

function totalsOf(rows: ContractRow[], timeoutS: number) {
  const per: Record<string, Record<string, number>> = {};
  let otherErrors = 0;
  for (const r of rows) {
    for (const [tool, st] of Object.entries(r.all)) {
      (per[tool] ??= {})[st] = (per[tool][st] ?? 0) + 1;
      if (st === 'error' && !EVM_TOOLS.includes(tool)) otherErrors++;
    }
  }
  const evmRuns = rows.flatMap((r) => Object.values(r.tools));
  const secs = rows.map((r) => r.seconds).sort((a, b) => a - b);
  return {
    contracts: rows.length,
    lines: rows.reduce((n, r) => n + r.lines, 0),
    evm_tool_errors: evmRuns.filter((t) => t.status === 'error').length,
    evm_tool_timeouts: evmRuns.filter((t) => t.status === 'timeout').length,
    // A timeout is expected only when the request's deadline ran out (the tools aim to answer up
    // to 1.5 s before it, so what they found by then is reported).
    evm_timeouts_before_request_deadline: rows.filter(
      (r) => Object.values(r.tools).some((t) => t.status === 'timeout') && r.seconds < timeoutS - 2,
    ).length,
    other_tool_errors: otherErrors,
    evm_findings: evmRuns.reduce((n, t) => n + t.findings, 0),
    cpu_s_per_contract: round(rows.reduce((n, r) => n + r.cpu_s, 0) / Math.max(1, rows.length)),
    ...(rows.some((r) => r.tool_cpu_s)
      ? {
          tool_cpu_s_per_contract: Object.fromEntries(
            [...new Set(rows.flatMap((r) => Object.keys(r.tool_cpu_s ?? {})))].map((t) => [
              t,
              round(rows.reduce((n, r) => n + (r.tool_cpu_s?.[t] ?? 0), 0) / rows.length),
            ]),
          ),
        }
      : {}),
    seconds_per_contract: {
      mean: round(secs.reduce((a, b) => a + b, 0) / Math.max(1, secs.length)),
      p95: round(secs[Math.min(secs.length - 1, Math.floor(secs.length * 0.95))] ?? 0),
      max: round(secs.at(-1) ?? 0),
    },
    status_per_tool: per,
    /** The SMTChecker: files it answered whole, files a budget cut short, and over those, the jobs
     *  answered and left unchecked (its proofs are the answered jobs). */
    smtchecker: {
      complete: rows.filter((r) => r.all.smtchecker === 'success' && !r.smt_jobs).length,
      partial: rows.filter((r) => r.smt_jobs).length,
      partial_with_no_job_answered: rows.filter((r) => r.smt_jobs && r.smt_jobs.answered === 0).length,
      jobs_answered_when_partial: rows.reduce((n, r) => n + (r.smt_jobs?.answered ?? 0), 0),
      jobs_not_checked: rows.reduce((n, r) => n + (r.smt_jobs?.not_checked ?? 0), 0),
    },
    /** Per tool: on how many contracts a budget cut its answer short (reported as partial). */
    partial_per_tool: rows.reduce<Record<string, number>>((acc, r) => {
      for (const t of r.partial ?? []) acc[t] = (acc[t] ?? 0) + 1;
      return acc;
    }, {}),
  };
}

const round = (x: number) => Math.round(x * 100) / 100;

function printRow(r: ContractRow) {
  const cells = EVM_TOOLS.map((n) => {
    const t = r.tools[n];
    return t ? `${n} ${t.status} ${t.seconds.toFixed(1)}s ${t.findings}f` : `${n} absent`;
  });
  console.log(
    `${r.file.padEnd(22)} ${String(r.lines).padStart(4)} lines  ${r.seconds.toFixed(1).padStart(5)} s  ${cells.join('  ')}${r.partial?.length ? `  partial: ${r.partial.join(', ')}` : ''}`,
  );
  for (const n of EVM_TOOLS) {
    const t = r.tools[n];
    if (t && t.status !== 'success' && t.error) console.log(`    ${n}: ${t.error}`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = path.resolve(arg('dir') ?? path.join(here, 'deep-corpus'));
  const timeoutS = Number(arg('timeout') ?? 60);
  const out = await runDeepBenchmark({
    dir,
    timeoutS,
    only: arg('only'),
    perTool: process.argv.includes('--per-tool'),
    warm: process.argv.includes('--warm'),
  });
  if (process.argv.includes('--json')) console.log(JSON.stringify(out, null, 2));
  else {
    const t = out.totals;
    console.log(
      `\n${t.contracts} contracts (${t.lines} lines), request timeout ${timeoutS} s: ` +
        `EVM tool errors ${t.evm_tool_errors}, timeouts ${t.evm_tool_timeouts} (${t.evm_timeouts_before_request_deadline} before the request deadline), ` +
        `layer 2/3 findings ${t.evm_findings}, other tools' errors ${t.other_tool_errors}; ` +
        `s/contract mean ${t.seconds_per_contract.mean}, p95 ${t.seconds_per_contract.p95}, max ${t.seconds_per_contract.max}; ` +
        `CPU s/contract ${t.cpu_s_per_contract}`,
    );
    console.log(`  partial answers (a budget ended the search) per tool: ${JSON.stringify(t.partial_per_tool)}`);
    console.log(`  SMTChecker: ${JSON.stringify(t.smtchecker)}`);
    if (t.tool_cpu_s_per_contract) console.log(`  CPU s per contract, each tool alone: ${JSON.stringify(t.tool_cpu_s_per_contract)}`);
    for (const [tool, st] of Object.entries(t.status_per_tool)) console.log(`  ${tool.padEnd(18)} ${JSON.stringify(st)}`);
  }
}
