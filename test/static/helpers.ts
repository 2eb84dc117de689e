// Shared by the rule tests: one detector's raw findings on a source, and the line of a snippet.
import { analyzeSource } from '../../lib/analysis/static/index.ts';
import type { StaticDetector } from '../../lib/analysis/static/index.ts';

export async function runDetector(src: string, d: StaticDetector) {
  const { findings } = await analyzeSource(src, 'T.sol', [{ detector: d }], { raw: true });
  return findings.filter((f) => f.detector === d.meta.id);
}

export const lineOf = (src: string, needle: string) => src.split('\n').findIndex((l) => l.includes(needle)) + 1;
