// The approvals service announces decisions to onDecided listeners (the agent runtime subscribes
// at start) instead of looking up the agent: decisions made in-process, expiries and decisions
// the CLI stored all reach the listener, and nothing reaches it after unsubscribing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApprovalRecord, AuditEvent } from '../../kernel/index.ts';
import { SqliteStore } from '../../kernel/store/sqlite.ts';
import { createApprovalService, decideAsOperator } from '../../plugins/gateway-approvals/approval-gate.ts';

const call = (skill: string) => ({
  tenant: null,
  sessionId: 's1',
  skill,
  capabilities: [],
  input: {},
  toolCallId: 't1',
});

async function pending(svc: ReturnType<typeof createApprovalService>, skill = 'write_file'): Promise<ApprovalRecord> {
  const r = await svc.check(call(skill));
  assert.equal(r.decision, 'pending');
  return (r as { approval: ApprovalRecord }).approval;
}

/** Resolves with the next record a listener hears, or rejects after `ms`. */
function nextDecided(svc: ReturnType<typeof createApprovalService>, ms = 2000): Promise<ApprovalRecord> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('no decision announced')), ms);
    const off = svc.onDecided((rec) => {
      clearTimeout(t);
      off();
      resolve(rec);
    });
  });
}

describe('approvals announce decisions to listeners', () => {
  const audit = { record: async (_e: AuditEvent) => {} };
  const policy = { skills: ['write_file'], capabilities: [], ttlSeconds: 900 };

  it('an in-process decision reaches the listener', async () => {
    const store = new SqliteStore(':memory:');
    const svc = createApprovalService({ store, policy, audit: () => audit });
    try {
      const a = await pending(svc);
      const heard = nextDecided(svc);
      await svc.decide(a.id, null, 'approve', null, 'operator:test');
      const rec = await heard;
      assert.equal(rec.id, a.id);
      assert.equal(rec.status, 'approved');
    } finally {
      svc.close();
    }
  });

  it('a decision the CLI stored reaches the listener when the server applies it', async () => {
    const store = new SqliteStore(':memory:');
    const svc = createApprovalService({ store, policy, audit: () => audit });
    try {
      const a = await pending(svc);
      await decideAsOperator({ store, audit, tenants: [null], id: a.id, decision: 'deny', reason: 'no', operator: 'cli' });
      const heard = nextDecided(svc);
      assert.equal(await svc.applyExternalDecisions(), 1);
      const rec = await heard;
      assert.equal(rec.id, a.id);
      assert.equal(rec.status, 'denied');
    } finally {
      svc.close();
    }
  });

  it('an unsubscribed listener hears nothing', async () => {
    const store = new SqliteStore(':memory:');
    const svc = createApprovalService({ store, policy, audit: () => audit });
    try {
      const a = await pending(svc);
      const heard: ApprovalRecord[] = [];
      const off = svc.onDecided((rec) => void heard.push(rec));
      off();
      await svc.decide(a.id, null, 'deny', null, 'operator:test');
      await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(heard, []);
    } finally {
      svc.close();
    }
  });
});
