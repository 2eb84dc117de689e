// Every finding of chosen detector plugins over whole datasets, one line each, for reading a new
// rule's findings before it ships (docs/BENCHMARKS.md, "Detection (static layer)").
// `node --import tsx bench/rule-scan.ts <id>[,<id>…] [DIR…]` — ids without the `detector-` prefix;
// DIRs default to SmartBugs curated, the SWC registry and the real-world corpus (under
// ../shared/datasets or VIGIL_DATASETS) and bench/deep-corpus.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzeSource, type StaticDetector } from '../lib/analysis/static/index.ts';
import { datasetsDir, walkFiles } from './detect.ts';

const [ids, ...dirs] = process.argv.slice(2);
if (!ids) {
  console.error('usage: node --import tsx bench/rule-scan.ts <id>[,<id>…] [DIR…]');
  process.exit(2);
}
const here = path.dirname(fileURLToPath(import.meta.url));
const detectors: Array<{ detector: StaticDetector }> = [];
for (const id of ids.split(',')) {
  const mod = (await import(path.join(here, '..', 'plugins', `detector-${id}`, 'index.ts'))) as { detectors: StaticDetector[] };
  detectors.push(...mod.detectors.map((detector) => ({ detector })));
}
const roots = dirs.length
  ? dirs
  : [...['smartbugs-curated', 'swc-registry', 'real-world'].map((d) => path.join(datasetsDir(), d)), path.join(here, 'deep-corpus')];
let files = 0;
let count = 0;
for (const root of roots)
  for (const f of walkFiles(root).filter((x) => x.endsWith('.sol'))) {
    files++;
    const { findings } = await analyzeSource(fs.readFileSync(f, 'utf8'), f, detectors, { raw: true });
    for (const x of findings) {
      count++;
      console.log(`${path.relative(process.cwd(), f)}:${x.location.line} ${x.detector} ${x.severity} ${x.description.split('. ')[0]}`);
    }
  }
console.log(`${files} files, ${count} findings`);
