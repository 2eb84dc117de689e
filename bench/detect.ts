// Detection benchmark: `npm run bench:detect [-- --json] [-- --mode quick|full] [-- --engine] [-- --timeout S]`.
// Quick mode runs the static layer in process; `--engine` runs quick mode through the real engine
// (every quick tool, correlated); `--mode full` runs every available layer and replays proofs;
// `--sample N` runs N contracts spread over the dataset (full mode takes seconds per contract).
// SmartBugs curated: line-level recall per category (a label is found when a finding of the same
// category covers one of its lines), category precision (share of findings whose category is
// labelled in that contract) and time per contract. SWC registry: findings on the fixed/clean
// variants (yaml with no expected issue) are false positives. bench/detect-verdicts.json holds an
// auditor's verdict (with its reason) on findings outside the labels and on the clean variants:
// the report gives precision raw and with the confirmed true positives counted as correct.
// The analyzer is a parameter (`runDetectBenchmark({ analyze })`) so other layers or the full
// engine can be measured by the same scorer; by default it runs the static layer in process.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import type { Finding } from '../schemas/finding.ts';
import { CATEGORIES } from '../schemas/finding.ts';
import { analyzeSource, discoverDetectorPlugins, importDetectors, STATIC_TOOL } from '../lib/analysis/static/index.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export type Analyze = (source: string, file: string) => Promise<Finding[]>;

export interface CategoryScore {
  labels: number;
  found: number;
  recall: number;
  findings: number;
  precise: number;
}

export interface DetectReport {
  analyzer: string;
  smartbugs: {
    contracts: number;
    labels: number;
    found: number;
    recall: number;
    precision: number;
    precision_low_and_above: number;
    findings: number;
    findings_low_and_above: number;
    per_category: Record<string, CategoryScore>;
    subset69: { contracts: number; labels: number; found: number; recall: number };
    ms_per_contract: { mean: number; p95: number; max: number };
    missed: Array<{ file: string; category: string; lines: number[] }>;
    /** With the auditor verdicts of bench/detect-verdicts.json: findings outside the labels that
     *  were read and confirmed as true weaknesses count as correct; everything else as before. */
    confirmed: {
      outside_labels: number;
      outside_labels_above_info: number;
      confirmed_true: number;
      confirmed_true_above_info: number;
      judged_false: number;
      unjudged: number;
      precision: number;
      precision_low_and_above: number;
      stale_verdicts: number;
    };
  };
  swc: {
    clean_variants: number;
    with_findings: number;
    with_findings_low_and_above: number;
    findings: number;
    findings_low_and_above: number;
    examples: Array<{ file: string; detector?: string; line: number; severity: string }>;
    /** Clean variants with a finding that no auditor verdict confirms as a real weakness. */
    with_unconfirmed_findings: number;
  };
}

/** An auditor's verdict on one finding (file relative to the dataset, detector id, first line). */
export interface Verdict {
  file: string;
  line: number;
  detector: string;
  true_positive: boolean;
  reason: string;
}

export function loadVerdicts(file = path.join(repoRoot, 'bench', 'detect-verdicts.json')): { smartbugs: Verdict[]; swc: Verdict[] } {
  if (!fs.existsSync(file)) return { smartbugs: [], swc: [] };
  const d = JSON.parse(fs.readFileSync(file, 'utf8')) as { smartbugs?: Verdict[]; swc?: Verdict[] };
  return { smartbugs: d.smartbugs ?? [], swc: d.swc ?? [] };
}

const verdictKey = (file: string, detector: string | undefined, line: number) => `${file}|${detector ?? ''}|${line}`;

export function datasetsDir(): string {
  return process.env.VIGIL_DATASETS ? path.resolve(process.env.VIGIL_DATASETS) : path.resolve(repoRoot, '../shared/datasets');
}

/**
 * The static pipeline, in process, with every TS detector module under plugins/ (layer 1 and the
 * layer 7/8 rules of tool plugins, one traversal as in the product). By default it returns the
 * static layer's (vigil-static) findings, the figures this benchmark has always scored; `all`
 * returns every layer's.
 */
