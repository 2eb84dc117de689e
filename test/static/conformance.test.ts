// Conformance of every TS detector plugin found by convention under plugins/detector-*:
// valid manifest, complete metadata, and its fixture: every `// expect: <id>` line flagged by
// that detector and no other line flagged by it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateManifest } from '../../kernel/manifest.ts';
import { CATEGORIES, SEVERITIES } from '../../schemas/finding.ts';
import { analyzeSource, discoverDetectorPlugins, importDetectors } from '../../lib/analysis/static/index.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const pluginsDir = path.join(root, 'plugins');
const folders = fs
  .readdirSync(pluginsDir)
  .filter((d) => d.startsWith('detector-') && fs.existsSync(path.join(pluginsDir, d, 'plugin.json')));
const tsFolders = folders.filter((d) => JSON.parse(fs.readFileSync(path.join(pluginsDir, d, 'plugin.json'), 'utf8')).runtime === 'ts');

test('there are detector plugins for every finding category', async () => {
  const { entries } = await importDetectors(discoverDetectorPlugins(pluginsDir).filter((d) => d.runtime === 'ts'));
  const cats = new Set(entries.map((e) => e.detector.meta.category));
  for (const c of CATEGORIES) assert.ok(cats.has(c), `no detector for category ${c}`);
});

for (const folder of tsFolders) {
  test(`${folder}: manifest, metadata and fixture`, async () => {
    const dir = path.join(pluginsDir, folder);
    const raw = JSON.parse(fs.readFileSync(path.join(dir, 'plugin.json'), 'utf8'));
    const v = validateManifest(raw, folder);
    assert.ok(v.ok, `manifest invalid: ${JSON.stringify(!v.ok && v.problems)}`);
    assert.equal(raw.kind, 'detector');
    const src = fs.readFileSync(path.join(dir, 'index.ts'), 'utf8');
    assert.match(src.split('\n')[0], /^\/\/ /, 'plugin must open with a comment block saying what it does');

    const { entries, errors } = await importDetectors([
      { id: raw.id, dir, entry: raw.entry, runtime: 'ts', config: raw.defaults ?? {}, manifest: raw },
    ]);
    assert.deepEqual(errors, []);
    assert.equal(entries.length, 1, 'one detector per plugin');
    const meta = entries[0].detector.meta;
    assert.equal(`detector-${meta.id}`, folder, 'detector id is the folder name without "detector-"');
    for (const k of ['title', 'description', 'recommendation', 'exploit_scenario'] as const)
      assert.ok(typeof meta[k] === 'string' && meta[k].length > 10, `meta.${k} missing`);
    assert.ok((SEVERITIES as readonly string[]).includes(meta.severity));
    assert.ok((CATEGORIES as readonly string[]).includes(meta.category));
    assert.ok(meta.confidence > 0 && meta.confidence <= 1);
    assert.ok('swc' in meta && 'cwe' in meta, 'swc and cwe must be declared (null when none applies)');
    // `other` is the catch-all: a rule there claiming more than LOW must name its weakness (CWE).
    if (meta.category === 'other' && meta.severity !== 'INFO' && meta.severity !== 'LOW')
      assert.ok(meta.cwe, `${meta.id}: an 'other' rule above LOW must declare its CWE`);

    const fixture = fs.readFileSync(path.join(dir, 'fixture.sol'), 'utf8');
    const expected = new Set<number>();
    fixture.split('\n').forEach((l, i) => {
      const m = /\/\/\s*expect:\s*([\w-]+)/.exec(l);
      if (m && m[1] === meta.id) expected.add(i + 1);
    });
    assert.ok(expected.size > 0, 'fixture must expect at least one finding');
    const { findings, diagnostics } = await analyzeSource(fixture, 'fixture.sol', entries, { raw: true });
    assert.deepEqual(diagnostics, []);
    const flagged = new Set(findings.filter((f) => f.detector === meta.id).map((f) => f.location.line));
    for (const l of expected) assert.ok(flagged.has(l), `line ${l} must be flagged by ${meta.id}; flagged: ${[...flagged].join(',')}`);
    for (const l of flagged)
      assert.ok(expected.has(l), `line ${l} flagged by ${meta.id} but not expected: ${fixture.split('\n')[l - 1].trim()}`);
    for (const f of findings) {
      assert.deepEqual(f.tools, ['vigil-static']);
      assert.deepEqual(f.layers, [1]);
      assert.ok(f.location.end_line >= f.location.line);
      assert.ok(f.location.end_line - f.location.line <= 8, 'findings stay tight to the statement');
    }
  });
}

// Tool plugins whose rules are detectors (layers 7 and 8): same metadata contract, the layer the
// manifest declares, and a fixture line for every rule (test/deep/ast-layers.test.ts checks the
// exact lines through the tool).
const ruleTools = discoverDetectorPlugins(pluginsDir).filter((d) => d.manifest.kind === 'tool');
test('tool plugins contributing detectors are found', () => {
  assert.deepEqual(ruleTools.map((d) => d.id).sort(), ['tool-signatures', 'tool-specialized']);
});
for (const d of ruleTools) {
  test(`${d.id}: every rule is a detector with complete metadata and a fixture line`, async () => {
    const { entries, errors } = await importDetectors([d]);
    assert.deepEqual(errors, []);
    assert.ok(entries.length > 0);
    const fixture = fs.readFileSync(path.join(d.dir, 'fixture.sol'), 'utf8');
    const { findings, diagnostics } = await analyzeSource(fixture, 'fixture.sol', entries, { raw: true });
    assert.deepEqual(diagnostics, []);
    for (const { detector, tool } of entries) {
      const meta = detector.meta;
      assert.equal(meta.layer, d.manifest.detector?.layer, `${meta.id}: layer`);
      assert.equal(meta.layer, d.manifest.tool?.layer, `${meta.id}: the tool's layer`);
      assert.equal(tool, d.manifest.tool?.name);
      for (const k of ['title', 'description', 'recommendation'] as const)
        assert.ok(typeof meta[k] === 'string' && meta[k].length > 10, `${meta.id}: meta.${k} missing`);
      assert.ok((SEVERITIES as readonly string[]).includes(meta.severity));
      assert.ok((CATEGORIES as readonly string[]).includes(meta.category));
      assert.ok(meta.confidence > 0 && meta.confidence <= 1);
      assert.ok(
        fixture.includes(`expect: ${meta.id}`) || new RegExp(`expect:.*\\b${meta.id}\\b`).test(fixture),
        `${meta.id}: no fixture line`,
      );
      assert.ok(
        findings.some((f) => f.detector === meta.id),
        `${meta.id} flags its fixture`,
      );
    }
    for (const f of findings) {
      assert.deepEqual(f.tools, [d.manifest.tool?.name]);
      assert.deepEqual(f.layers, [d.manifest.tool?.layer]);
    }
  });
}
