// Tinypool worker pool for CPU-heavy work (compiling, analysing). A task names a module and an
// exported function; the worker imports it (cached) and calls it. A deadline or an aborted
// request cancels the task: a task still running is killed together with its worker thread,
// so a runaway analysis never keeps burning a core.
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Tinypool from 'tinypool';

const here = path.dirname(fileURLToPath(import.meta.url));

export class TaskTimeoutError extends Error {
  code = 'task_timeout';
}
export class TaskAbortedError extends Error {
  code = 'task_aborted';
}

export interface RunOptions {
  signal?: AbortSignal;
  /** Epoch ms after which the task is cancelled. */
  deadline?: number;
  timeoutMs?: number;
}

export interface WorkerPool {
  run<T = unknown>(modulePath: string, fn: string, args: unknown, opts?: RunOptions): Promise<T>;
  stats(): { threads: number; queued: number; completed: number };
  close(): Promise<void>;
}

export class TinyWorkerPool implements WorkerPool {
  private pool: Tinypool;
  private completed = 0;

  constructor(opts: { maxThreads?: number; minThreads?: number; idleTimeout?: number } = {}) {
    const max = opts.maxThreads ?? Math.max(1, Math.min(4, os.availableParallelism?.() ?? os.cpus().length));
    this.pool = new Tinypool({
      filename: path.join(here, 'pool-worker.js'),
      minThreads: opts.minThreads ?? 0,
      maxThreads: max,
      idleTimeout: opts.idleTimeout ?? 60_000,
    });
  }

  async run<T>(modulePath: string, fn: string, args: unknown, opts: RunOptions = {}): Promise<T> {
    const ctrl = new AbortController();
    const timeoutMs = opts.timeoutMs ?? (opts.deadline ? opts.deadline - Date.now() : undefined);
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    if (timeoutMs !== undefined) {
      if (timeoutMs <= 0) throw new TaskTimeoutError('deadline already passed');
      timer = setTimeout(() => {
        timedOut = true;
        ctrl.abort();
      }, timeoutMs);
    }
    const onAbort = () => ctrl.abort();
    if (opts.signal) {
      if (opts.signal.aborted) throw new TaskAbortedError('request aborted');
      opts.signal.addEventListener('abort', onAbort, { once: true });
    }
    try {
      const result = await this.pool.run({ module: path.resolve(modulePath), fn, args }, { signal: ctrl.signal });
      this.completed++;
      return result as T;
    } catch (e) {
      if (timedOut) throw new TaskTimeoutError(`task ${path.basename(modulePath)}#${fn} exceeded ${timeoutMs} ms and its worker was terminated`);
      if (ctrl.signal.aborted) throw new TaskAbortedError(`task ${path.basename(modulePath)}#${fn} was cancelled`);
      throw e;
    } finally {
      if (timer) clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
    }
  }

  stats() {
    return { threads: this.pool.threads.length, queued: this.pool.queueSize, completed: this.completed };
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
