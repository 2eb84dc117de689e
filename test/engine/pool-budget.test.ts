// A task's budget (budgetMs) is the time it runs, not the time it waits in the queue: the
// SMTChecker's per-contract solver budget must not be spent queued behind other tools.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TinyWorkerPool } from '../../kernel/pool.ts';

const tasks = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'pool', 'tasks.ts');
const pool = new TinyWorkerPool({ maxThreads: 1 });
after(() => pool.close());

test('budgetMs counts from when a worker starts the task; a runaway task is still stopped at its budget', async () => {
  await pool.run(tasks, 'add', { x: 1, y: 1 }); // a warm worker
  const busy = pool.run(tasks, 'sleepBusy', { ms: 1500 });
  // Queued behind 1.5 s of work on the only thread, with a 1 s budget of its own: it must run.
  const queued = pool.run<{ sum: number }>(tasks, 'add', { x: 2, y: 3 }, { budgetMs: 1000 });
  assert.equal((await queued).sum, 5);
  await busy;
  await assert.rejects(
    pool.run(tasks, 'spin', {}, { budgetMs: 300 }),
    (e: Error & { code?: string }) => e.code === 'task_timeout' && /300 ms budget of (CPU|wall) time/.test(e.message),
  );
});

test('budgetFromTask: the budget starts when the task says its budgeted work begins (after a cold load), not at dispatch', async () => {
  // 900 ms of set-up then 200 ms of work, with a 600 ms budget: only the work counts.
  const r = await pool.run<{ calledStarted: boolean }>(
    tasks,
    'setupThenWork',
    { setupMs: 900, workMs: 200 },
    { budgetMs: 600, budgetFromTask: true },
  );
  assert.equal(r.calledStarted, true);
  // Without it the set-up counts, and the same task is over its budget.
  await assert.rejects(
    pool.run(tasks, 'setupThenWork', { setupMs: 900, workMs: 200 }, { budgetMs: 600 }),
    (e: Error & { code?: string }) => e.code === 'task_timeout',
  );
  // Work past the budget after started() is still stopped.
  await assert.rejects(
    pool.run(tasks, 'setupThenWork', { setupMs: 10, workMs: 1500 }, { budgetMs: 300, budgetFromTask: true }),
    (e: Error & { code?: string }) => e.code === 'task_timeout',
  );
});

test('on Linux the budget is CPU time: a task blocked longer than its budget is not stopped, one computing is', async () => {
  if (process.platform !== 'linux') return;
  // 600 ms blocked (no CPU) with a 200 ms budget: a wall-clock budget would have killed it.
  assert.equal(await pool.run(tasks, 'sleepIdle', { ms: 600 }, { budgetMs: 200, deadline: Date.now() + 30_000 }), true);
  await assert.rejects(
    pool.run(tasks, 'spin', {}, { budgetMs: 200, deadline: Date.now() + 30_000 }),
    (e: Error & { code?: string }) => e.code === 'task_timeout' && /200 ms budget of CPU time/.test(e.message),
  );
});
