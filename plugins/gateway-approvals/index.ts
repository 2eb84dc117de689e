// gateway-approvals: a person decides before the agent runs a gated skill.
//
// The policy comes from the config file (`approvals: {skills, capabilities, ttl_seconds}`). A
// gated call is stored as a pending approval; a tenant lists and decides only its own approvals
// (another tenant's id answers 404, a second decision 409). Fail-closed: an invalid policy makes
// every skill call fail with 503 instead of letting gated skills run unchecked. Calls that match
// neither a listed skill nor a listed capability are never held up. Separation of duties: the
// key whose request caused an approval never decides it; another key of the tenant with the
// permission approvals_decide does, or the operator with `vigil approvals approve|deny`.
import { definePlugin, HttpError, Type } from '../../kernel/index.ts';
import type { ApprovalGate, ApprovalPolicy, ApprovalService, AuditSink, Decider, ReadinessRegistry } from '../../lib/gateway/contracts.ts';
import { createApprovalService, deciderName, parseApprovalPolicy } from './approval-gate.ts';
import { approvalsCheck, separationCheck } from './readiness.ts';
import type { TenantDirectory } from '../../lib/gateway/contracts.ts';
import { openRedis, redisPrefixOf, redisUrlOf, newReplicaId } from '../../kernel/redis.ts';
import { createRedisApprovalBus } from './redis-bus.ts';

const ApprovalSchema = Type.Object({
  id: Type.String(),
  tenant: Type.Union([Type.String(), Type.Null()]),
  session_id: Type.String(),
  skill: Type.String(),
  input: Type.Object({}, { additionalProperties: true }),
  status: Type.String(),
  reason: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
  expires_at: Type.String(),
  decided_at: Type.Union([Type.String(), Type.Null()]),
  data: Type.Object({}, { additionalProperties: true }),
});

export default definePlugin<{ sweep_interval_ms: number; poll_interval_ms: number }>({
  async setup(ctx) {
    const { store, settings } = ctx.services;
    let policy: ApprovalPolicy | null = null;
    let policyError: string | null = null;
    try {
      policy = parseApprovalPolicy(settings.file.approvals);
    } catch (e) {
      policyError = (e as Error).message;
      ctx.log.error({ reason: policyError }, 'approval policy is invalid; skill calls fail until it is fixed');
    }

    // Several replicas (VIGIL_REDIS_URL): decisions travel between them.
    const redisUrl = redisUrlOf(settings);
    const redis = redisUrl ? openRedis(redisUrl) : null;
    redis?.on('error', (err) => ctx.log.warn({ err: err.message }, 'gateway-approvals Redis error'));
    const bus = redis
      ? createRedisApprovalBus({
          redis,
          prefix: redisPrefixOf(settings),
          replicaId: newReplicaId(),
          onError: (err, what) => ctx.log.error({ err }, `approvals: ${what} failed`),
        })
      : undefined;
    const svc: ApprovalService = createApprovalService({
      bus,
      store,
      policy: policy ?? { skills: [], capabilities: [], ttlSeconds: 900 },
      audit: () => ctx.services.get<AuditSink>('audit'),
      onError: (err, what) => ctx.log.error({ err }, `approvals: ${what} failed`),
      pollMs: ctx.config.poll_interval_ms,
    });
    const gate: ApprovalGate & ApprovalService = policyError
      ? {
          ...svc,
          async check() {
            throw new HttpError(
              503,
              'unavailable',
              'the approval policy in the config file is invalid; gated skills cannot run until it is fixed',
            );
          },
        }
      : svc;
    ctx.provide('approvals', gate);

    const tenantsToSweep = async (): Promise<Array<string | null>> => {
      const dir = ctx.services.get<TenantDirectory>('tenant-directory');
      return [null, ...(dir ? (await dir.list()).map((t) => t.name) : [])];
    };
    let sweeper: NodeJS.Timeout | null = null;
    const sweep = async () => {
      try {
        await svc.sweep(await tenantsToSweep());
        // Decisions the operator made with `vigil approvals` (another process): resume their turns.
        await svc.applyExternalDecisions();
      } catch (err) {
        ctx.log.error({ err }, 'approval sweep failed');
      }
    };

    ctx.registerRoutes('gateway', async (app) => {
      app.get(
        '/api/v1/approvals',
        {
          schema: {
            summary: "The calling tenant's approvals, newest first",
            tags: ['approvals'],
            querystring: Type.Object({
              status: Type.Optional(Type.Union(['pending', 'approved', 'denied', 'expired'].map((s) => Type.Literal(s)))),
            }),
            response: { 200: Type.Object({ approvals: Type.Array(ApprovalSchema) }) },
          },
        },
        async (req) => ({ approvals: await svc.list(req.tenant?.name ?? null, (req.query as { status?: string }).status) }),
      );
      app.get(
        '/api/v1/approvals/:id',
        {
          schema: {
            summary: 'One approval of the calling tenant',
            tags: ['approvals'],
            params: Type.Object({ id: Type.String({ maxLength: 128 }) }),
            response: { 200: ApprovalSchema },
          },
        },
        async (req) => {
          const { id } = req.params as { id: string };
          const a = await svc.get(id, req.tenant?.name ?? null);
          if (!a) throw new HttpError(404, 'approval_not_found', `no approval ${id}`);
          return a;
        },
      );
      app.post(
        '/api/v1/approvals/:id',
        {
          schema: {
            summary: 'Approve or deny a pending approval; the paused agent turn resumes',
            description:
              'Needs a key of the same tenant with the permission approvals_decide that is not the key whose request caused the approval (403 otherwise). The operator decides any approval with `vigil approvals approve|deny ID`.',
            tags: ['approvals'],
            params: Type.Object({ id: Type.String({ maxLength: 128 }) }),
            body: Type.Object(
              {
                decision: Type.Union([Type.Literal('approve'), Type.Literal('deny')]),
                reason: Type.Optional(Type.String({ maxLength: 2000 })),
                decided_by: Type.Optional(Type.String({ maxLength: 200, description: 'who decided, for the audit trail' })),
              },
              { additionalProperties: false },
            ),
            response: { 200: ApprovalSchema },
          },
        },
        async (req) => {
          const { id } = req.params as { id: string };
          const b = req.body as { decision: 'approve' | 'deny'; reason?: string; decided_by?: string };
          const tenant = req.tenant?.name ?? null;
          const by: Decider = { kind: 'key', tenant, key: req.tenant?.key ?? null, permissions: req.tenant?.permissions ?? null };
          // The authenticated key is the decider; decided_by is a note next to it, never instead.
          const who = deciderName(by);
          const actor = b.decided_by ? `${who} (${b.decided_by})` : who;
          return svc.decide(id, tenant, b.decision, b.reason ?? null, actor, by);
        },
      );
    });

    ctx.services
      .get<ReadinessRegistry>('readiness')
      ?.register(async () => [approvalsCheck(policy, policyError, svc.armed()), await separationCheck(ctx.services, policy)]);
    ctx.onStart(async () => {
      // Approvals left pending by an earlier run: expire the overdue, time the rest.
      await sweep();
      sweeper = setInterval(() => void sweep(), ctx.config.sweep_interval_ms);
      sweeper.unref();
    });
    ctx.onClose(async () => {
      if (sweeper) clearInterval(sweeper);
      svc.close();
      await bus?.close();
      redis?.disconnect();
    });
  },
});
