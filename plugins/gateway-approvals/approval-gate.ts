// Human approval gates. A policy names skills and capabilities that need a person's decision;
// check() stores a pending approval and the agent pauses. A decision (or the expiry of the
// approval) is persisted, audited, announced in-process (waitFor) and to the onDecided
// listeners (the agent runtime subscribes at start, so the paused turn resumes; this service
// never looks the agent up, which keeps the service graph free of cycles). Expiry is enforced
// twice: a timer per approval created in this process, and a sweeper for approvals left pending by an earlier run or another instance.
import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import { HttpError, type ApprovalRecord, type Store } from '../../kernel/index.ts';
import type {
  ApprovalPolicy,
  ApprovalService,
  AuditSink,
  DecidedListener,
  Decider,
  SkillCallRequest,
} from '../../lib/gateway/contracts.ts';
import { APPROVALS_DECIDE, CAPABILITY_NAMES, LimitError } from '../../lib/gateway/governance/limits.ts';

/** Store collection the CLI writes when it decides, so a running server resumes the paused turn. */
export const DECIDED_OUTBOX = 'approval_decisions';

export function deciderName(by: Decider): string {
  if (by.kind === 'operator') return `operator:${by.name}`;
  return by.key ?? by.tenant ?? 'local';
}

/** Throws 403 unless `by` may decide `rec` (the separation of duties of decisions.md). */
export function authorizeDecision(rec: ApprovalRecord, by: Decider): void {
  if (by.kind === 'operator') return;
  if (by.tenant == null && by.key == null) return;
  const requester = typeof rec.data?.requested_by === 'string' ? rec.data.requested_by : null;
  if (by.key != null && requester === by.key) {
    throw new HttpError(
      403,
      'forbidden',
      `the key ${by.key} caused this approval request and cannot decide it; a key of tenant "${rec.tenant}" with the permission ${APPROVALS_DECIDE}, or the operator (\`vigil approvals approve ${rec.id}\`), decides`,
      { reason: 'self_approval', requested_by: requester },
    );
  }
  if (!(by.permissions ?? []).includes(APPROVALS_DECIDE)) {
    throw new HttpError(
      403,
      'forbidden',
      `the key ${by.key ?? by.tenant} lacks the permission ${APPROVALS_DECIDE}; approvals are decided by an approver key of the tenant or by the operator (\`vigil approvals approve ${rec.id}\`)`,
      { reason: 'missing_permission', permission: APPROVALS_DECIDE },
    );
  }
}

export function parseApprovalPolicy(raw: unknown): ApprovalPolicy {
  if (raw == null) return { skills: [], capabilities: [], ttlSeconds: 900 };
  if (typeof raw !== 'object' || Array.isArray(raw))
    throw new LimitError('config "approvals" must be an object {skills, capabilities, ttl_seconds}');
  const r = raw as Record<string, unknown>;
  const list = (k: string): string[] => {
    const v = r[k] ?? [];
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string' || !x))
      throw new LimitError(`config approvals.${k} must be a list of names`);
    return [...new Set(v as string[])];
  };
  const caps = list('capabilities');
  const bad = caps.filter((c) => !(CAPABILITY_NAMES as readonly string[]).includes(c));
  if (bad.length)
    throw new LimitError(`config approvals.capabilities: unknown capability ${bad.join(', ')}; use ${CAPABILITY_NAMES.join(', ')}`);
  const ttl = r.ttl_seconds ?? 900;
  if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl < 1 || ttl > 7 * 86400)
    throw new LimitError('config approvals.ttl_seconds must be a number of seconds from 1 to 604800');
  return { skills: list('skills'), capabilities: caps, ttlSeconds: ttl };
}

/** Carries decisions between gateway replicas (Redis pub/sub); absent with one process. */
export interface ApprovalBus {
  /** Announces a decision to the other replicas. */
  publish(rec: ApprovalRecord): Promise<void>;
  /** Registers the handler for decisions made on other replicas. */
  onDecision(fn: (rec: ApprovalRecord) => void): void;
  /** Marks that a turn on this replica waits on the approval; the returned function unmarks. */
  hold(id: string): () => void;
  /** Whether a turn on another replica waits on the approval (it resumes the turn itself). */
  heldElsewhere(id: string): Promise<boolean>;
  /** A mark left by a replica that died lapses after this long. */
  readonly holdTtlMs: number;
}

