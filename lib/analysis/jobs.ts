// The `analysis-jobs` service (plugin analysis-jobs), typed for the plugins that call it: the
// analysis API sends its synchronous analyses through the queue when this process is an API
// replica of a shared deployment (`--role api` with Redis), so workers do the CPU work.
import type { AnalysisResult, AuditType } from '../../kernel/index.ts';

export interface RemoteAnalysis {
  tenant: string | null;
  mode: AuditType;
  layer?: number;
  tool?: string;
  source: string;
  file: string;
  /** The request's whole budget in seconds (queue wait included). */
  timeoutS: number;
  /** Apply the source's suppression comments (AnalyzeOptions.suppress). */
  suppress?: boolean;
}

export interface AnalysisJobs {
  queue: { kind: 'memory' | 'bullmq'; depth(): Promise<{ waiting: number; active: number }> };
  /** Whether this process runs jobs itself (embedded queue, or role all/worker). */
  consumes: boolean;
  /** True on an API replica of a shared deployment: analyses belong on the workers. */
  remote: boolean;
  /**
   * Queues one analysis and waits for a worker's result. Throws HttpError 503 queue_full (with
   * Retry-After) when the queue is full, 429 analysis_busy when no worker started it before the
   * deadline (the job is withdrawn), 504 timeout when a started run did not answer in time, 500
   * analysis_failed when the worker's run failed; an aborted signal withdraws a job that has not
   * started.
   */
  runAndWait(a: RemoteAnalysis, o: { signal: AbortSignal; deadline: number }): Promise<{ jobId: string; result: AnalysisResult }>;
}

declare module '../../kernel/plugin-api.ts' {
  interface Services {
    /** analysis-jobs: the analysis job queue (embedded or BullMQ). */
    'analysis-jobs': AnalysisJobs;
  }
}
