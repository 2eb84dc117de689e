// SWC registry, static layer only: every finding on a fixed/clean variant (yaml expects no
// issue) with detector, line and the source line, and per vulnerable variant whether a finding
// of the labelled SWC id (or its category) covers a labelled line. The aggregate figures are in
// `npm run bench:detect`; this script is the per-finding view used to audit false positives.
// `node --import tsx bench/swc-static.ts [--json] [--vulnerable]`
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import type { Finding } from '../schemas/finding.ts';
import { swcCategory } from '../lib/analysis/taxonomy.ts';

// The SWC ids the static layer can name; their categories come from the shared taxonomy.
const COVERED_SWC = new Set(
  ['107', '101', '104', '105', '106', '112', '115', '118', '100', '120', '116', '113', '128', '114', '109', '103', '111', '124'].map(
    (n) => `SWC-${n}`,
  ),
);
const categoryOf = (swc: string) => (COVERED_SWC.has(swc) ? swcCategory(swc) : null);
import { datasetsDir, staticAnalyzer, walkFiles } from './detect.ts';

interface CleanHit {
  file: string;
  detector?: string;
  category: string;
  severity: string;
  line: number;
  code: string;
}
interface VulnLabel {
  file: string;
  swc: string;
  lines: number[];
  found: boolean;
  sameSwc: boolean;
}

export async function swcStatic(): Promise<{ clean: number; cleanWithFindings: number; hits: CleanHit[]; labels: VulnLabel[] }> {
  const analyze = await staticAnalyzer();
  const root = path.join(datasetsDir(), 'swc-registry', 'test_cases');
  const hits: CleanHit[] = [];
  const labels: VulnLabel[] = [];
  let clean = 0;
  let cleanWithFindings = 0;
  for (const y of walkFiles(root).filter((p) => p.endsWith('.yaml'))) {
    const sol = y.replace(/\.yaml$/, '.sol');
    if (!fs.existsSync(sol)) continue;
    const doc = YAML.parse(fs.readFileSync(y, 'utf8')) ?? {};
    const issues: any[] = Array.isArray(doc.issues) ? doc.issues : [];
    const source = fs.readFileSync(sol, 'utf8');
    const lines = source.split('\n');
    const rel = path.relative(root, sol);
    let findings: Finding[];
    try {
      findings = await analyze(source, path.basename(sol));
    } catch (e) {
      console.error(`${rel}: ${(e as Error).message}`);
      continue;
    }
    if (!issues.some((i) => (i?.count ?? 0) > 0)) {
      clean++;
      if (findings.length) cleanWithFindings++;
      for (const f of findings)
        hits.push({
          file: rel,
          detector: f.detector,
          category: f.category,
          severity: f.severity,
          line: f.location.line,
          code: (lines[f.location.line - 1] ?? '').trim().slice(0, 100),
        });
      continue;
    }
    for (const issue of issues) {
      const swc = String(issue?.id ?? '');
      for (const loc of issue?.locations ?? []) {
        const ln: number[] = Object.values((loc?.line_numbers ?? {}) as Record<string, number[]>).flat();
        if (!ln.length) continue;
        const covers = (f: Finding) => ln.some((l) => f.location.line <= l && l <= f.location.end_line);
        const sameSwc = findings.some((f) => covers(f) && f.swc_id === swc);
        const found = sameSwc || findings.some((f) => covers(f) && categoryOf(swc) !== null && f.category === categoryOf(swc));
        labels.push({ file: rel, swc, lines: ln, found, sameSwc });
      }
    }
  }
  return { clean, cleanWithFindings, hits, labels };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await swcStatic();
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(r, null, 2));
  } else {
    console.log(
      `clean variants: ${r.clean}; with a finding: ${r.cleanWithFindings} (${r.hits.length} findings, ${r.hits.filter((h) => h.severity !== 'INFO').length} above INFO)`,
    );
    for (const h of r.hits) console.log(`  ${h.file}:${h.line} ${h.detector} ${h.category} ${h.severity}  | ${h.code}`);
    const known = r.labels.filter((l) => categoryOf(l.swc));
    console.log(
      `vulnerable labels with line numbers: ${r.labels.length}; in a category the static layer covers: ${known.length}; found (same category at a labelled line): ${known.filter((l) => l.found).length}; same SWC id: ${known.filter((l) => l.sameSwc).length}`,
    );
    if (process.argv.includes('--vulnerable'))
      for (const l of r.labels) console.log(`  ${l.found ? 'found ' : 'MISSED'} ${l.file} ${l.swc} [${l.lines.join(',')}]`);
  }
}
