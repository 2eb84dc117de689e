// The Store contract, run against every backend: what one backend answers, the other must too.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BACKENDS, postgresProblem } from './backends.ts';
import type { Store, TenantRecord, ApprovalRecord, AuditEvent } from '../../kernel/store/types.ts';

const tenant = (name: string, o: Partial<TenantRecord> = {}): TenantRecord => ({
  name,
  key_hash: `hash-${name}`,
  key_prefix: `vk_${name}`,
  created_at: '2026-01-01T00:00:00.000Z',
  rate_limit: null,
  token_quota_per_day: null,
  max_concurrent_sessions: null,
  permissions: null,
  ...o,
});

for (const b of BACKENDS) {
  describe(`store contract: ${b.name}`, async () => {
    const skip = b.name === 'postgres' ? await postgresProblem() : null;
    let store: Store;
    let cleanup: () => Promise<void> = async () => undefined;
    before(async () => {
      if (skip) return;
      ({ store, cleanup } = await b.open());
    });
    after(async () => cleanup());
    // Subtests of a describe() are not awaited: node:test queues and runs them in order.
    const it = (name: string, fn: () => Promise<void>): void => void test(name, { skip: skip ?? false }, fn);

    it('kind and ping', async () => {
      assert.equal(store.kind, b.name);
      assert.equal(await store.ping(), true);
    });

    it('reports: stored data round-trips, lists newest first with summary and per-tenant totals', async () => {
      const data = { summary: { total: 2, by_severity: { HIGH: 1 } }, findings: [{ id: 'x', line: 3, text: 'ünïcödé "q"' }], z: 1, a: 2 };
      const r1 = await store.putReport({ kind: 'analysis', tenant: 'acme', data });
      const r2 = await store.putReport({ id: 'fixed-id', kind: 'audit', tenant: null, data: { nosummary: true } });
      const r3 = await store.putReport({ kind: 'analysis', tenant: 'acme', data: { summary: { total: 0 } } });
      assert.equal(r2.id, 'fixed-id');
      const got = await store.getReport(r1.id);
      assert.deepEqual(got, { id: r1.id, kind: 'analysis', tenant: 'acme', created_at: r1.created_at, data });
      // Key order survives (clients diff stored reports textually).
      assert.deepEqual(Object.keys(got.data), ['summary', 'findings', 'z', 'a']);
      assert.equal(await store.getReport('missing'), null);
      // Owned lookups: another owner's report answers null, exactly like a missing one.
      assert.equal((await store.getReport(r1.id, 'acme'))?.id, r1.id);
      assert.equal(await store.getReport(r1.id, 'other'), null);
      assert.equal(await store.getReport(r1.id, null), null);
      assert.equal((await store.getReport('fixed-id', null))?.id, 'fixed-id');
      assert.equal(await store.getReport('fixed-id', 'acme'), null);

      const acme = await store.listReports({ limit: 10, offset: 0, tenant: 'acme' });
      assert.equal(acme.total, 2);
      assert.deepEqual(
        acme.items.map((i) => i.id),
        [r3.id, r1.id],
      );
      assert.deepEqual(acme.items[1].summary, data.summary);
      const local = await store.listReports({ limit: 10, offset: 0, tenant: null });
      assert.deepEqual(
        local.items.map((i) => [i.id, i.summary]),
        [['fixed-id', null]],
      );
      const all = await store.listReports({ limit: 1, offset: 1 });
      assert.equal(all.total, 3);
      assert.equal(all.items.length, 1);
      assert.equal(all.items[0].id, r2.id);
      await assert.rejects(store.putReport({ id: 'fixed-id', kind: 'x', data: {} }));
    });

    it('sessions: tenant isolation, subject filter, newest first, messages in order', async () => {
      const s1 = await store.createSession({ tenant: 'acme', subject: 'alice', meta: { title: 't' } });
      await new Promise((r) => setTimeout(r, 5));
      const s2 = await store.createSession({ id: 'sess-2', tenant: 'acme', subject: 'bob' });
      const s3 = await store.createSession({ tenant: null });
      assert.deepEqual(await store.getSession(s1.id, 'acme'), s1);
      assert.equal(await store.getSession(s1.id, 'other'), null);
      assert.equal(await store.getSession(s1.id, null), null);
      assert.deepEqual(await store.getSession(s3.id, null), s3);
      assert.deepEqual(
        (await store.listSessions({ tenant: 'acme', limit: 10 })).map((s) => s.id),
        [s2.id, s1.id],
      );
      assert.deepEqual(
        (await store.listSessions({ tenant: 'acme', limit: 10, subject: 'alice' })).map((s) => s.id),
        [s1.id],
      );
      assert.deepEqual(
        (await store.listSessions({ tenant: 'acme', limit: 1 })).map((s) => s.id),
        [s2.id],
      );
      assert.deepEqual(
        (await store.listSessions({ tenant: null, limit: 10 })).map((s) => s.id),
        [s3.id],
      );

      await store.appendMessages(s1.id, [
        { role: 'user', content: 'hi', data: null },
        { role: 'assistant', content: null, data: { tool_calls: [{ id: 'c1' }] } },
        { role: 'tool', content: '{"ok":true}', data: { tool_call_id: 'c1' } },
      ]);
      await store.appendMessages(s1.id, [{ role: 'user', content: 'again', data: null }]);
      const msgs = await store.getMessages(s1.id);
      assert.deepEqual(
        msgs.map((m) => [m.role, m.content, m.data]),
        [
          ['user', 'hi', null],
          ['assistant', null, { tool_calls: [{ id: 'c1' }] }],
          ['tool', '{"ok":true}', { tool_call_id: 'c1' }],
          ['user', 'again', null],
        ],
      );
      assert.ok(msgs.every((m, i) => i === 0 || m.seq > msgs[i - 1].seq));
      assert.ok(msgs.every((m) => m.session_id === s1.id && typeof m.seq === 'number'));
      // Appending touched the session: it now lists first.
      assert.equal((await store.listSessions({ tenant: 'acme', limit: 10 }))[0].id, s1.id);
      assert.ok((await store.getSession(s1.id, 'acme'))!.updated_at > s1.updated_at);
    });

    it('appendMessages to a missing session fails and writes nothing', async () => {
      await assert.rejects(store.appendMessages('no-such-session', [{ role: 'user', content: 'x', data: null }]));
      assert.deepEqual(await store.getMessages('no-such-session'), []);
    });

    it('appendMessages failing after its first row stores none of its rows; writes beside it land', async () => {
      const a = await store.createSession({ tenant: 't-part' });
      const b = await store.createSession({ tenant: 't-part' });
      const res = await Promise.allSettled([
        store.appendMessages(a.id, [{ role: 'user', content: 'a1', data: null }]),
        store.appendMessages(b.id, [
          { role: 'user', content: 'b1', data: null },
          { role: null as unknown as string, content: 'b2', data: null },
        ]),
        store.appendAudit({ tenant: 't-part', type: 'x', outcome: 'info', detail: {} }),
      ]);
      assert.deepEqual(
        res.map((r) => r.status),
        ['fulfilled', 'rejected', 'fulfilled'],
      );
      assert.deepEqual(
        (await store.getMessages(a.id)).map((m) => m.content),
        ['a1'],
      );
      assert.deepEqual(await store.getMessages(b.id), [], 'no half of a failed append');
      assert.equal((await store.getSession(b.id, 't-part'))!.updated_at, b.updated_at);
      assert.equal((await store.queryAudit({ tenant: 't-part' })).length, 1);
    });

    it('deleteSession removes its messages, only for the owning tenant; purge by age', async () => {
      const s = await store.createSession({ tenant: 't-del' });
      await store.appendMessages(s.id, [{ role: 'user', content: 'x', data: null }]);
      assert.equal(await store.deleteSession(s.id, 'other'), false);
      assert.equal(await store.deleteSession(s.id, 't-del'), true);
      assert.equal(await store.deleteSession(s.id, 't-del'), false);
      assert.deepEqual(await store.getMessages(s.id), []);
      const old = await store.createSession({ tenant: 't-purge' });
      const cutoff = new Date(Date.now() + 1000).toISOString();
      assert.ok((await store.purgeSessionsBefore(cutoff)) >= 1);
      assert.equal(await store.getSession(old.id, 't-purge'), null);
    });

    it('audit: ids ascend, filters, cursors both ways, tenant isolation', async () => {
      const t = 'audit-t';
      const ev: AuditEvent[] = [];
      for (let i = 0; i < 6; i++) {
        ev.push(
          await store.appendAudit({
            tenant: t,
            type: i % 2 ? 'http.request' : 'skill.call',
            outcome: i === 3 ? 'denied' : 'success',
            actor: 'a',
            session_id: null,
            severity: i,
            detail: { i },
            ts: `2026-01-0${i + 1}T00:00:00.000Z`,
          }),
        );
      }
      await store.appendAudit({ tenant: null, type: 'x', outcome: 'info', detail: {} });
      assert.ok(ev.every((e, i) => typeof e.id === 'number' && (i === 0 || e.id > ev[i - 1].id!)));
      const all = await store.queryAudit({ tenant: t });
      assert.deepEqual(
        all.map((e) => e.detail),
        [0, 1, 2, 3, 4, 5].map((i) => ({ i })),
      );
      assert.deepEqual(all[2], {
        id: ev[2].id,
        ts: '2026-01-03T00:00:00.000Z',
        tenant: t,
        type: 'skill.call',
        outcome: 'success',
        actor: 'a',
        session_id: null,
        severity: 2,
        detail: { i: 2 },
      });
      assert.deepEqual(
        (await store.queryAudit({ tenant: t, type: 'http.request' })).map((e) => e.detail.i),
        [1, 3, 5],
      );
      assert.deepEqual(
        (await store.queryAudit({ tenant: t, outcome: 'denied' })).map((e) => e.detail.i),
        [3],
      );
      assert.deepEqual(
        (await store.queryAudit({ tenant: t, from: '2026-01-02T00:00:00.000Z', to: '2026-01-04T00:00:00.000Z' })).map((e) => e.detail.i),
        [1, 2, 3],
      );
      assert.deepEqual(
        (await store.queryAudit({ tenant: t, after: ev[3].id })).map((e) => e.detail.i),
        [4, 5],
      );
      assert.deepEqual(
        (await store.queryAudit({ tenant: t, before: ev[3].id, order: 'desc', limit: 2 })).map((e) => e.detail.i),
        [2, 1],
      );
      assert.deepEqual(
        (await store.queryAudit({ tenant: t, order: 'desc', limit: 1 })).map((e) => e.detail.i),
        [5],
      );
      assert.equal((await store.queryAudit({ tenant: null })).length, 1);
      assert.equal((await store.queryAudit({ tenant: 'nobody' })).length, 0);
    });

    it('audit: redaction rewrites detail only; the log refuses deletes and other updates', async () => {
      const t = 'redact-t';
      const a = await store.appendAudit({
        tenant: t,
        type: 'chat',
        outcome: 'success',
        session_id: 's-1',
        detail: { subject: 'alice', text: 'secret' },
      });
      await store.appendAudit({ tenant: t, type: 'chat', outcome: 'success', detail: { subject: 'bob' } });
      const n = await store.redactAudit(t, (e) => (e.detail.subject === 'alice' ? { redacted: true } : null));
      assert.equal(n, 1);
      const rows = await store.queryAudit({ tenant: t });
      assert.deepEqual(
        rows.map((r) => r.detail),
        [{ redacted: true }, { subject: 'bob' }],
      );
      assert.equal(rows[0].session_id, 's-1');
      assert.equal(rows[0].id, a.id);
      // Straight to the database, around the Store API: still refused.
      const raw = rawExec(store);
      await assert.rejects(raw(`DELETE FROM audit_events WHERE id = ${a.id}`), /append-only/);
      await assert.rejects(raw(`UPDATE audit_events SET outcome = 'failure' WHERE id = ${a.id}`), /append-only/);
      if (b.name === 'postgres') {
        await assert.rejects(raw(`UPDATE audit_events SET detail = '{}' WHERE id = ${a.id}`), /append-only/);
        await assert.rejects(raw('TRUNCATE audit_events'), /append-only/);
      }
      assert.equal((await store.queryAudit({ tenant: t })).length, 2);
    });

    it('tenants: upsert, lookup by key hash, unique key hash, list sorted, remove', async () => {
      assert.equal(await store.hasTenants(), false);
      await store.putTenant(
        tenant('zeta', {
          permissions: ['llm_call', 'file_read'],
          token_quota_per_day: 1000,
          rate_limit: '5/min',
          max_concurrent_sessions: 2,
        }),
      );
      await store.putTenant(tenant('alpha'));
      assert.deepEqual(
        await store.getTenant('zeta'),
        tenant('zeta', {
          permissions: ['llm_call', 'file_read'],
          token_quota_per_day: 1000,
          rate_limit: '5/min',
          max_concurrent_sessions: 2,
        }),
      );
      assert.equal((await store.getTenantByKeyHash('hash-alpha'))?.name, 'alpha');
      assert.equal(await store.hasTenants(), true);
      assert.equal(await store.getTenantByKeyHash('nope'), null);
      await store.putTenant(tenant('alpha', { key_hash: 'rotated', rate_limit: '1/s' }));
      assert.equal(await store.getTenantByKeyHash('hash-alpha'), null);
      assert.equal((await store.getTenant('alpha'))?.rate_limit, '1/s');
      await assert.rejects(store.putTenant(tenant('beta', { key_hash: 'rotated' })));
      assert.deepEqual(
        (await store.listTenants()).map((t) => t.name),
        ['alpha', 'zeta'],
      );
      assert.equal(await store.removeTenant('alpha'), true);
      assert.equal(await store.removeTenant('alpha'), false);
      assert.equal(await store.getTenant('alpha'), null);
      assert.equal(await store.hasTenants(), true, 'zeta is left');
      await store.removeTenant('zeta');
      assert.equal(await store.hasTenants(), false);
    });

    it('approvals: insert, decide by upsert, tenant isolation, status filter', async () => {
      const a: ApprovalRecord = {
        id: 'ap-1',
        tenant: 'acme',
        session_id: 's',
        skill: 'shell',
        input: { cmd: 'ls' },
        status: 'pending',
        reason: null,
        created_at: '2026-01-01T00:00:00.000Z',
        expires_at: '2026-01-01T00:15:00.000Z',
        decided_at: null,
        data: { tool_call_id: 'c' },
      };
      await store.putApproval(a);
      await store.putApproval({ ...a, id: 'ap-2', created_at: '2026-01-01T00:01:00.000Z' });
      assert.deepEqual(await store.getApproval('ap-1', 'acme'), a);
      assert.equal(await store.getApproval('ap-1', 'other'), null);
      await store.putApproval({
        ...a,
        status: 'approved',
        reason: 'ok',
        decided_at: '2026-01-01T00:05:00.000Z',
        data: { decided_by: 'x' },
        skill: 'ignored-on-update',
      });
      const d = await store.getApproval('ap-1', 'acme');
      assert.equal(d?.status, 'approved');
      assert.equal(d?.skill, 'shell');
      assert.deepEqual(
        (await store.listApprovals({ tenant: 'acme' })).map((x) => x.id),
        ['ap-2', 'ap-1'],
      );
      assert.deepEqual(
        (await store.listApprovals({ tenant: 'acme', status: 'pending' })).map((x) => x.id),
        ['ap-2'],
      );
      assert.deepEqual(await store.listApprovals({ tenant: null }), []);
    });

    it('records: per collection and tenant, upsert, newest first, delete', async () => {
      await store.putRecord('c', 'a', { n: 1 });
      await store.putRecord('c', 'a', { n: 1 }, 'acme');
      await new Promise((r) => setTimeout(r, 5));
      await store.putRecord('c', 'b', { n: 2 });
      await store.putRecord('c', 'a', { n: 3 });
      assert.deepEqual(await store.getRecord('c', 'a'), { n: 3 });
      assert.deepEqual(await store.getRecord('c', 'a', 'acme'), { n: 1 });
      assert.equal(await store.getRecord('c', 'zz'), null);
      assert.equal(await store.getRecord('other', 'a'), null);
      assert.deepEqual(
        (await store.listRecords('c')).map((r) => [r.id, r.data]),
        [
          ['a', { n: 3 }],
          ['b', { n: 2 }],
        ],
      );
      assert.equal(await store.deleteRecord('c', 'a', 'acme'), true);
      assert.equal(await store.deleteRecord('c', 'a', 'acme'), false);
      assert.deepEqual(await store.listRecords('c', 'acme'), []);
    });

    it('an event that cannot be stored fails alone; events appended with it are stored', async () => {
      const t = 'bad-t';
      const res = await Promise.allSettled([
        store.appendAudit({ tenant: t, type: 'x', outcome: 'info', detail: { n: 1 } }),
        store.appendAudit({ tenant: t, type: 'x', outcome: 'info', detail: { n: 10n } as any }),
        store.appendAudit({ tenant: t, type: 'x', outcome: 'info', detail: { n: 3 } }),
      ]);
      assert.deepEqual(
        res.map((r) => r.status),
        ['fulfilled', 'rejected', 'fulfilled'],
      );
      assert.deepEqual(
        (await store.queryAudit({ tenant: t })).map((e) => e.detail.n),
        [1, 3],
      );
    });

    it('concurrent appends get distinct ascending ids and all land', async () => {
      const t = 'conc-t';
      const res = await Promise.all(
        Array.from({ length: 40 }, (_, i) => store.appendAudit({ tenant: t, type: 'x', outcome: 'info', detail: { i } })),
      );
      assert.equal(new Set(res.map((r) => r.id)).size, 40);
      const rows = await store.queryAudit({ tenant: t, limit: 100 });
      assert.equal(rows.length, 40);
      assert.deepEqual(
        rows.map((r) => r.id),
        [...rows.map((r) => r.id!)].sort((x, y) => x - y),
      );
    });
  });
}