export interface ApprovalDeps {
  store: Store;
  policy: ApprovalPolicy;
  audit: () => AuditSink | undefined;
  onError?: (e: unknown, what: string) => void;
  /** While waiting, re-read the store this often, to see decisions made by another instance. */
  pollMs?: number;
  now?: () => number;
  bus?: ApprovalBus;
}

const DECIDED = new Set(['approved', 'denied', 'expired']);

export function createApprovalService(d: ApprovalDeps): ApprovalService {
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const timers = new Map<string, NodeJS.Timeout>();
  const now = d.now ?? Date.now;
  const pollMs = d.pollMs ?? 2000;
  const report = d.onError ?? (() => undefined);
  // Approvals being decided right now: a decision racing the expiry timer (or a second click)
  // must lose cleanly instead of writing twice. Checked and set with no await in between.
  const inflight = new Set<string>();
  // Open waitFor() calls, so close() can end them instead of leaving their polls running.
  const waiters = new Set<(e: Error) => void>();
  const decided = new Set<DecidedListener>();
  const announce = (rec: ApprovalRecord, what: string) => {
    for (const fn of [...decided])
      void Promise.resolve()
        .then(() => fn(rec))
        .catch((e) => report(e, what));
  };

  const finish = async (rec: ApprovalRecord, how: 'approved' | 'denied' | 'expired', reason: string | null, actor: string | null) => {
    inflight.add(rec.id);
    try {
      return await finishClaimed(rec, how, reason, actor);
    } finally {
      inflight.delete(rec.id);
    }
  };

  const finishClaimed = async (
    rec: ApprovalRecord,
    how: 'approved' | 'denied' | 'expired',
    reason: string | null,
    actor: string | null,
  ) => {
    const done: ApprovalRecord = {
      ...rec,
      status: how,
      reason,
      decided_at: new Date(now()).toISOString(),
      data: { ...rec.data, ...(actor ? { decided_by: actor } : {}) },
    };
    await d.store.putApproval(done);
    const t = timers.get(rec.id);
    if (t) {
      clearTimeout(t);
      timers.delete(rec.id);
    }
    try {
      await d.audit()?.record({
        tenant: rec.tenant,
        type: how === 'expired' ? 'approval.expired' : 'approval.decision',
        outcome: how === 'approved' ? 'success' : how === 'denied' ? 'denied' : 'info',
        actor,
        session_id: rec.session_id,
        severity: how === 'approved' ? 5 : 4,
        detail: {
          approval_id: rec.id,
          skill: rec.skill,
          decision: how,
          reason,
          decided_by: actor,
          requested_by: rec.data?.requested_by ?? null,
        },
      });
    } catch (e) {
      report(e, 'audit of approval decision');
    }
    events.emit(rec.id, done);
    if (d.bus) void d.bus.publish(done).catch((e) => report(e, 'publish of approval decision'));
    // The decision has been stored; resuming the paused turn happens in the background so the
    // person deciding is not kept waiting for a whole skill call and model answer.
    const resume = () => announce(done, 'agent resume after approval');
    if (decided.size && !d.bus) resume();
    else if (decided.size && d.bus) {
      // A stream on another replica waits on this approval and resumes the turn there; this
      // replica only steps in (resumeAfterApproval claims the paused turn atomically) if that
      // replica went away without doing it.
      const bus = d.bus;
      void bus.heldElsewhere(rec.id).then(
        (elsewhere) => (elsewhere ? setTimeout(resume, bus.holdTtlMs + pollMs).unref() : resume()),
        () => resume(),
      );
    }
    return done;
  };

  const isOverdue = (a: ApprovalRecord) => a.status === 'pending' && Date.parse(a.expires_at) <= now();

  const expire = async (id: string, tenant: string | null) => {
    const cur = await d.store.getApproval(id, tenant);
    if (cur && isOverdue(cur) && !inflight.has(id)) await finish(cur, 'expired', 'no decision before the approval expired', null);
  };

  const arm = (a: ApprovalRecord) => {
    const ms = Math.max(0, Date.parse(a.expires_at) - now());
    const t = setTimeout(() => void expire(a.id, a.tenant).catch((e) => report(e, 'approval expiry')), Math.min(ms, 2 ** 31 - 1));
    t.unref();
    timers.set(a.id, t);
  };

  // Decisions made on another replica end this replica's waits at once (the poll is a fallback).
  d.bus?.onDecision((r) => events.emit(r.id, r));

  const svc: ApprovalService = {
    policy: d.policy,

    async check(call: SkillCallRequest) {
      const bySkill = d.policy.skills.includes(call.skill);
      const byCap = call.capabilities.filter((c) => d.policy.capabilities.includes(c));
      if (!bySkill && byCap.length === 0) return { decision: 'allow' as const };
      const created = now();
      const rec: ApprovalRecord = {
        id: randomUUID(),
        tenant: call.tenant,
        session_id: call.sessionId,
        skill: call.skill,
        input: call.input ?? {},
        status: 'pending',
        reason: null,
        created_at: new Date(created).toISOString(),
        expires_at: new Date(created + d.policy.ttlSeconds * 1000).toISOString(),
        decided_at: null,
        data: {
          tool_call_id: call.toolCallId,
          capabilities: call.capabilities,
          matched: { skill: bySkill, capabilities: byCap },
          requested_by: call.key ?? null,
        },
      };
      await d.store.putApproval(rec);
      arm(rec);
      try {
        await d.audit()?.record({
          tenant: call.tenant,
          type: 'approval.requested',
          outcome: 'info',
          session_id: call.sessionId,
          severity: 4,
          actor: call.key ?? call.tenant ?? null,
          detail: {
            approval_id: rec.id,
            skill: call.skill,
            capabilities: call.capabilities,
            expires_at: rec.expires_at,
            requested_by: call.key ?? null,
          },
        });
      } catch (e) {
        report(e, 'audit of approval request');
      }
      return { decision: 'pending' as const, approval: rec };
    },

    async waitFor(id, tenant, signal) {
      const first = await d.store.getApproval(id, tenant);
      if (!first) throw new HttpError(404, 'approval_not_found', `no approval ${id}`);
      if (DECIDED.has(first.status)) return first;
      if (isOverdue(first)) {
        await expire(id, tenant);
        return (await d.store.getApproval(id, tenant))!;
      }
      return new Promise<ApprovalRecord>((resolve, reject) => {
        // eslint-disable-next-line prefer-const -- cleanup() reads it and may run (on abort) before it is assigned
        let poll: NodeJS.Timeout | undefined;
        const release = d.bus?.hold(id);
        const cleanup = () => {
          release?.();
          events.off(id, done);
          clearInterval(poll);
          signal?.removeEventListener('abort', onAbort);
          waiters.delete(stop);
        };
        const done = (r: ApprovalRecord) => {
          cleanup();
          resolve(r);
        };
        const stop = (e: Error) => {
          cleanup();
          reject(e);
        };
        const onAbort = () => stop(signal?.reason ?? new Error('aborted'));
        waiters.add(stop);
        if (signal?.aborted) return onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
        events.on(id, done);
        poll = setInterval(() => {
          void d.store
            .getApproval(id, tenant)
            .then(async (r) => {
              if (!r) return;
              if (DECIDED.has(r.status)) done(r);
              else if (isOverdue(r)) await expire(id, tenant);
            })
            .catch((e) => report(e, 'approval poll'));
        }, pollMs);
        // Not unref'd: someone is waiting on this approval, which is work in progress.
      });
    },

    get: (id, tenant) => d.store.getApproval(id, tenant),

    async list(tenant, status) {
      return d.store.listApprovals({ tenant, status });
    },

    async decide(id, tenant, decision, reason, actor, by) {
      const cur = await d.store.getApproval(id, tenant);
      if (!cur) throw new HttpError(404, 'approval_not_found', `no approval ${id}`);
      if (by) authorizeDecision(cur, by);
      if (inflight.has(id)) throw new HttpError(409, 'conflict', `approval ${id} is being decided by another request`);
      if (isOverdue(cur)) {
        await expire(id, tenant);
        throw new HttpError(409, 'conflict', `approval ${id} expired at ${cur.expires_at}`, { status: 'expired' });
      }
      if (cur.status !== 'pending') throw new HttpError(409, 'conflict', `approval ${id} is already ${cur.status}`, { status: cur.status });
      return finish(cur, decision === 'approve' ? 'approved' : 'denied', reason, actor);
    },

    async sweep(tenants) {
      let n = 0;
      for (const t of tenants) {
        for (const a of await d.store.listApprovals({ tenant: t, status: 'pending' })) {
          if (isOverdue(a) && !inflight.has(a.id)) {
            await finish(a, 'expired', 'no decision before the approval expired', null);
            n++;
          } else if (!timers.has(a.id)) arm(a);
        }
      }
      return n;
    },

    async stats(tenant) {
      const all = await d.store.listApprovals({ tenant });
      const count = (s: string) => all.filter((a) => a.status === s).length;
      const secs = all
        .filter((a) => (a.status === 'approved' || a.status === 'denied') && a.decided_at)
        .map((a) => (Date.parse(a.decided_at!) - Date.parse(a.created_at)) / 1000)
        .sort((a, b) => a - b);
      const median = secs.length
        ? secs.length % 2
          ? secs[(secs.length - 1) / 2]
          : (secs[secs.length / 2 - 1] + secs[secs.length / 2]) / 2
        : null;
      return {
        pending: count('pending'),
        approved: count('approved'),
        denied: count('denied'),
        expired: count('expired'),
        median_decision_seconds: median,
      };
    },

    async applyExternalDecisions() {
      let n = 0;
      for (const row of await d.store.listRecords(DECIDED_OUTBOX, null)) {
        const tenant = (row.data.tenant as string | null) ?? null;
        const rec = await d.store.getApproval(row.id, tenant);
        // Delete first: of several instances reading the outbox, one applies each decision.
        if (!(await d.store.deleteRecord(DECIDED_OUTBOX, row.id, null))) continue;
        if (!rec || !DECIDED.has(rec.status)) continue;
        n++;
        const t = timers.get(rec.id);
        if (t) {
          clearTimeout(t);
          timers.delete(rec.id);
        }
        events.emit(rec.id, rec);
        announce(rec, 'agent resume after a CLI decision');
      }
      return n;
    },

    armed: () => timers.size,

    onDecided(fn) {
      decided.add(fn);
      return () => void decided.delete(fn);
    },

    close() {
      for (const w of [...waiters]) w(new Error('the approvals service is shutting down'));
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
      events.removeAllListeners();
    },
  };
  return svc;
}

