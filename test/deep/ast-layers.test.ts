// Layers 7 and 8: every rule flags exactly the lines its fixture marks (`// expect: rule, ...`)
// and nothing in the GOOD contracts beside them; findings carry the tool's name and layer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Value } from '@sinclair/typebox/value';
import { Finding } from '../../schemas/finding.ts';
import { createSpecializedTool } from '../../plugins/tool-specialized/tool.ts';
import { createSignaturesTool } from '../../plugins/tool-signatures/tool.ts';
import { SPECIALIZED_RULES } from '../../plugins/tool-specialized/rules.ts';
import { SIGNATURE_RULES } from '../../plugins/tool-signatures/rules.ts';
import { discoverDetectorPlugins } from '../../lib/analysis/static/index.ts';
import { inProcessAnalyzer } from '../../lib/analysis/static/rule-tool.ts';
import { expectedMarks } from '../support.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// The rules run in the static pipeline with every other detector, as in the product.
const analyze = inProcessAnalyzer(discoverDetectorPlugins(path.join(root, 'plugins')));
const opts = () => ({ signal: new AbortController().signal, deadline: Date.now() + 60_000 });

for (const [plugin, tool, layer, rules] of [
  ['tool-specialized', createSpecializedTool({ analyze }), 7, SPECIALIZED_RULES],
  ['tool-signatures', createSignaturesTool({ analyze }), 8, SIGNATURE_RULES],
] as const) {
  test(`${plugin}: fixture findings are exactly the expected lines`, async () => {
    const src = fs.readFileSync(path.join(root, 'plugins', plugin, 'fixture.sol'), 'utf8');
    const out = await tool.run({ source: src, file: 'fixture.sol', sha256: '' }, opts());
    assert.equal(out.status, 'success');
    const got = out.findings.map((f) => `${f.location.line}:${f.detector}`).sort();
    assert.deepEqual(got, expectedMarks(src));
    for (const f of out.findings) {
      assert.ok(Value.Check(Finding, f), `schema: ${JSON.stringify([...Value.Errors(Finding, f)][0])}`);
      assert.deepEqual(f.tools, [tool.name]);
      assert.deepEqual(f.layers, [layer]);
      assert.ok(f.location.contract && !f.location.contract.startsWith('Good'), `${f.detector} in ${f.location.contract}`);
    }
    // Every rule is exercised by its fixture.
    for (const r of rules)
      assert.ok(
        out.findings.some((f) => f.detector === r.meta.id),
        `${r.meta.id} has a BAD case`,
      );
  });

  test(`${plugin}: self-test passes; ids are stable across an unrelated edit; bad input does not throw`, async () => {
    await tool.selfTest!();
    const src = fs.readFileSync(path.join(root, 'plugins', plugin, 'fixture.sol'), 'utf8');
    const a = await tool.run({ source: src, file: 'fixture.sol', sha256: '' }, opts());
    const b = await tool.run({ source: '// a new header line\n' + src, file: 'fixture.sol', sha256: '' }, opts());
    assert.deepEqual(b.findings.map((f) => f.id).sort(), a.findings.map((f) => f.id).sort());
    const broken = await tool.run({ source: 'contract { function (', file: 'x.sol', sha256: '' }, opts());
    assert.equal(broken.status, 'success');
    assert.deepEqual(broken.findings, []);
    assert.ok((broken.meta as any).diagnostics.some((d: any) => d.kind === 'parse_error'));
  });
}