/** Runs SQL on the backend's own connection, bypassing the Store API. */
function rawExec(store: Store): (sql: string) => Promise<unknown> {
  const s = store as any;
  if (store.kind === 'sqlite') return async (sql) => s.db.exec(sql);
  return (sql) => s.pool.query(sql);
}

describe('PostgreSQL migrations', async () => {
  const skip = await postgresProblem();
  test('replicas starting together apply each migration exactly once', { skip: skip ?? false }, async () => {
    const { PostgresStore, POSTGRES_MIGRATIONS } = await import('../../kernel/store/postgres.ts');
    const { pgUrlWithSchema, uniqueSchema } = await import('./backends.ts');
    const url = pgUrlWithSchema(uniqueSchema('vm'));
    const stores = await Promise.all(Array.from({ length: 4 }, () => PostgresStore.connect({ url })));
    try {
      const rows = (await (stores[0] as any).pool.query('SELECT version FROM vigil_migrations ORDER BY version')).rows;
      assert.deepEqual(
        rows.map((r: any) => r.version),
        Array.from({ length: POSTGRES_MIGRATIONS }, (_, i) => i + 1),
      );
      // Running it again is a no-op.
      assert.equal(await stores[1].migrate(), POSTGRES_MIGRATIONS);
      await stores[2].appendAudit({ tenant: null, type: 'x', outcome: 'info', detail: {} });
      assert.equal((await stores[3].queryAudit({ tenant: null })).length, 1);
    } finally {
      await stores[0].dropSchema();
      await Promise.all(stores.map((s) => s.close()));
    }
  });
});
