// Worker scaling: `npm run bench:scale`. Full-mode audits of SmartBugs contracts as analysis
// jobs, run by 1 and then 2 worker processes (`vigil serve --role worker`), enqueued through
// an API replica (`--role api`) over BullMQ on Redis, results in PostgreSQL. Prints audits per
// minute for each and the speed-up. Each run has its own Redis prefix and database schema.
//
// BENCH_JOBS contracts per run (default 6), BENCH_TIMEOUT_S budget per audit (default 120).
// BENCH_PIN (default 1 where `taskset` exists and there are ≥ 2 cores): worker i runs on core i
// alone, as a worker on a machine of its own would; its pool then has one thread, because
// os.availableParallelism() follows the affinity mask. Without pinning, one worker's pool
// already fills every core and a second worker on the same cores can only compete with it.
// Needs Redis (VIGIL_REDIS_URL, default redis://127.0.0.1:6379) and PostgreSQL
// (VIGIL_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { PostgresStore } from '../kernel/store/postgres.ts';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const JOBS = Number(process.env.BENCH_JOBS ?? 6);
const TIMEOUT_S = Number(process.env.BENCH_TIMEOUT_S ?? 120);
const REDIS = process.env.VIGIL_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PG = process.env.VIGIL_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DATASET = path.resolve(ROOT, '../shared/datasets/smartbugs-curated/dataset');
const CORES = os.availableParallelism();
const PIN = (process.env.BENCH_PIN ?? '1') !== '0' && CORES >= 2 && spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0;

function contracts(): Array<{ file: string; source: string }> {
  if (!fs.existsSync(DATASET)) throw new Error(`SmartBugs curated dataset not found at ${DATASET}`);
  const all: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.sol')) all.push(p);
    }
  };
  walk(DATASET);
  all.sort();
  // Spread over the categories: every k-th file, so a run is not one vulnerability class.
  const step = Math.max(1, Math.floor(all.length / JOBS));
  return all
    .filter((_, i) => i % step === 0)
    .slice(0, JOBS)
    .map((f) => ({ file: path.relative(DATASET, f), source: fs.readFileSync(f, 'utf8') }));
}

function start(role: string, env: NodeJS.ProcessEnv, core?: number): Promise<{ child: ChildProcess; api: string }> {
  const argv = [path.join(ROOT, 'bin/vigil.js'), 'serve', '--role', role, '--bind', '127.0.0.1:0', '--api-bind', '127.0.0.1:0'];
  const child =
    core === undefined
      ? spawn(process.execPath, argv, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] })
      : spawn('taskset', ['-c', String(core), process.execPath, ...argv], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      const lines = buf.split('\n');
      buf = lines.pop()!;
      for (const l of lines) {
        try {
          const j = JSON.parse(l);
          if (j.role && 'api' in j) resolve({ child, api: j.api });
        } catch {
          /* not JSON */
        }
      }
    });
    child.on('exit', (c) => reject(new Error(`${role} exited with ${c} before listening`)));
  });
}

async function runWith(workers: number, list: Array<{ file: string; source: string }>) {
  const prefix = `vigilbench:${randomBytes(4).toString('hex')}:`;
  const schema = `vb_${randomBytes(4).toString('hex')}`;
  const u = new URL(PG);
  u.searchParams.set('schema', schema);
  const dbUrl = u.toString();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-bench-scale-'));
  const config = path.join(tmp, 'vigil.config.json');
  fs.writeFileSync(
    config,
    JSON.stringify({ plugins: { 'analysis-engine': { self_test_on_start: false }, 'analysis-jobs': { concurrency: 1 } } }),
  );
  const env = (name: string): NodeJS.ProcessEnv => ({
    ...process.env,
    VIGIL_DATABASE_URL: dbUrl,
    VIGIL_REDIS_URL: REDIS,
    VIGIL_REDIS_PREFIX: prefix,
    VIGIL_CONFIG: config,
    VIGIL_DATA_DIR: path.join(tmp, name),
    VIGIL_LOG_LEVEL: 'warn',
  });
  const store = await PostgresStore.connect({ url: dbUrl });
  const procs: ChildProcess[] = [];
  try {
    const started = await Promise.all([
      start('api', { ...env('api'), VIGIL_LOG_LEVEL: 'info' }),
      ...Array.from({ length: workers }, (_, i) =>
        start('worker', { ...env(`w${i}`), VIGIL_LOG_LEVEL: 'info' }, PIN ? i % CORES : undefined),
      ),
    ]);
    procs.push(...started.map((s) => s.child));
    const api = started[0].api;
    // Warm-up: one quick job per worker (compilers loaded, pools started), not timed.
    const warm = await Promise.all(Array.from({ length: workers }, () => submit(api, list[0].source, 'quick')));
    await Promise.all(warm.map((id) => settle(store, id)));
    const t0 = Date.now();
    const ids = [];
    for (const c of list) ids.push(await submit(api, c.source, 'full'));
    const results = await Promise.all(ids.map((id) => settle(store, id)));
    const secs = (Date.now() - t0) / 1000;
    const failed = results.filter((r) => r.status !== 'completed').length;
    const perJob = results.map((r) => Date.parse(r.finished_at) - Date.parse(r.started_at));
    return {
      workers,
      jobs: list.length,
      failed,
      secs: +secs.toFixed(1),
      audits_per_min: +((list.length / secs) * 60).toFixed(2),
      median_job_s: +(perJob.sort((a, b) => a - b)[Math.floor(perJob.length / 2)] / 1000).toFixed(1),
    };
  } finally {
    for (const p of procs) p.kill('SIGTERM');
    await Promise.all(procs.map((p) => (p.exitCode !== null ? Promise.resolve() : new Promise((r) => p.once('exit', r)))));
    await store.dropSchema().catch(() => undefined);
    await store.close();
    const r = new Redis(REDIS);
    const keys = await r.keys(`${prefix}*`);
    if (keys.length) await r.del(...keys);
    r.disconnect();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

async function submit(api: string, source: string, mode: string): Promise<string> {
  const r = await fetch(`${api}/api/v1/jobs/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ contract_code: source, mode, timeout: TIMEOUT_S }),
  });
  if (r.status !== 202) throw new Error(`enqueue failed: ${r.status} ${await r.text()}`);
  return ((await r.json()) as { job_id: string }).job_id;
}

async function settle(store: PostgresStore, id: string): Promise<any> {
  for (;;) {
    const rec = (await store.getRecord('analysis.jobs', id, null)) as any;
    if (rec?.status === 'completed' || rec?.status === 'failed') return rec;
    await new Promise((r) => setTimeout(r, 200));
  }
}

const list = contracts();
const rows = [await runWith(1, list), await runWith(2, list)];
console.log(
  `node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(
      ' ',
    )}, ${list.length} SmartBugs contracts, full mode, ${PIN ? 'worker i pinned to core i (one pool thread each)' : 'workers unpinned'}`,
);
console.table(rows);
console.log(`speed-up with 2 workers: ${(rows[1].audits_per_min / rows[0].audits_per_min).toFixed(2)}x`);
