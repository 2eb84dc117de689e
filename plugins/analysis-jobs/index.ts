// analysis-jobs: long audits as jobs (decisions.md, "Analysis API" and "Running on several
// machines"). POST /api/v1/jobs/ answers 202 {job_id, status} at once; GET /api/v1/jobs/{id}/
// gives status, progress and, when done, the body the synchronous endpoint returns;
// GET /api/v1/jobs/{id}/events streams progress as server-sent events.
//
// Embedded (no VIGIL_REDIS_URL): an in-process queue run by this process's engine. Shared:
// BullMQ on Redis — API replicas enqueue, processes with --role worker (or all) run the jobs in
// their worker pools. Job state and results live in the store (PostgreSQL when shared), written
// idempotently: a job that runs twice (its first worker was killed) is stored and audited once.
// The request's trace context travels in the job, so one trace spans API -> queue -> worker.
import { randomUUID } from 'node:crypto';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { FastifyRequest } from 'fastify';
import { definePlugin, HttpError, Type, type AnalysisEngine, type AnalysisResult } from '../../kernel/index.ts';
import type { AuditSink } from '../../lib/gateway/contracts.ts';
import { readContract } from '../../lib/analysis/contract-input.ts';
import type { AnalysisJobs } from '../../lib/analysis/jobs.ts';
import { openSse } from '../../lib/gateway/agent/sse.ts';
import { AnalyzeRequest, ErrorBody } from '../../schemas/analysis-api.ts';
import { newReplicaId, redisPrefixOf, redisUrlOf } from '../../kernel/redis.ts';
import { createMemoryQueue, QueueFullError, type JobData, type JobProgress, type JobQueue } from './queue.ts';

interface Config extends Record<string, unknown> {
  queue_name: string;
  max_waiting: number;
  attempts: number;
  concurrency: number;
  lock_ms: number;
  max_contract_bytes: number;
  store_full_reports: boolean;
}

export const JOBS_COLLECTION = 'analysis.jobs';

type Status = 'queued' | 'running' | 'completed' | 'failed';
interface JobRecord extends Record<string, unknown> {
  job_id: string;
  status: Status;
  mode: JobData['mode'];
  layer: number | null;
  tool: string | null;
  file: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  attempts: number;
  progress: JobProgress | null;
  worker: string | null;
  result?: AnalysisResult;
  error?: string;
}

const JobBody = Type.Object(
  {
    ...AnalyzeRequest.properties,
    format: Type.Optional(Type.Literal('json', { description: 'jobs return JSON (the synchronous endpoints also offer SARIF)' })),
    mode: Type.Union([Type.Literal('quick'), Type.Literal('full'), Type.Literal('layer'), Type.Literal('tool')], {
      default: 'full',
      description: 'quick, full (default), layer or tool',
    }),
    layer: Type.Optional(Type.Integer({ minimum: 1, description: 'with mode layer: the layer to run' })),
    tool: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'with mode tool: the tool to run' })),
  },
  { additionalProperties: false, description: 'An AnalyzeRequest plus the mode to run' },
);
const JobParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const Accepted = Type.Object({ job_id: Type.String(), status: Type.String() });
const JobView = Type.Object(
  {
    job_id: Type.String(),
    status: Type.String({ description: 'queued | running | completed | failed' }),
    mode: Type.String(),
    created_at: Type.String(),
    started_at: Type.Union([Type.String(), Type.Null()]),
    finished_at: Type.Union([Type.String(), Type.Null()]),
    attempts: Type.Integer({ description: 'runs started so far (more than 1 after a retry)' }),
    progress: Type.Union([
      Type.Object({ done: Type.Integer(), total: Type.Integer(), tool: Type.Union([Type.String(), Type.Null()]) }),
      Type.Null(),
    ]),
    result: Type.Optional(
      Type.Object({}, { additionalProperties: true, description: 'when completed: the body the synchronous endpoint returns' }),
    ),
    error: Type.Optional(Type.String()),
    report_url: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  },
  { additionalProperties: true },
);

const tenantOf = (req: FastifyRequest): string | null =>
  (req as FastifyRequest & { tenant?: { name: string | null } }).tenant?.name ?? null;
