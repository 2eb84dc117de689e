// `vigil plugins`: a header, columns aligned across every row, the failure reason in the last
// column, a count line, and exit 1 when a plugin failed. Runs the real CLI with two extra
// plugin folders (one disabled, one with an unreadable manifest) next to the bundled ones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { formatPluginTable, provides } from '../../kernel/plugin-table.ts';

const root = path.resolve(import.meta.dirname, '../..');

test('vigil plugins prints an aligned table with a header and the reason of each failure', () => {
  const extra = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-plugins-'));
  try {
    for (const f of ['disabled-one', 'bad-json'])
      fs.cpSync(path.join(root, 'test/fixtures/plugins', f), path.join(extra, f), { recursive: true });
    const r = spawnSync(process.execPath, [path.join(root, 'bin/vigil.js'), 'plugins'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, VIGIL_PLUGIN_DIRS: extra },
    });
    assert.equal(r.status, 1, 'a plugin failed to load: exit 1');
    const lines = r.stdout.trimEnd().split('\n');
    const header = lines[0];
    assert.match(header, /^ID\s+KIND\s+RUNTIME\s+STATUS\s+PROVIDES\s+REASON$/);
    const rows = lines.slice(1, lines.indexOf(''));
    assert.ok(rows.length > 50, `${rows.length} rows`);
    // every column starts where its header does
    for (const col of ['KIND', 'RUNTIME', 'STATUS', 'PROVIDES']) {
      const at = header.indexOf(col);
      for (const row of rows) assert.ok(row[at - 1] === ' ' && row[at] !== ' ', `${col} misaligned in: ${row}`);
    }
    const bad = rows.find((l) => l.startsWith('bad-json'));
    assert.ok(bad, r.stdout);
    assert.match(bad.slice(header.indexOf('STATUS')), /^error\s/);
    assert.match(bad.slice(header.indexOf('REASON')), /\S/, 'the reason is printed under REASON');
    const disabled = rows.find((l) => l.startsWith('disabled-one'))!;
    assert.match(disabled.slice(header.indexOf('STATUS')), /^disabled\s/);
    assert.match(lines[lines.length - 1], /^\d+ plugins: \d+ loaded, 1 disabled, 1 error$/);
  } finally {
    fs.rmSync(extra, { recursive: true, force: true });
  }
});

test('long registration lists are shortened (the full list is in --json)', () => {
  assert.equal(provides([]), '-');
  assert.equal(provides(['tool:a']), 'tool:a');
  const many = Array.from({ length: 10 }, (_, i) => `llm:provider-number-${i}`);
  const cell = provides(many);
  assert.ok(cell.length <= 60, cell);
  assert.match(cell, /^llm:provider-number-0, llm:provider-number-1 \+8 more$/);
  const table = formatPluginTable([
    { id: 'x', kind: 'llm', version: null, runtime: 'ts', dir: '/', status: 'loaded', error: null, registered: many, description: null },
  ]);
  assert.match(table, /\n\n1 plugin: 1 loaded\n$/);
});