/**
 * The operator's decision from the command line (`vigil approvals approve|deny`), against the
 * store directly, so it works whether the server runs or not. The decision is stored and
 * audited here; an outbox row tells a running server (which checks it on every sweep, and whose
 * waiting turns poll the approval) to resume the paused turn.
 */
export async function decideAsOperator(o: {
  store: Store;
  audit: AuditSink;
  tenants: Array<string | null>;
  id: string;
  decision: 'approve' | 'deny';
  reason: string | null;
  operator: string;
}): Promise<ApprovalRecord> {
  let tenant: string | null | undefined;
  for (const t of o.tenants) {
    if (await o.store.getApproval(o.id, t)) {
      tenant = t;
      break;
    }
  }
  if (tenant === undefined) throw new HttpError(404, 'approval_not_found', `no approval ${o.id}`);
  const svc = createApprovalService({
    store: o.store,
    policy: { skills: [], capabilities: [], ttlSeconds: 900 },
    audit: () => o.audit,
  });
  const announce = (decided_at: string | null) => o.store.putRecord(DECIDED_OUTBOX, o.id, { tenant, decided_at }, null);
  try {
    const by: Decider = { kind: 'operator', name: o.operator };
    const done = await svc.decide(o.id, tenant, o.decision, o.reason, deciderName(by), by);
    await announce(done.decided_at);
    return done;
  } catch (e) {
    // Found overdue and expired just now: the paused turn still has to hear about it (a
    // running server resumes it with the expiry; resuming twice is harmless, it is claimed once).
    const now = await o.store.getApproval(o.id, tenant);
    if (now?.status === 'expired') await announce(now.decided_at);
    throw e;
  } finally {
    svc.close();
  }
}
