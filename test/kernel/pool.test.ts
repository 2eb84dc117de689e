import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TinyWorkerPool, TaskTimeoutError, TaskAbortedError } from '../../kernel/pool.ts';

const tasks = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'pool', 'tasks.ts');
const pool = new TinyWorkerPool({ maxThreads: 2 });
after(() => pool.close());

test('runs a TypeScript task in a worker thread', async () => {
  const r = await pool.run<{ sum: number; threadId: number }>(tasks, 'add', { x: 2, y: 3 });
  assert.equal(r.sum, 5);
  assert.notEqual(r.threadId, 0);
});

test('a runaway task is killed with its worker at the deadline, and the pool keeps working', async () => {
  const t0 = Date.now();
  await assert.rejects(pool.run(tasks, 'spin', null, { timeoutMs: 300 }), TaskTimeoutError);
  assert.ok(Date.now() - t0 < 3000, 'cancelled promptly');
  const r = await pool.run<{ sum: number }>(tasks, 'add', { x: 1, y: 1 });
  assert.equal(r.sum, 2);
});

test("a request's abort signal cancels its running task", async () => {
  const ac = new AbortController();
  const p = pool.run(tasks, 'spin', null, { signal: ac.signal });
  setTimeout(() => ac.abort(), 100);
  await assert.rejects(p, TaskAbortedError);
  assert.equal((await pool.run<{ sum: number }>(tasks, 'add', { x: 4, y: 4 })).sum, 8);
});

test('an already-passed deadline or aborted signal never starts the task', async () => {
  await assert.rejects(pool.run(tasks, 'add', { x: 1, y: 1 }, { deadline: Date.now() - 1 }), TaskTimeoutError);
  const ac = new AbortController();
  ac.abort();
  await assert.rejects(pool.run(tasks, 'add', { x: 1, y: 1 }, { signal: ac.signal }), TaskAbortedError);
});

test('a task error reaches the caller with its message', async () => {
  await assert.rejects(pool.run(tasks, 'fail', null), /task failed on purpose/);
  await assert.rejects(pool.run(tasks, 'nope', null), /no exported function nope/);
});
