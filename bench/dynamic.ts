// Dynamic-testing benchmark: `node --import tsx bench/dynamic.ts [--budget 5000] [--limit N]
// [--category reentrancy] [--file NAME] [--json] [--verbose]`.
// Runs the vigil-fuzz fuzzer in process over SmartBugs curated with a fixed fuzzing budget per
// contract (compilation not counted in the budget, reported separately), then replays every
// proof-carrying finding on a fresh EVM (a finding whose sequence does not break its property
// again would be a false proof). Prints per category: confirmed findings, how many replay,
// line-level matches with the labels (same category, finding lines cover a labelled line) and
// time per contract.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CATEGORIES, type Finding } from '../schemas/finding.ts';
import { fuzzProgram, proofsToFindings } from '../plugins/tool-evm/fuzz/task.ts';
import { compileProgram } from '../plugins/tool-evm/evm/program.ts';
import { replaySequence, type SequenceEvidence } from '../plugins/tool-evm/evm/replay.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1] : dflt;
};
const budget = Number(opt('budget', '5000'));
const limit = Number(opt('limit', '0'));
const only = opt('category', '');
const root = process.env.VIGIL_DATASETS ? path.resolve(process.env.VIGIL_DATASETS) : path.resolve(repoRoot, '../shared/datasets');
const sbDir = path.join(root, 'smartbugs-curated');
if (!fs.existsSync(path.join(sbDir, 'vulnerabilities.json'))) {
  console.error(`SmartBugs curated not found at ${sbDir} (set VIGIL_DATASETS)`);
  process.exit(2);
}
type Entry = { path: string; vulnerabilities: Array<{ lines: number[]; category: string }> };
let entries = JSON.parse(fs.readFileSync(path.join(sbDir, 'vulnerabilities.json'), 'utf8')) as Entry[];
if (only) entries = entries.filter((e) => e.path.split('/')[1] === only);
const fileFilter = opt('file', '');
if (fileFilter) entries = entries.filter((e) => e.path.includes(fileFilter));
if (limit) entries = entries.slice(0, limit);

interface Row {
  labels: number;
  matched: number;
  findings: number;
  replayed: number;
  findingsInLabelledCategory: number;
}
const per: Record<string, Row> = {};
for (const c of CATEGORIES) per[c] = { labels: 0, matched: 0, findings: 0, replayed: 0, findingsInLabelledCategory: 0 };
const status: Record<string, number> = {};
const fuzzMs: number[] = [];
const compileMs: number[] = [];
const totalMs: number[] = [];
const hits: string[] = [];
const falseProofs: string[] = [];
let sequences = 0;
let transactions = 0;
let fuzzCpuUs = 0;
const stopped: Record<string, number> = {};
// Per contract: sequences run, when coverage last grew and when a property first broke last.
const saturation: Array<{ file: string; sequences: number; last_new: number; last_find: number }> = [];

for (const [n, e] of entries.entries()) {
  const source = fs.readFileSync(path.join(sbDir, e.path), 'utf8');
  const file = path.basename(e.path);
  const t0 = Date.now();
  const { program, error } = compileProgram({ source, file });
  const tc = Date.now();
  compileMs.push(tc - t0);
  let findings: Finding[] = [];
  let st = 'skipped';
  if (program) {
    try {
      const c0 = process.cpuUsage();
      const r = await fuzzProgram(program, { deadline: Date.now() + budget });
      const c = process.cpuUsage(c0);
      fuzzCpuUs += c.user + c.system;
      stopped[r.stats.stopped] = (stopped[r.stats.stopped] ?? 0) + 1;
      const s = r.stats as typeof r.stats & { last_new_sequence?: number; last_find_sequence?: number };
      saturation.push({ file: e.path, sequences: s.sequences, last_new: s.last_new_sequence ?? 0, last_find: s.last_find_sequence ?? 0 });
      sequences += r.stats.sequences;
      transactions += r.stats.transactions;
      st = r.skipped ? (r.world && r.world.failed.length && !r.world.targets.length ? 'error' : 'skipped') : 'success';
      if (r.world && !r.skipped) findings = proofsToFindings(r.world, r.proofs);
      if (args.includes('--verbose') && r.skipped) console.log(`  ${e.path}: ${r.skipped}`);
    } catch (err) {
      st = 'error';
      console.log(`  ${e.path}: fuzzer error ${(err as Error).message}`);
    }
  } else if (args.includes('--verbose')) console.log(`  ${e.path}: ${error}`);
  const tf = Date.now();
  fuzzMs.push(tf - tc);
  totalMs.push(tf - t0);
  status[st] = (status[st] ?? 0) + 1;
  const labelled = new Set(e.vulnerabilities.map((v) => v.category));
  for (const v of e.vulnerabilities) {
    per[v.category].labels++;
    if (findings.some((f) => f.category === v.category && v.lines.some((l) => f.location.line <= l && l <= f.location.end_line)))
      per[v.category].matched++;
  }
  for (const f of findings) {
    per[f.category].findings++;
    if (labelled.has(f.category)) per[f.category].findingsInLabelledCategory++;
    const rep = await replaySequence(program!, f.evidence as SequenceEvidence);
    if (rep.broken) per[f.category].replayed++;
    else falseProofs.push(`${e.path}:${f.location.line} ${f.category} ${rep.error ?? ''}`);
    hits.push(
      `${e.path}:${f.location.line} ${f.category} [${(f.evidence as SequenceEvidence).property}] labels: ${e.vulnerabilities.map((v) => `${v.category}@${v.lines.join(',')}`).join(' ')}`,
    );
  }
  if (!args.includes('--json')) process.stderr.write(`\r${n + 1}/${entries.length} ${e.path.padEnd(70).slice(0, 70)}`);
}
if (!args.includes('--json')) process.stderr.write('\n');

