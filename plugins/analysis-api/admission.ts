// Admission control for analyses requested from outside (the `analysis-admission` service; the
// contract and what the limits mean are in lib/analysis/admission.ts): one gate per kernel, which
// the REST API and MCP share.
import os from 'node:os';
import { HttpError } from '../../kernel/index.ts';
import type { AdmissionLimits, AnalysisGate } from '../../lib/analysis/admission.ts';

interface Waiter {
  client: string;
  resolve: (release: () => void) => void;
  reject: (e: Error) => void;
  cleanup: () => void;
}

export class AnalysisAdmission implements AnalysisGate {
  private running = 0;
  private readonly queue: Waiter[] = [];
  private readonly held = new Map<string, number>();
  /** Moving average of recent analysis durations, for Retry-After. */
  private avgMs = 10_000;
  refused = 0;

  constructor(readonly limits: AdmissionLimits) {}

  stats() {
    return { running: this.running, queued: this.queue.length, refused: this.refused, ...this.limits };
  }

  private retryAfter(extraRounds: number): number {
    return Math.max(1, Math.min(300, Math.ceil((this.avgMs * (1 + extraRounds)) / 1000)));
  }

  private busy(message: string, reason: string, rounds: number): HttpError {
    this.refused++;
    const secs = this.retryAfter(rounds);
    return new HttpError(
      429,
      'analysis_busy',
      `${message}; retry in ${secs} s`,
      { reason, retry_after_seconds: secs, running: this.running, queued: this.queue.length, limits: this.limits },
      { 'retry-after': String(secs) },
    );
  }

  /**
   * Waits for a slot and returns its release function (call it exactly once, when the work is
   * over). Throws HttpError 429 analysis_busy when the client or the queue is full, or when no
   * slot came free within `waitMs`.
   */
  acquire(client: string, opts: { signal?: AbortSignal; waitMs?: number } = {}): Promise<() => void> {
    const mine = this.held.get(client) ?? 0;
    if (mine >= this.limits.per_client) {
      return Promise.reject(
        this.busy(
          `this client already has ${mine} ${mine === 1 ? 'analysis' : 'analyses'} running or waiting, the most one client may have`,
          'per_client_limit',
          Math.floor(mine / Math.max(1, this.limits.max_running)),
        ),
      );
    }
    if (this.running < this.limits.max_running && this.queue.length === 0) return Promise.resolve(this.grant(client));
    if (this.queue.length >= this.limits.max_queued) {
      return Promise.reject(
        this.busy(
          `the analysis queue is full (${this.running} running, ${this.queue.length} waiting)`,
          'queue_full',
          Math.ceil(this.queue.length / Math.max(1, this.limits.max_running)),
        ),
      );
    }
    if (opts.signal?.aborted) return Promise.reject(new Error('request aborted'));
    this.held.set(client, mine + 1);
    return new Promise((resolve, reject) => {
      const started = Date.now();
      let timer: NodeJS.Timeout | undefined;
      const onAbort = () => leave(new Error('request aborted while waiting for an analysis slot'));
      const w: Waiter = {
        client,
        resolve,
        reject,
        cleanup: () => {
          if (timer) clearTimeout(timer);
          opts.signal?.removeEventListener('abort', onAbort);
        },
      };
      const leave = (e: Error) => {
        const i = this.queue.indexOf(w);
        if (i < 0) return;
        this.queue.splice(i, 1);
        w.cleanup();
        this.drop(client);
        reject(e);
      };
      if (opts.waitMs !== undefined) {
        // Not unref'd: the wait is bounded and cleared when the waiter leaves, and a waiter whose
        // limit never fired would leave its caller pending forever.
        timer = setTimeout(
          () =>
            leave(
              this.busy(
                `no analysis slot came free within ${Math.round((Date.now() - started) / 1000)} s`,
                'wait_timeout',
                this.queue.length,
              ),
            ),
          opts.waitMs,
        );
      }
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(w);
    });
  }

  private grant(client: string, counted = false): () => void {
    this.running++;
    if (!counted) this.held.set(client, (this.held.get(client) ?? 0) + 1);
    const started = Date.now();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.avgMs = this.avgMs * 0.7 + (Date.now() - started) * 0.3;
      this.running--;
      this.drop(client);
      this.next();
    };
  }

  private drop(client: string) {
    const n = (this.held.get(client) ?? 1) - 1;
    if (n <= 0) this.held.delete(client);
    else this.held.set(client, n);
  }

  private next() {
    while (this.running < this.limits.max_running && this.queue.length) {
      const w = this.queue.shift()!;
      w.cleanup();
      w.resolve(this.grant(w.client, true));
    }
  }
}

const positive = (v: unknown, name: string, dflt: number): number => {
  if (v === undefined || v === null) return dflt;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1)
    throw new Error(`analysis_admission.${name} must be a positive integer, got ${JSON.stringify(v)}`);
  return v;
};

/** The limits from the config file's `analysis_admission` section, with defaults sized to the pool. */
export function admissionLimits(file: Record<string, any>): AdmissionLimits {
  const threads = Math.max(1, Math.min(4, os.availableParallelism?.() ?? os.cpus().length));
  const c = (file.analysis_admission ?? {}) as Record<string, unknown>;
  if (typeof c !== 'object' || Array.isArray(c)) throw new Error('analysis_admission must be an object');
  return {
    max_running: positive(c.max_running, 'max_running', Math.max(1, threads - 1)),
    max_queued: positive(c.max_queued, 'max_queued', 16),
    per_client: positive(c.per_client, 'per_client', 3),
  };
}
