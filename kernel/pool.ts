// Tinypool worker pool for CPU-heavy work (compiling, analysing). A task names a module and an
// exported function; the worker imports it (cached) and calls it. A deadline or an aborted
// request cancels the task: a task still running is killed together with its worker thread,
// so a runaway analysis never keeps burning a core.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
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
  /** Most time the task may run once a worker has started it: waiting in the queue behind other
   *  tasks does not count (a solver's budget is solver time). Counted in CPU time of the worker's
   *  thread where the OS reports it (Linux), so a busy machine does not shrink the work a budget
   *  buys; wall time elsewhere. The deadline (wall time) still applies. */
  budgetMs?: number;
  /** The task calls its second argument's `started()` when budgeted work begins (it may first
   *  load what a cold worker lacks); without it the budget runs from when the worker starts it. */
  budgetFromTask?: boolean;
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
    // The worker says when it starts the task; the budget runs from then.
    let channel: MessageChannel | null = null;
    let budgetTimer: NodeJS.Timeout | undefined;
    let budgetClock = 'wall';
    let settled = false;
    if (opts.budgetMs !== undefined) {
      channel = new MessageChannel();
      channel.port1.unref();
      channel.port1.once('message', (msg: { cpu?: { file: string; ns: number } | null }) => {
        if (settled) return; // the start message came after the result: nothing left to time
        const budget = Math.max(0, opts.budgetMs!);
        const over = () => {
          timedOut = true;
          ctrl.abort();
        };
        const cpu = msg?.cpu;
        if (!cpu) {
          budgetTimer = setTimeout(over, budget);
          return;
        }
        budgetClock = 'CPU';
        // The worker's thread is busy running the task: read its CPU clock from here, often
        // enough that a runaway task overshoots its budget by at most one poll.
        const poll = Math.min(100, Math.max(10, budget / 10));
        budgetTimer = setInterval(() => {
          let ns: number;
          try {
            ns = Number(readFileSync(cpu.file, 'utf8').split(' ')[0]);
          } catch {
            return; // the thread is gone: the task is ending
          }
          if ((ns - cpu.ns) / 1e6 >= budget) over();
        }, poll);
      });
    }
    try {
      const task = {
        module: path.resolve(modulePath),
        fn,
        args,
        ...(channel ? { started: channel.port2, ...(opts.budgetFromTask ? { startedByTask: true } : {}) } : {}),
      };
      const result = await this.pool.run(task, { signal: ctrl.signal, ...(channel ? { transferList: [channel.port2] } : {}) });
      this.completed++;
      return result as T;
    } catch (e) {
      if (timedOut)
        throw new TaskTimeoutError(
          `task ${path.basename(modulePath)}#${fn} exceeded ${opts.budgetMs !== undefined ? `its ${opts.budgetMs} ms budget of ${budgetClock} time (or ${timeoutMs} ms overall)` : `${timeoutMs} ms`} and its worker was terminated`,
        );
      if (ctrl.signal.aborted) throw new TaskAbortedError(`task ${path.basename(modulePath)}#${fn} was cancelled`);
      throw e;
    } finally {
      settled = true;
      if (timer) clearTimeout(timer);
      if (budgetTimer) clearInterval(budgetTimer);
      channel?.port1.close();
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
