// ops-probes: liveness and readiness for orchestrators (Kubernetes, Nomad, a load balancer).
// /health/live answers 200 while the process and its event loop run: restart on failure.
// /health/ready answers 200 only when what this replica needs answers within the timeout
// (the store; Redis and the analysis queue when configured): take it out of rotation on 503,
// do not restart it. Both sit under /health, which the gateway keeps open without a key.
import { Redis } from 'ioredis';
import { definePlugin, Type } from '../../kernel/index.ts';
import { redisUrlOf, redact } from '../../kernel/redis.ts';

interface Check {
  status: 'ok' | 'down';
  detail: string;
  latency_ms: number;
}

const CheckSchema = Type.Object({ status: Type.String(), detail: Type.String(), latency_ms: Type.Number() });
const Ready = Type.Object({
  status: Type.String({ description: 'ready | not_ready' }),
  role: Type.String(),
  checks: Type.Record(Type.String(), CheckSchema),
});
const Live = Type.Object({ status: Type.String(), role: Type.String(), uptime_seconds: Type.Integer() });

export default definePlugin<{ timeout_ms: number }>({
  setup(ctx) {
    const { store, settings } = ctx.services;
    const started = Date.now();
    const redisUrl = redisUrlOf(settings);
    // Its own connection: a probe must not queue behind the job queue's blocking commands.
    const redis = redisUrl
      ? new Redis(redisUrl, {
          lazyConnect: true,
          maxRetriesPerRequest: 0,
          connectTimeout: ctx.config.timeout_ms,
          enableOfflineQueue: false,
        })
      : null;
    redis?.on('error', () => undefined);

    const timed = async (what: () => Promise<string>): Promise<Check> => {
      const t0 = Date.now();
      let timer: NodeJS.Timeout | undefined;
      try {
        const detail = await Promise.race([
          what(),
          new Promise<never>(
            (_, rej) => (timer = setTimeout(() => rej(new Error(`no answer within ${ctx.config.timeout_ms} ms`)), ctx.config.timeout_ms)),
          ),
        ]);
        return { status: 'ok', detail, latency_ms: Date.now() - t0 };
      } catch (e) {
        return { status: 'down', detail: (e as Error).message, latency_ms: Date.now() - t0 };
      } finally {
        clearTimeout(timer);
      }
    };

    const ready = async () => {
      const checks: Record<string, Check> = {
        store: await timed(async () => {
          if (!(await store.ping())) throw new Error(`${store.kind} store does not answer`);
          return `${store.kind} store answers`;
        }),
      };
      if (redis) {
        checks.redis = await timed(async () => {
          if (redis.status === 'wait' || redis.status === 'end') await redis.connect().catch(() => undefined);
          await redis.ping();
          return `Redis at ${redact(redisUrl!)} answers`;
        });
      }
      const jobs = ctx.services.get<{ queue: { kind: string; depth(): Promise<{ waiting: number; active: number }> } }>('analysis-jobs');
      if (jobs) {
        checks.job_queue = await timed(async () => {
          const d = await jobs.queue.depth();
          return `${jobs.queue.kind} queue: ${d.waiting} waiting, ${d.active} running`;
        });
      }
      const ok = Object.values(checks).every((c) => c.status === 'ok');
      return { ok, body: { status: ok ? 'ready' : 'not_ready', role: settings.role ?? 'all', checks } };
    };

    for (const surface of ['api', 'gateway'] as const) {
      ctx.registerRoutes(surface, async (app) => {
        app.get(
          '/health/live',
          { schema: { summary: 'Liveness: the process answers (restart it if not)', tags: ['operations'], response: { 200: Live } } },
          async () => ({
            status: 'alive',
            role: settings.role ?? 'all',
            uptime_seconds: Math.floor((Date.now() - started) / 1000),
          }),
        );
        app.get(
          '/health/ready',
          {
            schema: {
              summary: 'Readiness: the store, Redis and the job queue answer (route traffic here only on 200)',
              tags: ['operations'],
              response: { 200: Ready, 503: Ready },
            },
          },
          async (_req, reply) => {
            const r = await ready();
            reply.code(r.ok ? 200 : 503);
            return r.body;
          },
        );
      });
    }
    ctx.onClose(() => redis?.disconnect());
  },
});
