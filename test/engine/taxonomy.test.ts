// The one weakness table (lib/analysis/taxonomy.ts) against its source, the SWC registry, and
// every rule that names a category, SWC id or CWE: detectors' metadata and the rule tables of
// the tools that map foreign vocabularies (slither, solhint). A rule may keep its own strings,
// but they must agree with the table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CATEGORIES, CATEGORY, SWC, categoryFor, cweForSwc, swcCategory, swcNumber } from '../../lib/analysis/taxonomy.ts';
import { discoverDetectorPlugins, importDetectors } from '../../lib/analysis/static/index.ts';
import { SLITHER_CATEGORIES } from '../../plugins/adapter-slither/adapter.ts';
import { SOLHINT_RULES } from '../../plugins/tool-solhint/solhint.ts';
import { SWC_CATEGORY as ML_SWC_CATEGORY } from '../../plugins/tool-ml/model/dataset.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const registry = path.join(root, '..', 'shared', 'datasets', 'swc-registry', 'export', 'swc-definition.json');

interface Rule {
  who: string;
  category: string;
  swc?: string | null;
  cwe?: string | null;
}

/** Problems of one rule against the table (empty when it agrees). */
function disagreements(r: Rule): string[] {
  const out: string[] = [];
  if (!(CATEGORIES as readonly string[]).includes(r.category)) out.push(`${r.who}: unknown category ${r.category}`);
  if (!r.swc) return out;
  const n = swcNumber(r.swc);
  const e = n ? SWC[n] : undefined;
  if (!e) return [...out, `${r.who}: ${r.swc} is not in the SWC table`];
  if (e.category && e.category !== r.category) out.push(`${r.who}: ${r.swc} is ${e.category} in the table, the rule says ${r.category}`);
  if (r.cwe && r.cwe !== e.cwe && !(e.alsoCwe ?? []).includes(r.cwe))
    out.push(`${r.who}: ${r.swc} lists ${[e.cwe, ...(e.alsoCwe ?? [])].join(' or ')}, the rule says ${r.cwe}`);
  return out;
}

test('every category has its DASP class, and its representative SWC id maps back to it', () => {
  assert.deepEqual(Object.keys(CATEGORY).sort(), [...CATEGORIES].sort());
  for (const c of CATEGORIES) {
    assert.match(CATEGORY[c].dasp, /^DASP-\d+ /);
    if (CATEGORY[c].swc) assert.equal(swcCategory(CATEGORY[c].swc), c, `${c} -> ${CATEGORY[c].swc}`);
  }
  assert.equal(new Set(CATEGORIES.map((c) => CATEGORY[c].dasp)).size, CATEGORIES.length, 'one DASP class per category');
});

test('the SWC table says what the SWC registry says (title and CWE)', (t) => {
  if (!fs.existsSync(registry)) return t.skip(`no SWC registry export at ${registry}`);
  const defs = JSON.parse(fs.readFileSync(registry, 'utf8')) as Record<string, { content: { Title: string; Relationships: string } }>;
  for (const [id, d] of Object.entries(defs)) {
    const n = swcNumber(id)!;
    assert.ok(SWC[n], `${id} missing from the table`);
    assert.equal(SWC[n].title, d.content.Title.trim(), id);
    assert.equal(SWC[n].cwe, /CWE-\d+/.exec(d.content.Relationships)?.[0], id);
  }
  assert.equal(Object.keys(SWC).length, Object.keys(defs).length, 'no entry the registry does not have');
});

test('SWC-101 is CWE-682 (the registry) and integer overflow may name CWE-190', () => {
  assert.equal(cweForSwc('SWC-101'), 'CWE-682');
  assert.deepEqual(disagreements({ who: 'overflow', category: 'arithmetic', swc: 'SWC-101', cwe: 'CWE-190' }), []);
  assert.notDeepEqual(disagreements({ who: 'x', category: 'arithmetic', swc: 'SWC-101', cwe: 'CWE-400' }), []);
  assert.notDeepEqual(disagreements({ who: 'x', category: 'reentrancy', swc: 'SWC-101', cwe: null }), []);
});

test('categoryFor: the SWC id wins, words decide when the id spans several categories', () => {
  assert.equal(categoryFor('SWC-107', 'anything'), 'reentrancy');
  assert.equal(categoryFor(124), 'access_control');
  assert.equal(categoryFor('SWC-119', 'shadowing'), 'other');
  assert.equal(categoryFor(null, 'Unprotected selfdestruct'), 'access_control');
});

test('every detector plugin names its category, SWC and CWE as the table does', async () => {
  const { entries, errors } = await importDetectors(discoverDetectorPlugins(path.join(root, 'plugins')).filter((d) => d.runtime === 'ts'));
  assert.deepEqual(errors, []);
  assert.ok(entries.length > 30, `only ${entries.length} detectors loaded`);
  const problems = entries.flatMap((e) => disagreements({ who: e.detector.meta.id, ...e.detector.meta }));
  assert.deepEqual(problems, []);
});

test('tool rule tables (slither, solhint) and the ML labels agree with the table', () => {
  const problems = [
    ...Object.entries(SLITHER_CATEGORIES).flatMap(([id, r]) => disagreements({ who: `slither:${id}`, ...r })),
    ...Object.entries(SOLHINT_RULES).flatMap(([id, r]) => disagreements({ who: `solhint:${id}`, ...r })),
    ...Object.entries(ML_SWC_CATEGORY).flatMap(([swc, category]) => disagreements({ who: `ml:${swc}`, category, swc })),
  ];
  assert.deepEqual(problems, []);
});