export async function staticAnalyzer(opts: { all?: boolean } = {}): Promise<Analyze> {
  const { entries, errors } = await importDetectors(discoverDetectorPlugins(path.join(repoRoot, 'plugins')));
  if (errors.length) throw new Error(`detector plugins failed to load: ${errors.map((e) => `${e.plugin}: ${e.message}`).join('; ')}`);
  return async (source, file) => {
    const { findings } = await analyzeSource(source, file, entries);
    return opts.all ? findings : findings.filter((f) => f.tools[0] === STATIC_TOOL);
  };
}

const aboveInfo = (f: Finding) => f.severity !== 'INFO';

/** Per-contract hook (used by full mode to break findings down by tool and detector). */
export type OnContract = (c: {
  path: string;
  labelled: Set<string>;
  labels: Array<{ lines: number[]; category: string }>;
  findings: Finding[];
  ms: number;
}) => void;

export async function runDetectBenchmark(
  opts: {
    analyze?: Analyze;
    analyzer?: string;
    root?: string;
    sample?: number;
    onContract?: OnContract;
    verdicts?: ReturnType<typeof loadVerdicts>;
  } = {},
): Promise<DetectReport> {
  const root = opts.root ?? datasetsDir();
  const verdicts = opts.verdicts ?? loadVerdicts();
  const sbVerdicts = new Map(verdicts.smartbugs.map((v) => [verdictKey(v.file, v.detector, v.line), v]));
  const swcVerdicts = new Map(verdicts.swc.map((v) => [verdictKey(v.file, v.detector, v.line), v]));
  const used = new Set<string>();
  const conf = {
    outside_labels: 0,
    outside_labels_above_info: 0,
    confirmed_true: 0,
    confirmed_true_above_info: 0,
    judged_false: 0,
    unjudged: 0,
  };
  const analyze = opts.analyze ?? (await staticAnalyzer());
  const sbDir = path.join(root, 'smartbugs-curated');
  if (!fs.existsSync(path.join(sbDir, 'vulnerabilities.json')))
    throw new Error(`SmartBugs curated not found at ${sbDir} (set VIGIL_DATASETS)`);
  const allEntries = JSON.parse(fs.readFileSync(path.join(sbDir, 'vulnerabilities.json'), 'utf8')) as Array<{
    path: string;
    vulnerabilities: Array<{ lines: number[]; category: string }>;
  }>;
  // --sample N: N contracts spread evenly over the (category-ordered) list, for slow full-mode runs.
  const n = opts.sample && opts.sample < allEntries.length ? opts.sample : allEntries.length;
  const entries =
    n === allEntries.length ? allEntries : Array.from({ length: n }, (_, i) => allEntries[Math.floor((i * allEntries.length) / n)]);
  const subset = new Set(
    fs
      .readFileSync(path.join(sbDir, 'ICSE2020_curated_69.txt'), 'utf8')
      .split('\n')
      .map((l) => l.trim().replace(/\s*\[MOVED TO: (.*)\]$/, (_m, to) => ' ' + to))
      .filter((l) => l.startsWith('./dataset/'))
      .map((l) => {
        const parts = l.split(' ');
        return parts.length > 1 ? path.normalize('dataset/' + parts[1].replace(/^\.\//, '')) : path.normalize(parts[0]);
      }),
  );
  const per: Record<string, CategoryScore> = {};
  for (const c of CATEGORIES) per[c] = { labels: 0, found: 0, recall: 0, findings: 0, precise: 0 };
  let labels = 0;
  let found = 0;
  let findingsAll = 0;
  let preciseAll = 0;
  let findingsLow = 0;
  let preciseLow = 0;
  const times: number[] = [];
  const missed: DetectReport['smartbugs']['missed'] = [];
  const sub = { contracts: 0, labels: 0, found: 0, recall: 0 };
  for (const e of entries) {
    const source = fs.readFileSync(path.join(sbDir, e.path), 'utf8');
    const t = performance.now();
    const findings = await analyze(source, path.basename(e.path));
    times.push(performance.now() - t);
    const labelled = new Set(e.vulnerabilities.map((v) => v.category));
    opts.onContract?.({ path: e.path, labelled, labels: e.vulnerabilities, findings, ms: times[times.length - 1] });
    const inSubset = subset.has(path.normalize(e.path));
    if (inSubset) sub.contracts++;
    for (const v of e.vulnerabilities) {
      labels++;
      per[v.category].labels++;
      const hit = findings.some((f) => f.category === v.category && v.lines.some((l) => f.location.line <= l && l <= f.location.end_line));
      if (inSubset) {
        sub.labels++;
        if (hit) sub.found++;
      }
      if (hit) {
        found++;
        per[v.category].found++;
      } else missed.push({ file: e.path, category: v.category, lines: v.lines });
    }
    for (const f of findings) {
      const ok = labelled.has(f.category);
      findingsAll++;
      per[f.category].findings++;
      if (ok) {
        preciseAll++;
        per[f.category].precise++;
      }
      if (aboveInfo(f)) {
        findingsLow++;
        if (ok) preciseLow++;
      }
      if (!ok) {
        conf.outside_labels++;
        if (aboveInfo(f)) conf.outside_labels_above_info++;
        const k = verdictKey(e.path, f.detector, f.location.line);
        const v = sbVerdicts.get(k);
        if (v) used.add(`sb|${k}`);
        if (v?.true_positive) {
          conf.confirmed_true++;
          if (aboveInfo(f)) conf.confirmed_true_above_info++;
        } else if (v) conf.judged_false++;
        else conf.unjudged++;
      }
    }
  }
  for (const c of Object.values(per)) c.recall = c.labels ? c.found / c.labels : 0;
  sub.recall = sub.labels ? sub.found / sub.labels : 0;
  const sorted = times.slice().sort((a, b) => a - b);

  // SWC registry: clean variants are the yaml files that expect no issue.
  const swcRoot = path.join(root, 'swc-registry', 'test_cases');
  const swc: DetectReport['swc'] = {
    clean_variants: 0,
    with_findings: 0,
    with_findings_low_and_above: 0,
    findings: 0,
    findings_low_and_above: 0,
    examples: [],
    with_unconfirmed_findings: 0,
  };
  for (const y of walkFiles(swcRoot)
    .filter((p) => p.endsWith('.yaml'))
    .filter(
      (_, i, all) =>
        n === allEntries.length || i % Math.ceil(all.length / Math.max(1, Math.round((n / allEntries.length) * all.length))) === 0,
    )) {
    const doc = YAML.parse(fs.readFileSync(y, 'utf8')) ?? {};
    const issues = Array.isArray(doc.issues) ? doc.issues : [];
    if (issues.some((i: any) => (i?.count ?? 0) > 0)) continue;
    const sol = y.replace(/\.yaml$/, '.sol');
    if (!fs.existsSync(sol)) continue;
    swc.clean_variants++;
    const fs_ = await analyze(fs.readFileSync(sol, 'utf8'), path.basename(sol));
    const low = fs_.filter(aboveInfo);
    swc.findings += fs_.length;
    swc.findings_low_and_above += low.length;
    if (fs_.length) swc.with_findings++;
    const rel = path.relative(swcRoot, sol);
    const unconfirmed = fs_.filter((f) => {
      const k = verdictKey(rel, f.detector, f.location.line);
      if (swcVerdicts.has(k)) used.add(`swc|${k}`);
      return !swcVerdicts.get(k)?.true_positive;
    });
    if (unconfirmed.length) swc.with_unconfirmed_findings++;
    if (low.length) swc.with_findings_low_and_above++;
    for (const f of low)
      if (swc.examples.length < 40)
        swc.examples.push({ file: path.relative(swcRoot, sol), detector: f.detector, line: f.location.line, severity: f.severity });
  }

  return {
    analyzer: opts.analyzer ?? 'vigil-static (quick)',
    smartbugs: {
      contracts: entries.length,
      labels,
      found,
      recall: labels ? found / labels : 0,
      precision: findingsAll ? preciseAll / findingsAll : 0,
      precision_low_and_above: findingsLow ? preciseLow / findingsLow : 0,
      findings: findingsAll,
      findings_low_and_above: findingsLow,
      per_category: per,
      subset69: sub,
      ms_per_contract: { mean: mean(times), p95: sorted[Math.floor(sorted.length * 0.95)] ?? 0, max: sorted[sorted.length - 1] ?? 0 },
      missed,
      confirmed: {
        ...conf,
        precision: findingsAll ? (preciseAll + conf.confirmed_true) / findingsAll : 0,
        precision_low_and_above: findingsLow ? (preciseLow + conf.confirmed_true_above_info) / findingsLow : 0,
        // Verdicts that matched no finding of this run (the rule changed, or a sample was run).
        stale_verdicts: n === allEntries.length ? verdicts.smartbugs.length + verdicts.swc.length - used.size : 0,
      },
    },
    swc,
  };
}

/** Every file below dir (recursively), sorted; none when dir does not exist. */
export function walkFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...walkFiles(p));
    else out.push(p);
  }
  return out.sort();
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export function printReport(r: DetectReport, verbose = false): void {
  const s = r.smartbugs;
  console.log(`Detection benchmark — ${r.analyzer}`);
  console.log(`SmartBugs curated: ${s.contracts} contracts, ${s.labels} labels`);
  console.log('category                     labels found recall  findings precise');
  for (const [c, v] of Object.entries(s.per_category)) {
    console.log(
      `${c.padEnd(28)} ${String(v.labels).padStart(6)} ${String(v.found).padStart(5)} ${pct(v.recall).padStart(6)} ${String(v.findings).padStart(9)} ${String(v.precise).padStart(7)}`,
    );
  }
  console.log(`overall line-level recall    ${pct(s.recall)} (${s.found}/${s.labels})`);
  console.log(
    `category precision           ${pct(s.precision)} of ${s.findings} findings; ${pct(s.precision_low_and_above)} of ${s.findings_low_and_above} findings above INFO`,
  );
  console.log(
    `69-contract subset recall    ${pct(s.subset69.recall)} (${s.subset69.found}/${s.subset69.labels}, ${s.subset69.contracts} contracts)`,
  );
  console.log(
    `time per contract            mean ${s.ms_per_contract.mean.toFixed(1)} ms, p95 ${s.ms_per_contract.p95.toFixed(1)} ms, max ${s.ms_per_contract.max.toFixed(1)} ms`,
  );
  console.log(
    `SWC registry clean variants: ${r.swc.clean_variants}; with any finding ${r.swc.with_findings} (${r.swc.findings} findings); with findings above INFO ${r.swc.with_findings_low_and_above} (${r.swc.findings_low_and_above})`,
  );
  const c = s.confirmed;
  console.log(
    `with auditor verdicts        ${pct(c.precision)} / ${pct(c.precision_low_and_above)} above INFO, counting the ${c.confirmed_true} (${c.confirmed_true_above_info} above INFO) of ${c.outside_labels} findings outside the labels confirmed true (judged false ${c.judged_false}, not judged ${c.unjudged}; stale verdicts ${c.stale_verdicts})`,
  );
  console.log(`SWC clean variants with a finding no verdict confirms: ${r.swc.with_unconfirmed_findings}`);
  if (verbose) {
    console.log('\nmissed labels:');
    for (const m of s.missed) console.log(`  ${m.category.padEnd(26)} ${m.file}:${m.lines.join(',')}`);
    console.log('\nfalse positives on SWC clean variants (above INFO):');
    for (const e of r.swc.examples) console.log(`  ${e.file}:${e.line} ${e.detector} ${e.severity}`);
  }
}

