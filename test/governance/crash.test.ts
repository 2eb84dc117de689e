// A process appending audit events is SIGKILLed mid-stream: the store must open intact and
// every event the writer saw acknowledged must be there, complete.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import { SqliteStore } from '../../kernel/store/sqlite.ts';
import { tempDir } from './helpers.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

test('SIGKILL during audit writes: store intact, every acknowledged event present', async () => {
  const dir = tempDir('vigil-crash-');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'fixtures/audit-writer.ts'), dir], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const acked = new Map<number, number>();
  let buf = '';
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const killed = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const lines = buf.split('\n');
      buf = lines.pop()!;
      for (const l of lines) {
        const [id, i] = l.split(' ').map(Number);
        acked.set(id, i);
      }
      // Kill while it is writing flat out, well after the first few thousand commits.
      if (acked.size >= 3000 && !child.killed) child.kill('SIGKILL');
    });
    child.on('exit', (_code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`writer exited on its own: ${stderr}`))));
  });
  await killed;
  assert.ok(acked.size >= 3000);

  const raw = new Database(path.join(dir, 'vigil.db'));
  assert.equal(raw.pragma('integrity_check', { simple: true }), 'ok');
  raw.close();
  const store = SqliteStore.open(dir);
  try {
    const rows = await store.queryAudit({ tenant: 'crash', limit: 10_000 });
    const byId = new Map(rows.map((r) => [r.id!, r]));
    for (const [id, i] of acked) {
      const r = byId.get(id);
      assert.ok(r, `acknowledged event ${id} is present`);
      assert.equal(r.detail.i, i);
      assert.equal(r.detail.pad.length, 200 + (i % 50), 'stored whole');
    }
    // Ids are dense: nothing half-written sits between acknowledged events.
    const ids = rows.map((r) => r.id!).sort((a, b) => a - b);
    assert.equal(ids[ids.length - 1]! - ids[0]! + 1, ids.length);
    // And the store keeps working after the crash.
    const next = await store.appendAudit({ tenant: 'crash', type: 'after', outcome: 'info', detail: {} });
    assert.ok(next.id! > ids[ids.length - 1]!);
  } finally {
    await store.close();
  }
});
