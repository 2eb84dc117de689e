// `vigil store migrate --to postgres://…`: a SQLite store, copied, reads back the same through
// the Store API (same ids, cursors and audit trail), and new writes continue after the copy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { main } from '../../kernel/cli.ts';
import { SqliteStore } from '../../kernel/store/sqlite.ts';
import { PostgresStore } from '../../kernel/store/postgres.ts';
import { postgresProblem, pgUrlWithSchema, uniqueSchema } from './backends.ts';

const sink = () => {
  let text = '';
  const s = new Writable({ write: (c, _e, cb) => ((text += c), cb()) });
  return { s, text: () => text };
};

test(
  'store migrate copies a SQLite store into PostgreSQL, ids and cursors intact',
  { skip: (await postgresProblem()) ?? false },
  async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-mig-'));
    const src = SqliteStore.open(dir);
    await src.putTenant({
      name: 'acme',
      key_hash: 'h',
      key_prefix: 'vk_a',
      created_at: '2026-01-01T00:00:00.000Z',
      rate_limit: '5/min',
      token_quota_per_day: 10,
      max_concurrent_sessions: 1,
      permissions: ['llm_call'],
    });
    const rep = await src.putReport({ kind: 'analysis', tenant: 'acme', data: { summary: { total: 1 }, findings: [] } });
    const sess = await src.createSession({ tenant: 'acme', subject: 'alice', meta: { m: 1 } });
    await src.appendMessages(sess.id, [
      { role: 'user', content: 'hi', data: null },
      { role: 'assistant', content: 'yo', data: { x: 1 } },
    ]);
    for (let i = 0; i < 7; i++) await src.appendAudit({ tenant: i % 2 ? 'acme' : null, type: 'e', outcome: 'info', detail: { i } });
    await src.putApproval({
      id: 'ap',
      tenant: 'acme',
      session_id: sess.id,
      skill: 's',
      input: {},
      status: 'pending',
      reason: null,
      created_at: 'a',
      expires_at: 'b',
      decided_at: null,
      data: {},
    });
    await src.putRecord('usage.tokens', '2026-01-01', { tokens: 5 }, 'acme');
    const before = { audit: await src.queryAudit({ tenant: 'acme' }), msgs: await src.getMessages(sess.id) };
    await src.close();

    const url = pgUrlWithSchema(uniqueSchema('vmig'));
    const out = sink();
    const err = sink();
    const code = await main(['node', 'vigil', 'store', 'migrate', '--to', url, '--data-dir', dir], { stdout: out.s, stderr: err.s });
    assert.equal(code, 0, err.text());
    const res = JSON.parse(out.text());
    assert.deepEqual(res.copied, { tenants: 1, reports: 1, sessions: 1, messages: 2, audit_events: 7, approvals: 1, records: 1 });

    const dst = await PostgresStore.connect({ url });
    try {
      assert.deepEqual(await dst.queryAudit({ tenant: 'acme' }), before.audit);
      assert.deepEqual(await dst.getMessages(sess.id), before.msgs);
      assert.deepEqual((await dst.getReport(rep.id))?.data, rep.data);
      assert.equal((await dst.getTenantByKeyHash('h'))?.name, 'acme');
      assert.deepEqual(await dst.getRecord('usage.tokens', '2026-01-01', 'acme'), { tokens: 5 });
      assert.equal((await dst.getApproval('ap', 'acme'))?.status, 'pending');
      // New rows continue after the copied ids.
      const next = await dst.appendAudit({ tenant: 'acme', type: 'e', outcome: 'info', detail: {} });
      assert.ok(next.id > Math.max(...before.audit.map((e) => e.id!)));
      await dst.appendMessages(sess.id, [{ role: 'user', content: 'more', data: null }]);
      assert.equal((await dst.getMessages(sess.id)).length, 3);

      // A second copy into the now non-empty target is refused (exit 2) and changes nothing.
      const err2 = sink();
      assert.equal(
        await main(['node', 'vigil', 'store', 'migrate', '--to', url, '--data-dir', dir], { stdout: sink().s, stderr: err2.s }),
        2,
      );
      assert.match(err2.text(), /already holds data/);
      assert.equal((await dst.queryAudit({ tenant: 'acme' })).length, 4);
    } finally {
      await dst.dropSchema();
      await dst.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
);

test('store migrate: bad target URL or missing store exits 2 with a clear message', async () => {
  const e1 = sink();
  assert.equal(await main(['node', 'vigil', 'store', 'migrate', '--to', 'mysql://x/y'], { stdout: sink().s, stderr: e1.s }), 2);
  assert.match(e1.text(), /--to must be a postgres:\/\/ URL/);
  if (await postgresProblem()) return;
  const e2 = sink();
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-mig-'));
  assert.equal(
    await main(['node', 'vigil', 'store', 'migrate', '--to', pgUrlWithSchema(uniqueSchema('vmig')), '--data-dir', empty], {
      stdout: sink().s,
      stderr: e2.s,
    }),
    2,
  );
  assert.match(e2.text(), /no SQLite store at/);
});