/**
 * Full mode: every available layer through the real engine (a booted kernel, the worker pool,
 * the fuzzer, the symbolic engine...), plus a replay of every proof-carrying finding on a fresh
 * EVM to check that each proof is a true positive.
 */
export async function engineAnalyzer(mode: 'quick' | 'full', timeoutS: number) {
  const { Kernel } = await import('../kernel/kernel.ts');
  const { resolveSettings } = await import('../kernel/config.ts');
  const pino = (await import('pino')).default;
  const os = await import('node:os');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-bench-detect-'));
  const kernel = new Kernel({ settings: resolveSettings({ dataDir, logLevel: 'silent' }), logger: pino({ level: 'silent' }) });
  await kernel.boot();
  const engine = kernel.services.get<import('../kernel/index.ts').AnalysisEngine>('analysis');
  if (!engine) throw new Error('the analysis engine plugin did not load');
  const proofs = { findings: 0, replayed: 0, broken: 0, failed: [] as string[] };
  const toolRuns = new Map<string, { ms: number[]; status: Record<string, number> }>();
  const evm = { ...(await import('../plugins/tool-evm/evm/program.ts')), ...(await import('../plugins/tool-evm/evm/replay.ts')) };
  const analyze: Analyze = async (source, file) => {
    const r = await engine.analyze({ source, file }, { mode, timeoutMs: timeoutS * 1000 });
    for (const t of r.results) {
      const e = toolRuns.get(t.tool) ?? { ms: [], status: {} };
      e.ms.push(t.execution_time * 1000);
      e.status[t.status] = (e.status[t.status] ?? 0) + 1;
      toolRuns.set(t.tool, e);
    }
    for (const f of r.findings) {
      const ev = f.evidence as { kind?: string } | undefined;
      if (ev?.kind !== 'transaction_sequence') continue;
      proofs.findings++;
      const { program, error } = evm.compileProgram({ source, file });
      if (!program) {
        proofs.failed.push(`${file}:${f.location.line} ${f.category}: ${error}`);
        continue;
      }
      const rep = await evm.replaySequence(program, ev as any, { deadline: Date.now() + 30_000 });
      proofs.replayed++;
      if (rep.broken) proofs.broken++;
      else proofs.failed.push(`${file}:${f.location.line} ${f.category}: ${rep.error ?? 'property holds on replay'}`);
    }
    return r.findings;
  };
  return { analyze, proofs, toolRuns, close: () => kernel.stop() };
}

