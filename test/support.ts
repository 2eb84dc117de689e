// Small pure helpers several test files share (no kernel boot: that is test/helpers.ts).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Finding } from '../schemas/finding.ts';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The shared datasets (SmartBugs, SWC registry, real-world): VIGIL_DATASETS, else ../shared/datasets. */
export const DATASETS = process.env.VIGIL_DATASETS
  ? path.resolve(process.env.VIGIL_DATASETS)
  : path.resolve(REPO_ROOT, '../shared/datasets');

/** Every .sol file below `dir` (none when it does not exist), skipping node_modules and dot folders. */
export function solFiles(dir: string, out: string[] = []): string[] {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory() && e.name !== 'node_modules' && !e.name.startsWith('.')) solFiles(p, out);
    else if (e.isFile() && e.name.endsWith('.sol')) out.push(p);
  }
  return out;
}

/** What a fixture's `// expect: detector[, detector]` comments announce, as sorted "line:detector". */
export function expectedMarks(src: string): string[] {
  const out: string[] = [];
  src.split('\n').forEach((l, i) => {
    const m = /\/\/ expect:\s*(.*)$/.exec(l);
    if (m) for (const d of m[1].split(',')) out.push(`${i + 1}:${d.trim()}`);
  });
  return out.sort();
}

/** A MEDIUM reentrancy finding of `tool` (layer `layer`) on one line of A.sol, for correlation tests. */
export const toolFinding = (tool: string, layer: number, line: number, over: Partial<Finding> = {}): Finding => ({
  id: `${tool}-${line}`,
  detector: `${tool}-rule`,
  title: `${tool} title`,
  description: `${tool} says`,
  severity: 'MEDIUM',
  confidence: 0.6,
  category: 'reentrancy',
  location: { file: 'A.sol', line, end_line: line, contract: 'A', function: 'withdraw' },
  tools: [tool],
  layers: [layer],
  recommendation: 'fix',
  ...over,
});

/** The fields every analysis answer carries (decisions.md), REST and engine alike. */
export const ANALYSIS_RESULT_KEYS = [
  'audit_id',
  'audit_type',
  'contract',
  'layers',
  'tools',
  'results',
  'findings',
  'summary',
  'total_findings',
  'execution_time',
  'timestamp',
  'version',
];
