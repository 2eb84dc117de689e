// The job queue behind /api/v1/jobs: one interface, two transports. Embedded (no Redis): an
// in-process FIFO run by this process's engine. Shared (VIGIL_REDIS_URL): BullMQ, so API
// replicas enqueue and any number of worker processes consume (bullmq.ts). Both are bounded:
// a full queue refuses new jobs (the route answers 503 with Retry-After) instead of growing.
import { EventEmitter } from 'node:events';

export interface JobProgress {
  done: number;
  total: number;
  tool: string | null;
}

/** What travels with a job: everything a worker on another machine needs, nothing local. */
export interface JobData {
  job_id: string;
  tenant: string | null;
  mode: 'quick' | 'full' | 'layer' | 'tool';
  layer?: number;
  tool?: string;
  source: string;
  file: string;
  timeout: number;
  /** Epoch ms by which a synchronous caller stops waiting: a worker starting later skips it,
   *  one starting earlier runs with what is left. Absent for jobs submitted to /api/v1/jobs/. */
  deadline?: number;
  /** W3C trace context of the enqueueing request (traceparent/tracestate). */
  trace: Record<string, string>;
  /** Apply the source's suppression comments (set by the synchronous REST analysis). */
  suppress?: boolean;
}

export type JobEvent = { type: 'active' | 'completed' | 'failed' | 'retrying' } | { type: 'progress'; progress: JobProgress };

export interface JobControl {
  /** 1 for the first run, 2 after a retry (a failure, or a worker that died holding the job). */
  attempt: number;
  /** Whether this run is the job's last chance (a failure now is final). */
  final: boolean;
  progress(p: JobProgress): Promise<void>;
}

export type JobHandler = (d: JobData, ctl: JobControl) => Promise<void>;

export class QueueFullError extends Error {
  constructor(
    readonly waiting: number,
    readonly retryAfterS: number,
  ) {
    super(`the analysis queue is full (${waiting} jobs waiting)`);
  }
}

export interface JobQueue {
  readonly kind: 'memory' | 'bullmq';
  enqueue(d: JobData): Promise<void>;
  /** Latest progress of a job that is still queued or running (null if unknown here). */
  progress(id: string): Promise<JobProgress | null>;
  /** Whether the queue still holds the job (waiting, running or retrying). */
  holds(id: string): Promise<boolean>;
  /** Removes a job that no worker has started; false when it is running or gone. */
  withdraw(id: string): Promise<boolean>;
  /** Events of one job, from whichever process runs it. Returns the unsubscribe function. */
  subscribe(id: string, fn: (e: JobEvent) => void): () => void;
  /** Starts running jobs in this process. */
  consume(handler: JobHandler): void;
  depth(): Promise<{ waiting: number; active: number }>;
  close(): Promise<void>;
}

export interface QueueLimits {
  maxWaiting: number;
  attempts: number;
  concurrency: number;
}

/** The embedded queue: the same contract as BullMQ, inside this process. */
export function createMemoryQueue(limits: QueueLimits, onError: (e: unknown, what: string) => void): JobQueue {
  const waiting: JobData[] = [];
  const attempts = new Map<string, number>();
  const progress = new Map<string, JobProgress>();
  const running = new Set<string>();
  const events = new EventEmitter();
  events.setMaxListeners(0);
  let handler: JobHandler | null = null;
  let closed = false;
  const emit = (id: string, e: JobEvent) => events.emit(id, e);

  const pump = () => {
    while (handler && !closed && running.size < limits.concurrency && waiting.length) {
      const d = waiting.shift()!;
      const attempt = (attempts.get(d.job_id) ?? 0) + 1;
      attempts.set(d.job_id, attempt);
      running.add(d.job_id);
      emit(d.job_id, { type: 'active' });
      const ctl: JobControl = {
        attempt,
        final: attempt >= limits.attempts,
        async progress(p) {
          progress.set(d.job_id, p);
          emit(d.job_id, { type: 'progress', progress: p });
        },
      };
      void handler(d, ctl).then(
        () => {
          running.delete(d.job_id);
          attempts.delete(d.job_id);
          progress.delete(d.job_id);
          emit(d.job_id, { type: 'completed' });
          pump();
        },
        (e) => {
          running.delete(d.job_id);
          if (!ctl.final && !closed) {
            waiting.push(d);
            emit(d.job_id, { type: 'retrying' });
          } else {
            attempts.delete(d.job_id);
            progress.delete(d.job_id);
            onError(e, `analysis job ${d.job_id}`);
            emit(d.job_id, { type: 'failed' });
          }
          pump();
        },
      );
    }
  };

  return {
    kind: 'memory',
    async enqueue(d) {
      if (closed) throw new Error('the analysis queue is shutting down');
      if (waiting.length >= limits.maxWaiting) throw new QueueFullError(waiting.length, 5);
      waiting.push(d);
      queueMicrotask(pump);
    },
    async progress(id) {
      return progress.get(id) ?? null;
    },
    async holds(id) {
      return running.has(id) || waiting.some((w) => w.job_id === id);
    },
    async withdraw(id) {
      const i = waiting.findIndex((w) => w.job_id === id);
      if (i < 0 || running.has(id)) return false;
      waiting.splice(i, 1);
      attempts.delete(id);
      return true;
    },
    subscribe(id, fn) {
      events.on(id, fn);
      return () => void events.off(id, fn);
    },
    consume(h) {
      handler = h;
      pump();
    },
    async depth() {
      return { waiting: waiting.length, active: running.size };
    },
    async close() {
      closed = true;
      waiting.length = 0;
      events.removeAllListeners();
    },
  };
}
