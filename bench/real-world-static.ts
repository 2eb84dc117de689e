// Real-world corpus (static layer + layers 7 and 8, per file on the parse tree): findings per
// severity and per 10k SLOC for each project, and every HIGH/CRITICAL with its location, so each
// can be audited (docs/BENCHMARKS.md, "Real-world corpus").
// `node --import tsx bench/real-world-static.ts [--json] [--project NAME] [--all]` (--all lists every finding)
import fs from 'node:fs';
import path from 'node:path';
import type { Finding } from '../schemas/finding.ts';
import { datasetsDir, staticAnalyzer, walkFiles } from './detect.ts';
import { groupProjectNotes } from '../lib/analysis/static/index.ts';
import { sloc } from './sloc.ts';

const args = process.argv.slice(2);
const only = args.includes('--project') ? args[args.indexOf('--project') + 1] : null;
const root = path.join(datasetsDir(), 'real-world');
const analyze = await staticAnalyzer({ all: true });
const out: Record<string, unknown> = {};
for (const project of fs.readdirSync(root).filter((d) => fs.statSync(path.join(root, d)).isDirectory())) {
  if (only && project !== only) continue;
  const files = walkFiles(path.join(root, project)).filter((f) => f.endsWith('.sol'));
  let lines = 0;
  let all: Finding[] = [];
  for (const f of files) {
    const src = fs.readFileSync(f, 'utf8');
    lines += sloc(src);
    const rel = path.relative(root, f);
    all.push(...(await analyze(src, rel)));
  }
  all = groupProjectNotes(all);
  const bySev: Record<string, number> = {};
  const byDet: Record<string, number> = {};
  for (const f of all) {
    bySev[f.severity] = (bySev[f.severity] ?? 0) + 1;
    byDet[`${f.detector}:${f.severity}`] = (byDet[`${f.detector}:${f.severity}`] ?? 0) + 1;
  }
  const high = all.filter((f) => f.severity === 'HIGH' || f.severity === 'CRITICAL');
  out[project] = {
    files: files.length,
    sloc: lines,
    findings: all.length,
    per_10k_sloc: +((all.length * 10000) / lines).toFixed(1),
    by_severity: bySev,
    by_detector: byDet,
    high: high.map((f) => `${f.severity} ${f.detector} ${f.location.file}:${f.location.line} ${f.title}`),
  };
  if (args.includes('--all'))
    (out[project] as any).all = all.map(
      (f) => `${f.severity} ${f.detector} ${f.location.file}:${f.location.line} ${f.description.slice(0, 160)}`,
    );
}
if (args.includes('--json')) console.log(JSON.stringify(out, null, 2));
else
  for (const [p, r] of Object.entries(out) as Array<[string, any]>) {
    console.log(
      `\n${p}: ${r.files} files, ${r.sloc} SLOC, ${r.findings} findings (${r.per_10k_sloc} per 10k SLOC) ${JSON.stringify(r.by_severity)}`,
    );
    console.log('  by detector: ' + JSON.stringify(r.by_detector));
    for (const h of r.high) console.log('  ' + h);
    if (r.all) for (const h of r.all) console.log('   - ' + h);
  }