/**
 * Full-mode breakdown: for each tool, the findings it took part in and those it reported alone
 * (with how many fall in a labelled category), the labels only it found, and its run time; for
 * each detector, the findings outside the contract's labelled categories. This is what says which
 * layer costs precision and which costs time.
 */
export function breakdownCollector() {
  const tools: Record<
    string,
    { findings: number; precise: number; alone: number; alone_precise: number; alone_above_info: number; labels_only_it_found: number }
  > = {};
  const unlabelled: Record<string, number> = {};
  const contracts: Array<{ path: string; ms: number; findings: number; precise: number }> = [];
  const outside: Array<{ path: string; line: number; detector: string; tools: string[]; category: string; severity: string }> = [];
  const onContract: OnContract = (c) => {
    let precise = 0;
    for (const f of c.findings) {
      const ok = c.labelled.has(f.category);
      if (ok) precise++;
      for (const t of f.tools) {
        const e = (tools[t] ??= { findings: 0, precise: 0, alone: 0, alone_precise: 0, alone_above_info: 0, labels_only_it_found: 0 });
        e.findings++;
        if (ok) e.precise++;
        if (f.tools.length === 1) {
          e.alone++;
          if (ok) e.alone_precise++;
          if (aboveInfo(f)) e.alone_above_info++;
        }
      }
      if (!ok) {
        const key = `${f.tools.join('+')} ${f.detector ?? f.title} [${f.category}, ${f.severity}]`;
        unlabelled[key] = (unlabelled[key] ?? 0) + 1;
        outside.push({
          path: c.path,
          line: f.location.line,
          detector: f.detector ?? f.title,
          tools: f.tools,
          category: f.category,
          severity: f.severity,
        });
      }
    }
    for (const v of c.labels) {
      const hitters = new Set(
        c.findings
          .filter((f) => f.category === v.category && v.lines.some((l) => f.location.line <= l && l <= f.location.end_line))
          .flatMap((f) => f.tools),
      );
      if (hitters.size === 1) {
        const t = [...hitters][0];
        (tools[t] ??= { findings: 0, precise: 0, alone: 0, alone_precise: 0, alone_above_info: 0, labels_only_it_found: 0 })
          .labels_only_it_found++;
      }
    }
    contracts.push({ path: c.path, ms: Math.round(c.ms), findings: c.findings.length, precise });
  };
  return {
    onContract,
    report: () => ({ tools, unlabelled: Object.fromEntries(Object.entries(unlabelled).sort((a, b) => b[1] - a[1])), contracts, outside }),
  };
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const args = process.argv.slice(2);
  const opt = (name: string) => (args.indexOf(name) >= 0 ? args[args.indexOf(name) + 1] : undefined);
  const mode = opt('--mode') ?? 'quick';
  const engineMode = args.includes('--engine') || mode === 'full';
  if (mode !== 'quick' && mode !== 'full') {
    console.error(`--mode must be quick or full, got ${mode}`);
    process.exit(2);
  }
  (async () => {
    if (!engineMode) return { r: await runDetectBenchmark(), proofs: null, breakdown: null };
    const a = await engineAnalyzer(mode, Number(opt('--timeout') ?? 60));
    try {
      const sample = opt('--sample') ? Number(opt('--sample')) : undefined;
      const bd = mode === 'full' ? breakdownCollector() : null;
      const r = await runDetectBenchmark({
        analyze: a.analyze,
        analyzer: `vigil engine (${mode === 'full' ? 'full: every available layer' : 'quick: the quick-mode tools'}, correlated)${sample ? `, sample of ${sample} contracts` : ''}`,
        sample,
        onContract: bd?.onContract,
      });
      const runs = Object.fromEntries(
        [...a.toolRuns].map(([t, e]) => {
          const xs = e.ms.slice().sort((x, y) => x - y);
          return [
            t,
            { runs: xs.length, mean_ms: Math.round(mean(xs)), p95_ms: Math.round(xs[Math.floor(xs.length * 0.95)] ?? 0), status: e.status },
          ];
        }),
      );
      return { r, proofs: a.proofs, breakdown: bd ? { ...bd.report(), tool_runs: runs } : null };
    } finally {
      await a.close();
    }
  })()
    .then(({ r, proofs, breakdown }) => {
      if (args.includes('--json')) console.log(JSON.stringify({ ...r, proofs, ...(breakdown ? { breakdown } : {}) }, null, 2));
      else {
        printReport(r, args.includes('--verbose'));
        if (proofs) {
          console.log(
            `\nproof-carrying findings: ${proofs.findings}; replayed ${proofs.replayed}; property broken again on replay: ${proofs.broken}`,
          );
          for (const f of proofs.failed) console.log(`  not confirmed: ${f}`);
        }
        if (breakdown) {
          console.log('\ntool                  findings precise alone alone-precise alone>INFO only-it-found  mean s  p95 s  statuses');
          for (const [t, e] of Object.entries(breakdown.tools)) {
            const run = breakdown.tool_runs[t];
            console.log(
              `${t.padEnd(20)} ${String(e.findings).padStart(9)} ${String(e.precise).padStart(7)} ${String(e.alone).padStart(5)} ${String(e.alone_precise).padStart(13)} ${String(e.alone_above_info).padStart(10)} ${String(e.labels_only_it_found).padStart(13)} ${run ? (run.mean_ms / 1000).toFixed(1).padStart(7) : '      -'} ${run ? (run.p95_ms / 1000).toFixed(1).padStart(6) : '     -'}  ${run ? JSON.stringify(run.status) : ''}`,
            );
          }
          for (const [t, run] of Object.entries(breakdown.tool_runs))
            if (!breakdown.tools[t])
              console.log(
                `${t.padEnd(20)} ${'0'.padStart(9)} ${''.padStart(60)} ${(run.mean_ms / 1000).toFixed(1).padStart(7)} ${(run.p95_ms / 1000).toFixed(1).padStart(6)}  ${JSON.stringify(run.status)}`,
              );
          if (args.includes('--verbose')) {
            console.log('\nfindings outside the labelled categories, by reporter and detector:');
            for (const [k, n] of Object.entries(breakdown.unlabelled)) console.log(`  ${String(n).padStart(4)}  ${k}`);
          }
        }
      }
    })
    .catch((e) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    });
}
