// Approval decisions between gateway replicas over Redis: a decision made on replica B is
// published, and the turn waiting on replica A resumes at once (not at A's next store poll).
// A replica with a turn waiting marks the approval (a key with a TTL it keeps refreshing), so
// the deciding replica leaves the resumption to it.
import type { Redis } from 'ioredis';
import type { ApprovalRecord } from '../../kernel/index.ts';
import type { ApprovalBus } from './approval-gate.ts';

export function createRedisApprovalBus(o: {
  redis: Redis;
  prefix: string;
  replicaId: string;
  onError: (e: unknown, what: string) => void;
  holdTtlMs?: number;
}): ApprovalBus & { close(): Promise<void> } {
  const channel = `${o.prefix}approvals:decided`;
  const holdKey = (id: string) => `${o.prefix}approvals:waiting:${id}`;
  const holdTtlMs = o.holdTtlMs ?? 10_000;
  const handlers: Array<(r: ApprovalRecord) => void> = [];
  // Subscribing takes a connection of its own (a subscribed connection runs no other command).
  const sub = o.redis.duplicate();
  sub.on('error', (e) => o.onError(e, 'approval bus subscription'));
  void sub.subscribe(channel).catch((e) => o.onError(e, 'approval bus subscribe'));
  sub.on('message', (_ch, text: string) => {
    try {
      const m = JSON.parse(text) as { from: string; rec: ApprovalRecord };
      if (m.from === o.replicaId) return;
      for (const h of handlers) h(m.rec);
    } catch (e) {
      o.onError(e, 'approval bus message');
    }
  });
  const holds = new Map<string, NodeJS.Timeout>();
  return {
    holdTtlMs,
    async publish(rec) {
      await o.redis.publish(channel, JSON.stringify({ from: o.replicaId, rec }));
    },
    onDecision(fn) {
      handlers.push(fn);
    },
    hold(id) {
      const mark = () => void o.redis.set(holdKey(id), o.replicaId, 'PX', holdTtlMs).catch((e) => o.onError(e, 'approval wait mark'));
      mark();
      const t = setInterval(mark, Math.max(500, Math.floor(holdTtlMs / 3)));
      holds.set(id, t);
      return () => {
        clearInterval(t);
        holds.delete(id);
        void o.redis.del(holdKey(id)).catch(() => undefined);
      };
    },
    async heldElsewhere(id) {
      const who = await o.redis.get(holdKey(id));
      return who != null && who !== o.replicaId;
    },
    async close() {
      for (const t of holds.values()) clearInterval(t);
      holds.clear();
      sub.disconnect();
    },
  };
}
