// An MCP call to a skill under the approval policy waits for the human decision inline: approve
// runs it, deny refuses it with a clear tool error; nothing is left to resume as a chat turn.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { listen, textOf, type Listening } from './helpers.ts';

interface Approvals {
  list(tenant: string | null, status?: string): Promise<Array<{ id: string; skill: string; status: string }>>;
  decide(id: string, tenant: string | null, d: 'approve' | 'deny', reason: string | null, actor: string | null): Promise<unknown>;
}

describe('MCP calls under the approval policy', () => {
  let h: Listening;
  let c: Client;
  let gate: Approvals;
  before(async () => {
    h = await listen({ side: 'gateway', config: { approvals: { skills: ['crypto'], ttl_seconds: 60 } } });
    c = await h.connect();
    gate = h.kernel.services.get<Approvals>('approvals')!;
  });
  after(() => h.close());

  const pending = async () => {
    for (let i = 0; i < 200; i++) {
      const p = (await gate.list(null, 'pending')).filter((a) => a.skill === 'crypto');
      if (p.length) return p[0];
      await new Promise((r) => setTimeout(r, 25));
    }
    assert.fail('no pending approval appeared');
  };

  test('approve: the waiting call runs and returns its result; progress names the approval', async () => {
    const progress: string[] = [];
    const call = c.callTool({ name: 'crypto', arguments: { op: 'keccak256', data: 'hello' } }, undefined, {
      onprogress: (p) => progress.push(p.message ?? ''),
    });
    const a = await pending();
    await gate.decide(a.id, null, 'approve', 'looks fine', 'tester');
    const r: any = await call;
    assert.ok(!r.isError, textOf(r));
    assert.match(JSON.stringify(r.structuredContent), /1c8aff950685c2ed4bc3174f3472287b56d9517b9c948127319a09a7a36deac8/);
    assert.ok(
      progress.some((m) => m.includes(a.id)),
      JSON.stringify(progress),
    );
  });

  test('deny: the call is refused with the reason', async () => {
    const call = c.callTool({ name: 'crypto', arguments: { op: 'sha256', data: 'x' } });
    const a = await pending();
    await gate.decide(a.id, null, 'deny', 'not today', 'tester');
    const r: any = await call;
    assert.equal(r.isError, true);
    assert.match(textOf(r), /approval_denied: a human denied this call \(not today\)/);
    assert.equal(r.structuredContent.status, 'denied');
  });
});