const FINAL = new Set<Status>(['completed', 'failed']);

export default definePlugin<Config>({
  async setup(ctx) {
    const { store, settings, tracer } = ctx.services;
    const engine = () => {
      const e = ctx.services.get<AnalysisEngine>('analysis');
      if (!e) throw new HttpError(503, 'unavailable', 'contract analysis is not available: the analysis-engine plugin is not loaded');
      return e;
    };
    const audit = () => ctx.services.get<AuditSink>('audit');
    const replica = newReplicaId();
    const report = (e: unknown, what: string) => ctx.log.error({ err: e }, `analysis-jobs: ${what} failed`);

    const redisUrl = redisUrlOf(settings);
    const limits = { maxWaiting: ctx.config.max_waiting, attempts: ctx.config.attempts, concurrency: ctx.config.concurrency };
    let queue: JobQueue;
    if (redisUrl) {
      const { createBullQueue } = await import('./bullmq.ts');
      const name = process.env.VIGIL_JOBS_QUEUE ?? ctx.config.queue_name;
      queue = createBullQueue(
        { ...limits, url: redisUrl, prefix: redisPrefixOf(settings), queueName: name, lockMs: ctx.config.lock_ms },
        report,
      );
    } else queue = createMemoryQueue(limits, report);
    // The embedded queue has no other consumer: this process runs its own jobs whatever its role.
    const consumes = queue.kind === 'memory' || settings.role === 'all' || settings.role === 'worker';

    const queuedRecord = (id: string, j: Pick<JobData, 'mode' | 'layer' | 'tool' | 'file'>): JobRecord => ({
      job_id: id,
      status: 'queued',
      mode: j.mode,
      layer: j.layer ?? null,
      tool: j.tool ?? null,
      file: j.file,
      created_at: new Date().toISOString(),
      started_at: null,
      finished_at: null,
      attempts: 0,
      progress: null,
      worker: null,
    });
    const load = async (id: string, tenant: string | null) => (await store.getRecord(JOBS_COLLECTION, id, tenant)) as JobRecord | null;
    const save = (r: JobRecord, tenant: string | null) => store.putRecord(JOBS_COLLECTION, r.job_id, r, tenant);

    // --- worker side ------------------------------------------------------------------------
    const run = async (d: JobData, ctl: { attempt: number; final: boolean; progress(p: JobProgress): Promise<void> }) => {
      const prev = await load(d.job_id, d.tenant);
      if (prev?.status === 'completed') return; // an earlier run stored it; nothing to redo
      const base: JobRecord = prev ?? queuedRecord(d.job_id, d);
      const saveFailed = (error: string) =>
        save({ ...base, status: 'failed', attempts: ctl.attempt, worker: replica, finished_at: new Date().toISOString(), error }, d.tenant);
      // A synchronous caller's deadline bounds the run; past it nobody waits for the answer.
      // (a second is kept for the answer's trip back through the store and Redis).
      const left = d.deadline === undefined ? Infinity : d.deadline - Date.now() - 1000;
      if (left < 1000) {
        await saveFailed('the request that queued this analysis timed out before a worker could start it');
        return;
      }
      await save({ ...base, status: 'running', started_at: new Date().toISOString(), attempts: ctl.attempt, worker: replica }, d.tenant);
      const parent = propagation.extract(ROOT_CONTEXT, d.trace ?? {});
      const span = tracer.startSpan(
        'analysis.job',
        { kind: SpanKind.CONSUMER, attributes: { 'vigil.job_id': d.job_id, 'vigil.job_attempt': ctl.attempt, 'analysis.mode': d.mode } },
        parent,
      );
      let result: AnalysisResult;
      try {
        let last = 0;
        result = await context.with(trace.setSpan(parent, span), () =>
          engine().analyze(
            { source: d.source, file: d.file },
            {
              mode: d.mode,
              layer: d.layer,
              tool: d.tool,
              timeoutMs: Math.min(d.timeout * 1000, left),
              suppress: d.suppress === true,
              onProgress: (p) => {
                // Progress is best effort and throttled; the result is what must not be lost.
                const now = Date.now();
                if (p.done === p.total || now - last > 250) {
                  last = now;
                  void ctl.progress({ done: p.done, total: p.total, tool: p.tool }).catch(() => undefined);
                }
              },
            },
          ),
        );
      } catch (e) {
        span.recordException(e as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (e as Error).message });
        span.end();
        if (ctl.final) {
          await saveFailed((e as Error).message || String(e));
          await audit()
            ?.record({
              tenant: d.tenant,
              type: 'analysis.job.failed',
              outcome: 'failure',
              actor: replica,
              severity: 4,
              detail: { job_id: d.job_id, attempt: ctl.attempt, error: (e as Error).message },
            })
            .catch((err) => report(err, 'audit of a failed job'));
        }
        throw e;
      }
      span.end();
      // The job id is the audit id: a second run of the same job overwrites nothing new.
      result.audit_id = d.job_id;
      if (d.mode === 'full' && ctx.config.store_full_reports) {
        if (!(await store.getReport(d.job_id))) {
          try {
            await store.putReport({ id: d.job_id, kind: 'analysis', tenant: d.tenant, data: result });
          } catch (e) {
            // Another run stored it between our check and insert: that copy is as good as ours.
            if (!(await store.getReport(d.job_id))) throw e;
          }
        }
        result.report_url = `/api/v1/reports/${d.job_id}/`;
      }
      const again = await load(d.job_id, d.tenant);
      if (again?.status === 'completed') return;
      await save(
        {
          ...base,
          status: 'completed',
          attempts: ctl.attempt,
          worker: replica,
          started_at: again?.started_at ?? base.started_at,
          finished_at: new Date().toISOString(),
          progress: { done: result.results.length, total: result.results.length, tool: null },
          result,
        },
        d.tenant,
      );
      await audit()
        ?.record({
          tenant: d.tenant,
          type: 'analysis.job.completed',
          outcome: 'success',
          actor: replica,
          severity: 2,
          detail: { job_id: d.job_id, attempt: ctl.attempt, mode: d.mode, findings: result.total_findings },
        })
        .catch((e) => report(e, 'audit of a completed job'));
    };

    // --- API side ---------------------------------------------------------------------------
    /** Stores the job's record and queues it under a producer span (whose context the worker
     *  continues); 503 queue_full with Retry-After when the queue is full. */
    const submit = async (j: Omit<JobData, 'job_id' | 'trace'>): Promise<string> => {
      const id = randomUUID();
      const rec = queuedRecord(id, j);
      const span = tracer.startSpan('analysis.job.enqueue', {
        kind: SpanKind.PRODUCER,
        attributes: { 'vigil.job_id': id, 'analysis.mode': j.mode },
      });
      const carrier: Record<string, string> = {};
      propagation.inject(trace.setSpan(context.active(), span), carrier);
      try {
        await save(rec, j.tenant);
        await queue.enqueue({ ...j, job_id: id, trace: carrier });
      } catch (e) {
        await store.deleteRecord(JOBS_COLLECTION, id, j.tenant).catch(() => undefined);
        if (e instanceof QueueFullError) {
          span.setAttribute('vigil.outcome', 'queue_full');
          throw new HttpError(
            503,
            'queue_full',
            `${e.message}; retry in ${e.retryAfterS} s`,
            { waiting: e.waiting, retry_after_seconds: e.retryAfterS },
            { 'retry-after': String(e.retryAfterS) },
          );
        }
        throw new HttpError(503, 'unavailable', `the analysis queue is unreachable: ${(e as Error).message}`);
      } finally {
        span.end();
      }
      await audit()
        ?.record({
          tenant: j.tenant,
          type: 'analysis.job.queued',
          outcome: 'info',
          actor: replica,
          severity: 2,
          detail: { job_id: id, mode: j.mode, file: j.file, ...(j.deadline === undefined ? {} : { synchronous: true }) },
        })
        .catch((e) => report(e, 'audit of a queued job'));
      return id;
    };

    /** Settles when the job's record is final: events carry the news, a poll is the safety net. */
    const settled = (id: string, tenant: string | null, signal: AbortSignal, until: number) =>
      new Promise<JobRecord | null>((resolve, reject) => {
        let done = false;
        const finish = (r: JobRecord | null, e?: unknown) => {
          if (done) return;
          done = true;
          clearInterval(poll);
          clearTimeout(timer);
          unsubscribe();
          signal.removeEventListener('abort', onAbort);
          if (e) reject(e instanceof Error ? e : new Error('aborted'));
          else resolve(r);
        };
        const check = () =>
          load(id, tenant).then(
            (r) => r && FINAL.has(r.status) && finish(r),
            (e) => report(e, 'job poll'),
          );
        const unsubscribe = queue.subscribe(id, (e) => void (e.type !== 'progress' && check()));
        const poll = setInterval(() => void check(), 1000);
        const timer = setTimeout(() => finish(null), Math.max(0, until - Date.now()));
        const onAbort = () => finish(null, signal.reason ?? new Error('aborted'));
        signal.addEventListener('abort', onAbort, { once: true });
        void check();
      });

    const runAndWait: AnalysisJobs['runAndWait'] = async (a, o) => {
      const jobId = await submit({
        tenant: a.tenant,
        mode: a.mode,
        layer: a.layer,
        tool: a.tool,
        source: a.source,
        file: a.file,
        timeout: a.timeoutS,
        deadline: o.deadline,
        ...(a.suppress ? { suppress: true } : {}),
      });
      // A running job is bounded by the deadline on the worker; the grace covers the answer's trip.
      let rec: JobRecord | null = null;
      let why = 'the timeout ran out';
      try {
        rec = await settled(jobId, a.tenant, o.signal, o.deadline + 15_000);
      } catch (e) {
        why = (e as Error).message;
      }
      if (!rec) {
        // The caller went away or its budget ran out: nobody waits for a job not yet started.
        if (await queue.withdraw(jobId).catch(() => false))
          throw new HttpError(
            429,
            'analysis_busy',
            `no analysis worker was free to start this analysis before its timeout (${why}); retry later or raise the timeout`,
            { job_id: jobId, reason: 'no_worker_in_time', retry_after_seconds: 30 },
            { 'retry-after': '30' },
          );
        throw new HttpError(504, 'timeout', `the analysis worker did not answer in time (${why})`, { job_id: jobId });
      }
      if (rec.status === 'failed' || !rec.result)
        throw new HttpError(500, 'analysis_failed', `the analysis failed on the worker: ${rec.error ?? 'no result was stored'}`, {
          job_id: jobId,
        });
      return { jobId, result: rec.result };
    };
    const remote = queue.kind === 'bullmq' && !consumes;
    ctx.provide('analysis-jobs', { queue, consumes, remote, runAndWait });
    const view = async (r: JobRecord) => {
      let status = r.status;
      let progress = r.progress;
      let error = r.error;
      if (!FINAL.has(status)) {
        progress = (await queue.progress(r.job_id).catch(() => null)) ?? progress;
        // The embedded queue forgets its jobs on restart; say so instead of "queued" forever.
        if (queue.kind === 'memory' && !(await queue.holds(r.job_id))) {
          status = 'failed';
          error = 'the server restarted before this job finished; submit it again';
        }
      }
      const out: Record<string, unknown> = {
        job_id: r.job_id,
        status,
        mode: r.mode,
        created_at: r.created_at,
        started_at: r.started_at,
        finished_at: r.finished_at,
        attempts: r.attempts,
        progress,
      };
      if (status === 'completed' && r.result) {
        out.result = r.result;
        out.report_url = r.result.report_url ?? null;
      }
      if (error) out.error = error;
      return out;
    };

    const mustLoad = async (req: FastifyRequest) => {
      const { id } = req.params as { id: string };
      const r = await load(id, tenantOf(req));
      if (!r) throw new HttpError(404, 'job_not_found', `no analysis job ${id}`);
      return r;
    };

    ctx.registerRoutes('api', async (app) => {
      app.post(
        '/api/v1/jobs/',
        {
          schema: {
            summary: 'Queue an analysis (a long full audit) and return at once with its job id',
            tags: ['jobs'],
            body: JobBody,
            response: { 202: Accepted, 400: ErrorBody, 403: ErrorBody, 413: ErrorBody, 503: ErrorBody },
          },
        },
        async (req, reply) => {
          const b = req.body as {
            contract_code?: string;
            contract_path?: string;
            timeout?: number;
            mode?: JobData['mode'];
            layer?: number;
            tool?: string;
          };
          const mode = b.mode ?? 'full';
          if (mode === 'layer' && b.layer === undefined)
            throw new HttpError(400, 'invalid_request', 'mode "layer" needs "layer" (the layer number)', { field: 'layer' });
          if (mode === 'tool' && b.tool === undefined)
            throw new HttpError(400, 'invalid_request', 'mode "tool" needs "tool" (the tool name)', { field: 'tool' });
          if (mode !== 'layer' && b.layer !== undefined)
            throw new HttpError(400, 'invalid_request', '"layer" is only for mode "layer"', { field: 'layer' });
          if (mode !== 'tool' && b.tool !== undefined)
            throw new HttpError(400, 'invalid_request', '"tool" is only for mode "tool"', { field: 'tool' });
          const contract = await readContract(b, 'contract', {
            roots: settings.contractRoots,
            maxBytes: ctx.config.max_contract_bytes,
          });
          const eng = engine();
          if (b.layer !== undefined) {
            const layers = await eng.layers();
            if (!layers.some((l) => l.layer === b.layer))
              throw new HttpError(
                400,
                'unknown_layer',
                `layer ${b.layer} does not exist; layers are ${layers.map((l) => l.layer).join(', ')}`,
              );
          }
          if (b.tool !== undefined && !(await eng.getTool(b.tool)))
            throw new HttpError(400, 'unknown_tool', `no tool named "${b.tool}"`, {
              available_tools: (await eng.listTools()).map((t) => t.name),
            });
          const id = await submit({
            tenant: tenantOf(req),
            mode,
            layer: b.layer,
            tool: b.tool,
            source: contract.source,
            file: contract.file,
            timeout: Math.min(b.timeout ?? 300, settings.maxAnalysisTimeoutS ?? 300),
          });
          reply.code(202).header('location', `/api/v1/jobs/${id}/`);
          return { job_id: id, status: 'queued' };
        },
      );

      app.get(
        '/api/v1/jobs/:id/',
        {
          schema: {
            summary: 'Status, progress and (when done) the result of an analysis job',
            tags: ['jobs'],
            params: JobParams,
            response: { 200: JobView, 404: ErrorBody },
          },
        },
        async (req) => view(await mustLoad(req)),
      );

      app.get(
        '/api/v1/jobs/:id/events',
        {
          schema: {
            summary: 'Progress of an analysis job as server-sent events',
            description:
              'Events: status (the job as GET returns it, without result), progress {done, total, tool}, done (the final job, with result or error). The stream ends after done.',
            tags: ['jobs'],
            params: JobParams,
            response: { 404: ErrorBody },
          },
        },
        async (req, reply) => {
          const first = await mustLoad(req);
          const tenant = tenantOf(req);
          const ch = openSse(req, reply);
          let finished = false;
          let last = '';
          const check = async () => {
            if (finished || ch.closed) return;
            const r = await load(first.job_id, tenant);
            if (!r) return;
            const v = await view(r);
            if (v.status === 'completed' || v.status === 'failed') {
              finished = true;
              ch.send('done', v);
              stop();
              return;
            }
            const { result: _r, ...rest } = v;
            const key = JSON.stringify(rest);
            if (key !== last) {
              last = key;
              ch.send('status', rest);
            }
          };
          const unsubscribe = queue.subscribe(first.job_id, (e) => {
            if (e.type === 'progress') ch.send('progress', e.progress);
            else void check().catch((err) => report(err, 'job event'));
          });
          // Events carry the news; the poll is the safety net (a missed event, a worker restart).
          const poll = setInterval(() => void check().catch((err) => report(err, 'job poll')), 1000);
          const stop = () => {
            clearInterval(poll);
            unsubscribe();
            ch.end();
          };
          ch.signal.addEventListener('abort', stop, { once: true });
          await check();
          return reply;
        },
      );
    });

    ctx.onStart(() => {
      if (consumes) queue.consume(run);
      ctx.log.info({ queue: queue.kind, consumes, role: settings.role }, 'analysis jobs ready');
    });
    ctx.onClose(() => queue.close());
  },
});
