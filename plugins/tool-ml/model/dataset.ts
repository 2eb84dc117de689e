// Labelled training data for the layer-6 model, read from the openly licensed datasets in
// /work/shared/datasets (or VIGIL_DATASETS): SmartBugs curated (Apache-2.0, per-line DASP
// categories) and the SWC registry test cases (MIT, per-line SWC ids). A function is labelled
// with the category of a vulnerable line inside it, "none" when it holds none; functions
// holding only categories the model does not learn are left out rather than called safe.
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { compileTask, type CompileResult } from '../../../lib/analysis/compiler/index.ts';
import { swcCategory } from '../../../lib/analysis/taxonomy.ts';
import { extractFunctionSamples, type BytecodeInfo, type FunctionSample } from './features.ts';

export const DATASETS_DIR = process.env.VIGIL_DATASETS ?? '/work/shared/datasets';

/**
 * The SWC registry ids whose test cases label training functions (the others stay
 * "unmodelled"); each one's category comes from the shared taxonomy.
 */
export const LEARNED_SWC = [
  'SWC-107',
  'SWC-101',
  'SWC-104',
  'SWC-105',
  'SWC-106',
  'SWC-112',
  'SWC-115',
  'SWC-118',
  'SWC-100',
  'SWC-120',
  'SWC-116',
  'SWC-113',
  'SWC-128',
  'SWC-114',
];
export const SWC_CATEGORY: Record<string, string> = Object.fromEntries(LEARNED_SWC.map((id) => [id, swcCategory(id)!]));

export interface LabelledContract {
  /** Stable key: dataset + relative path (used for the split, never as a feature). */
  key: string;
  source: string;
  /** line -> categories */
  labels: Map<number, string[]>;
}

export interface LabelledSample extends FunctionSample {
  key: string;
  label: string;
}

export function datasetInfo(dir = DATASETS_DIR): Array<{ name: string; license: string; path: string }> {
  const lic = (p: string) => {
    try {
      const first =
        fs
          .readFileSync(p, 'utf8')
          .split('\n')
          .find((l) => l.trim() !== '')
          ?.trim() ?? 'unknown';
      return /Apache License/i.test(first) ? 'Apache-2.0' : /MIT/i.test(first) ? 'MIT' : first;
    } catch {
      return 'unknown';
    }
  };
  return [
    { name: 'SmartBugs curated', license: lic(path.join(dir, 'smartbugs-curated/LICENSE')), path: 'smartbugs-curated' },
    { name: 'SWC registry test cases', license: lic(path.join(dir, 'swc-registry/LICENSE')), path: 'swc-registry/test_cases' },
  ];
}

export function loadContracts(dir = DATASETS_DIR): LabelledContract[] {
  const out: LabelledContract[] = [];
  const sbDir = path.join(dir, 'smartbugs-curated');
  const vulns = JSON.parse(fs.readFileSync(path.join(sbDir, 'vulnerabilities.json'), 'utf8')) as Array<{
    path: string;
    vulnerabilities: Array<{ lines: number[]; category: string }>;
  }>;
  for (const e of vulns) {
    const labels = new Map<number, string[]>();
    for (const v of e.vulnerabilities) for (const l of v.lines) labels.set(l, [...(labels.get(l) ?? []), v.category]);
    out.push({ key: `smartbugs/${e.path}`, source: fs.readFileSync(path.join(sbDir, e.path), 'utf8'), labels });
  }
  const swcDir = path.join(dir, 'swc-registry/test_cases');
  const walkDir = (d: string) => {
    for (const ent of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(d, ent.name);
      if (ent.isDirectory()) walkDir(p);
      else if (ent.name.endsWith('.sol')) {
        const yml = p.replace(/\.sol$/, '.yaml');
        const labels = new Map<number, string[]>();
        if (fs.existsSync(yml)) {
          const y = YAML.parse(fs.readFileSync(yml, 'utf8')) as {
            issues?: Array<{ id: string; locations?: Array<{ line_numbers?: Record<string, number[]> }> }>;
          };
          for (const issue of y?.issues ?? []) {
            const cat = SWC_CATEGORY[issue.id] ?? `unmodelled:${issue.id}`;
            for (const loc of issue.locations ?? [])
              for (const lines of Object.values(loc.line_numbers ?? {}))
                for (const l of lines ?? []) labels.set(l, [...(labels.get(l) ?? []), cat]);
          }
        }
        out.push({ key: `swc/${path.relative(swcDir, p)}`, source: fs.readFileSync(p, 'utf8'), labels });
      }
    }
  };
  walkDir(swcDir);
  return out;
}

/** Compiled deployed code + source maps of a source, for the opcode features (null when it does not compile). */
export function bytecodeOf(
  source: string,
  file = 'Contract.sol',
  where: { absPath?: string | null; roots?: string[]; compiled?: CompileResult | null } = {},
): BytecodeInfo | null {
  try {
    // Same request shape as the other layers (imports resolved the same way), so one compile per
    // worker serves them all; full mode hands in the engine's compile of it (`compiled`).
    const r =
      where.compiled ??
      compileTask({ source, file, absPath: where.absPath ?? null, roots: where.roots, outputs: 'full', ast: true, maxAttempts: 2 });
    if (!r.ok) return null;
    const id = Number(String((r.ast as { src?: string } | undefined)?.src ?? '0:0:0').split(':')[2]);
    const contracts: BytecodeInfo['contracts'] = {};
    for (const [n, c] of Object.entries(r.contracts))
      if (c.file === file && c.deployedBytecode)
        contracts[n] = { deployedBytecode: c.deployedBytecode, deployedSourceMap: c.deployedSourceMap };
    return { contracts, fileId: Number.isInteger(id) ? id : 0 };
  } catch {
    return null;
  }
}

export function labelSamples(c: LabelledContract, classes: Set<string>, bytecode: BytecodeInfo | null): LabelledSample[] {
  const out: LabelledSample[] = [];
  for (const s of extractFunctionSamples(c.source, 'Contract.sol', bytecode)) {
    const cats: string[] = [];
    for (const [l, cs] of c.labels) if (l >= s.line && l <= s.end_line) cats.push(...cs);
    if (!cats.length) out.push({ ...s, key: c.key, label: 'none' });
    else {
      const known = cats.find((x) => classes.has(x));
      if (known) out.push({ ...s, key: c.key, label: known });
      // Only unmodelled categories: neither a positive nor a trustworthy negative.
    }
  }
  return out;
}
