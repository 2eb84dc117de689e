// Shapes taken from audited code (OpenZeppelin, Uniswap v2, solmate) next to their flawed twins:
// the static layer and layers 7 and 8 flag exactly the `// expect: <rule>[, <rule>]` lines of
// each fixture under test/fixtures/audited/: no other MEDIUM-or-above finding, and no other
// finding of a rule the fixture names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzeSource, discoverDetectorPlugins, importDetectors } from '../../lib/analysis/static/index.ts';
import { expectedMarks } from '../support.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dir = path.join(root, 'test/fixtures/audited');
// Every detector module (layer 1 and the layer 7/8 rules): one traversal, as in the product.
const { entries } = await importDetectors(discoverDetectorPlugins(path.join(root, 'plugins')).filter((d) => d.runtime === 'ts'));

for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.sol'))) {
  test(`audited shape ${file}: exactly the expected findings`, async () => {
    const src = fs.readFileSync(path.join(dir, file), 'utf8');
    const a = await analyzeSource(src, file, entries);
    assert.deepEqual(a.diagnostics, []);
    const want = expectedMarks(src);
    const named = new Set(want.map((w) => w.split(':')[1]));
    // Every claim of a vulnerability (MEDIUM and above) must be expected; LOW/INFO notes only
    // count for the rules the fixture is about.
    const got = a.findings
      .filter((f) => ['CRITICAL', 'HIGH', 'MEDIUM'].includes(f.severity) || named.has(f.detector ?? ''))
      .map((f) => `${f.location.line}:${f.detector}`);
    assert.deepEqual([...new Set(got)].sort(), want);
  });
}
