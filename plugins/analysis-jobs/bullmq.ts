// The shared job queue on BullMQ (Redis): API replicas add jobs, worker processes on any machine
// take them. A worker that dies holding a job stops renewing its lock; another worker's stall
// check puts the job back in the queue, where it runs again (the result is stored idempotently
// by the handler, so a job that ran twice is still stored and audited once).
import { Queue, QueueEvents, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import {
  QueueFullError,
  type JobData,
  type JobEvent,
  type JobHandler,
  type JobProgress,
  type JobQueue,
  type QueueLimits,
} from './queue.ts';

export interface BullOptions extends QueueLimits {
  url: string;
  /** Redis key prefix (VIGIL_REDIS_PREFIX), e.g. "vigil:". */
  prefix: string;
  queueName: string;
  /** How long a worker's claim on a job lasts without renewal; a dead worker's job returns after it. */
  lockMs: number;
}

export function createBullQueue(o: BullOptions, onError: (e: unknown, what: string) => void): JobQueue {
  // BullMQ's blocking commands need connections that retry forever instead of failing a request.
  const conn = () => {
    const r = new Redis(o.url, { maxRetriesPerRequest: null, connectTimeout: 2000 });
    r.on('error', (e) => onError(e, 'job queue Redis connection'));
    return r;
  };
  const connections: Redis[] = [];
  const own = (r: Redis) => (connections.push(r), r);
  const prefix = `${o.prefix}bull`;
  const queue = new Queue<JobData>(o.queueName, { connection: own(conn()), prefix });
  queue.on('error', (e) => onError(e, 'job queue'));
  let events: QueueEvents | null = null;
  const listeners = new Map<string, Set<(e: JobEvent) => void>>();
  const fire = (id: string, e: JobEvent) => {
    for (const fn of listeners.get(id) ?? []) fn(e);
  };
  // One event stream reader per process, opened when someone first subscribes.
  const ensureEvents = () => {
    if (events) return;
    events = new QueueEvents(o.queueName, { connection: own(conn()), prefix });
    events.on('error', (e) => onError(e, 'job queue events'));
    events.on('active', ({ jobId }) => fire(jobId, { type: 'active' }));
    events.on('progress', ({ jobId, data }) => fire(jobId, { type: 'progress', progress: data as unknown as JobProgress }));
    events.on('completed', ({ jobId }) => fire(jobId, { type: 'completed' }));
    events.on('failed', ({ jobId }) => fire(jobId, { type: 'failed' }));
    events.on('stalled', ({ jobId }) => fire(jobId, { type: 'retrying' }));
  };
  let worker: Worker<JobData> | null = null;

  return {
    kind: 'bullmq',
    async enqueue(d) {
      const counts = await queue.getJobCounts('wait', 'prioritized', 'delayed');
      const waiting = (counts.wait ?? 0) + (counts.prioritized ?? 0) + (counts.delayed ?? 0);
      if (waiting >= o.maxWaiting) throw new QueueFullError(waiting, 10);
      await queue.add('analyze', d, {
        jobId: d.job_id,
        attempts: o.attempts,
        backoff: { type: 'exponential', delay: 1000 },
        removeOnComplete: { age: 3600, count: 10_000 },
        removeOnFail: { age: 24 * 3600 },
      });
    },
    async progress(id) {
      const job = await queue.getJob(id);
      const p = job?.progress;
      return p && typeof p === 'object' ? (p as unknown as JobProgress) : null;
    },
    async holds(id) {
      const state = await queue.getJobState(id);
      return state === 'waiting' || state === 'active' || state === 'delayed' || state === 'prioritized' || state === 'waiting-children';
    },
    async withdraw(id) {
      // Job.remove refuses a job whose lock a worker holds, which is exactly "already started".
      const job = await queue.getJob(id);
      if (!job) return false;
      const state = await job.getState();
      if (state === 'active' || state === 'completed' || state === 'failed') return false;
      return job.remove().then(
        () => true,
        () => false,
      );
    },
    subscribe(id, fn) {
      ensureEvents();
      const set = listeners.get(id) ?? new Set();
      listeners.set(id, set);
      set.add(fn);
      return () => {
        set.delete(fn);
        if (set.size === 0) listeners.delete(id);
      };
    },
    consume(handler: JobHandler) {
      if (worker) return;
      worker = new Worker<JobData>(
        o.queueName,
        async (job: Job<JobData>) => {
          const attempt = Math.max(1, job.attemptsStarted ?? job.attemptsMade + 1);
          await handler(job.data, {
            attempt,
            final: job.attemptsMade + 1 >= o.attempts,
            progress: (p) => job.updateProgress(p),
          });
          return { stored: true };
        },
        {
          connection: own(conn()),
          prefix,
          concurrency: o.concurrency,
          lockDuration: o.lockMs,
          stalledInterval: Math.max(1000, Math.floor(o.lockMs / 2)),
          maxStalledCount: 2,
        },
      );
      worker.on('error', (e) => onError(e, 'job worker'));
      worker.on('failed', (job, e) => {
        if (job && job.attemptsMade >= o.attempts) onError(e, `analysis job ${job.id}`);
      });
    },
    async depth() {
      const c = await queue.getJobCounts('wait', 'prioritized', 'delayed', 'active');
      return { waiting: (c.wait ?? 0) + (c.prioritized ?? 0) + (c.delayed ?? 0), active: c.active ?? 0 };
    },
    async close() {
      // A graceful stop lets running jobs finish, up to a limit; a job cut off after that keeps
      // its lock until it expires and then runs again on another worker (stored once anyway).
      // With Redis unreachable BullMQ's close would wait for it forever: every step is bounded.
      const bounded = (p: Promise<unknown> | undefined, ms: number) => {
        let t: NodeJS.Timeout | undefined;
        return Promise.race([Promise.resolve(p).catch(() => undefined), new Promise((r) => (t = setTimeout(r, ms)))]).finally(() =>
          clearTimeout(t),
        );
      };
      const grace = Number(process.env.VIGIL_JOBS_SHUTDOWN_GRACE_MS) || 10_000;
      // Not even connected (Redis down): nothing to let finish.
      const connected = connections.some((r) => r.status === 'ready');
      await bounded(worker?.close(!connected), connected ? grace : 1000);
      await bounded(events?.close(), 2000);
      await bounded(queue.close(), 2000);
      // BullMQ duplicates connections internally (the worker's blocking one): cut them all.
      await Promise.all([worker?.disconnect(), events?.disconnect(), queue.disconnect()].map((p) => bounded(p, 1000)));
      for (const r of connections) r.disconnect();
    },
  };
}
