// The whole gateway on PostgreSQL: tenants, chat turns, session history and the audit log land
// in the shared database, and a second kernel (another replica) sees all of it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boot } from '../governance/helpers.ts';
import { PostgresStore } from '../../kernel/store/postgres.ts';
import { postgresProblem, pgUrlWithSchema, uniqueSchema } from './backends.ts';

test(
  'gateway on VIGIL_DATABASE_URL: a second replica sees the sessions and the audit log',
  { skip: (await postgresProblem()) ?? false },
  async () => {
    const url = pgUrlWithSchema(uniqueSchema('vk'));
    const a = await boot({ overrides: { database_url: url } });
    const b = await boot({ overrides: { database_url: url } });
    try {
      assert.equal(a.kernel.store.kind, 'postgres');
      const key = await a.addTenant('acme');
      const first = await a.req('POST', '/api/v1/agent/chat', { key, body: { message: 'what can you do?' } });
      assert.equal(first.status, 200, first.body);
      const sid = first.json.session_id;
      // The next turn of the same session goes to the other replica (a load balancer's choice).
      const second = await b.req('POST', '/api/v1/agent/chat', { key, body: { message: 'and then?', session_id: sid } });
      assert.equal(second.status, 200, second.body);
      const hist = await a.req('GET', `/api/v1/sessions/${sid}`, { key });
      assert.equal(hist.status, 200, hist.body);
      const users = hist.json.messages.filter((m: any) => m.role === 'user').map((m: any) => m.content);
      assert.deepEqual(users, ['what can you do?', 'and then?']);
      const events = await b.req('GET', '/api/v1/audit/events?limit=1000', { key });
      assert.equal(events.status, 200, events.body);
      const ids = events.json.events.map((e: any) => e.id);
      assert.deepEqual(
        ids,
        [...ids].sort((x: number, y: number) => x - y),
      );
      assert.ok(
        events.json.events.filter((e: any) => e.type === 'http.request' || e.type.startsWith('chat') || e.type.startsWith('agent'))
          .length >= 2,
        JSON.stringify(events.json.events.map((e: any) => e.type)),
      );
      const health = await b.req('GET', '/health');
      assert.equal(health.status, 200, health.body);
    } finally {
      await a.stop();
      await b.stop();
      const s = await PostgresStore.connect({ url });
      await s.dropSchema();
      await s.close();
    }
  },
);