const sorted = (xs: number[]) => xs.slice().sort((a, b) => a - b);
const stat = (xs: number[]) => {
  const s = sorted(xs);
  return {
    mean: Math.round(xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)),
    p95: s[Math.floor(s.length * 0.95)] ?? 0,
    max: s[s.length - 1] ?? 0,
  };
};
const totals = Object.values(per).reduce(
  (a, r) => ({
    labels: a.labels + r.labels,
    matched: a.matched + r.matched,
    findings: a.findings + r.findings,
    replayed: a.replayed + r.replayed,
    inLab: a.inLab + r.findingsInLabelledCategory,
  }),
  { labels: 0, matched: 0, findings: 0, replayed: 0, inLab: 0 },
);
const report = {
  budget_ms: budget,
  contracts: entries.length,
  status,
  per_category: per,
  totals,
  sequences,
  transactions,
  ms: { compile: stat(compileMs), fuzz_and_prove: stat(fuzzMs), total: stat(totalMs) },
  fuzz_cpu_s_per_contract: Math.round(fuzzCpuUs / 1e4 / Math.max(1, entries.length)) / 100,
  stopped,
  saturation: {
    last_new_sequence: stat(saturation.map((x) => x.last_new)),
    last_find_sequence: stat(saturation.map((x) => x.last_find)),
    sequences: stat(saturation.map((x) => x.sequences)),
  },
  saturation_per_contract: saturation,
  false_proofs: falseProofs,
  hits,
};
if (args.includes('--json')) console.log(JSON.stringify(report, null, 2));
else {
  console.log(`Dynamic testing (vigil-fuzz) on SmartBugs curated — ${entries.length} contracts, ${budget} ms fuzzing budget each`);
  console.log(
    `run status: ${Object.entries(status)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}; ${sequences} sequences, ${transactions} transactions`,
  );
  console.log('category                     labels matched  confirmed replayed in-labelled-category');
  for (const [c, r] of Object.entries(per)) {
    if (!r.labels && !r.findings) continue;
    console.log(
      `${c.padEnd(28)} ${String(r.labels).padStart(6)} ${String(r.matched).padStart(7)} ${String(r.findings).padStart(10)} ${String(r.replayed).padStart(8)} ${String(r.findingsInLabelledCategory).padStart(8)}`,
    );
  }
  console.log(
    `total                        ${String(totals.labels).padStart(6)} ${String(totals.matched).padStart(7)} ${String(totals.findings).padStart(10)} ${String(totals.replayed).padStart(8)} ${String(totals.inLab).padStart(8)}`,
  );
  console.log(
    `time per contract (ms): compile mean ${report.ms.compile.mean} p95 ${report.ms.compile.p95}; fuzz+prove mean ${report.ms.fuzz_and_prove.mean} p95 ${report.ms.fuzz_and_prove.p95} max ${report.ms.fuzz_and_prove.max}; total mean ${report.ms.total.mean}`,
  );
  console.log(
    `fuzzing CPU per contract ${report.fuzz_cpu_s_per_contract} s; ended by ${JSON.stringify(stopped)}; ` +
      `sequences per contract mean ${report.saturation.sequences.mean} (last new coverage at mean ${report.saturation.last_new_sequence.mean}, ` +
      `max ${report.saturation.last_new_sequence.max}; last first-time property break at mean ${report.saturation.last_find_sequence.mean}, max ${report.saturation.last_find_sequence.max})`,
  );
  if (falseProofs.length) console.log(`findings that did not replay: ${falseProofs.length}\n  ${falseProofs.join('\n  ')}`);
  if (args.includes('--verbose')) console.log(`\nfindings:\n  ${hits.join('\n  ')}`);
}
