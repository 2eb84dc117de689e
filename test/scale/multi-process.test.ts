// The shared deployment on one machine, as separate processes: 2 gateway replicas, 2 API
// replicas and 2 workers on the local PostgreSQL and Redis. A tenant's rate limit holds across
// the gateways; an approval decided on one gateway resumes the stream waiting on the other; 20
// analysis jobs complete exactly once while a worker is SIGKILLed holding one; audit events of
// every replica land in one ordered log; one trace (checked through an OTLP/HTTP receiver in
// this process) spans the API request, the queue and the worker's analysis.tool spans.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { PostgresStore } from '../../kernel/store/postgres.ts';
import { TenantDirectory } from '../../plugins/gateway-tenancy/directory.ts';
import { createAuditLog } from '../../lib/gateway/governance/audit-log.ts';
import { postgresProblem, pgUrlWithSchema, uniqueSchema } from '../store/backends.ts';
import { REDIS_URL, dropPrefix, redisProblem, uniquePrefix } from './services.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const skip = (await redisProblem()) ?? (await postgresProblem());

interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
}

// --- an OTLP/HTTP (JSON) trace receiver --------------------------------------------------------
function otlpReceiver() {
  const spans: Span[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      try {
        const doc = JSON.parse(body);
        for (const rs of doc.resourceSpans ?? []) for (const ss of rs.scopeSpans ?? []) for (const s of ss.spans ?? []) spans.push(s);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  return { spans, server };
}

interface Proc {
  role: string;
  child: ChildProcess;
  gateway: string;
  api: string;
  log: string[];
}

function start(role: string, env: NodeJS.ProcessEnv): Promise<Proc> {
  const child = spawn(
    process.execPath,
    [path.join(ROOT, 'bin/vigil.js'), 'serve', '--role', role, '--bind', '127.0.0.1:0', '--api-bind', '127.0.0.1:0'],
    { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  spawned.push(child);
  const log: string[] = [];
  return new Promise((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new Error(`${role} did not start in time:\n${log.slice(-20).join('\n')}`)), 90_000);
    child.stderr.on('data', (d) => log.push(String(d)));
    child.stdout.on('data', (d) => {
      buf += d;
      const lines = buf.split('\n');
      buf = lines.pop()!;
      for (const l of lines) {
        log.push(l);
        if (log.length > 200) log.shift();
        try {
          const j = JSON.parse(l);
          if (j.role && 'gateway' in j && 'api' in j) {
            clearTimeout(timer);
            resolve({ role, child, gateway: j.gateway, api: j.api, log });
          }
        } catch {
          /* not JSON */
        }
      }
    });
    child.on('exit', (code, sig) => {
      clearTimeout(timer);
      reject(new Error(`${role} exited (${code ?? sig}) before listening:\n${log.slice(-20).join('\n')}`));
    });
  });
}

const procs: Proc[] = [];
// Every child, including one that failed to start in time: none may outlive the test run.
const spawned: ChildProcess[] = [];
const cleanups: Array<() => Promise<unknown>> = [];
after(async () => {
  const alive = spawned.filter((c) => c.exitCode === null && c.signalCode === null);
  for (const c of alive) c.kill('SIGTERM');
  const exited = Promise.all(alive.map((c) => new Promise((r) => c.once('exit', r))));
  // A replica that does not stop within the grace is killed outright.
  const hard = setTimeout(() => alive.forEach((c) => c.kill('SIGKILL')), 15_000);
  await exited;
  clearTimeout(hard);
  for (const c of cleanups) await c().catch(() => undefined);
});

const CONTRACT = `pragma solidity ^0.4.24;
contract Wallet {
    mapping(address => uint256) public balances;
    address public owner;
    function Wallet() public { owner = msg.sender; }
    function deposit() public payable { balances[msg.sender] += msg.value; }
    function withdraw(uint256 amount) public {
        require(tx.origin == owner);
        require(balances[msg.sender] >= amount);
        msg.sender.call.value(amount)();
        balances[msg.sender] -= amount;
    }
    function kill() public { selfdestruct(msg.sender); }
}
`;

test('2 gateways, 2 API replicas, 2 workers on PostgreSQL and Redis', { skip: skip ?? false, timeout: 240_000 }, async () => {
  const prefix = uniquePrefix();
  const dbUrl = pgUrlWithSchema(uniqueSchema('vmp'));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-mp-'));
  const otlp = otlpReceiver();
  await new Promise<void>((r) => otlp.server.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise((r) => otlp.server.close(r)));
  cleanups.push(() => dropPrefix(prefix));
  cleanups.push(() => fs.promises.rm(tmp, { recursive: true, force: true }));

  // The schema exists and is migrated before the replicas race to it (they would cope anyway).
  const store = await PostgresStore.connect({ url: dbUrl });
  cleanups.push(async () => (await store.dropSchema(), await store.close()));
  const dir = new TenantDirectory(store, [], createAuditLog(store));
  const key = (await dir.create({ name: 'acme', rateLimit: '4/min' })).api_key;
  const key2 = (await dir.create({ name: 'ops' })).api_key;
  // The key that caused an approval never decides it: the tenant's approver key does.
  const approver = (await dir.addKey('ops', { label: 'approver', permissions: ['approvals_decide'] })).api_key;
  // Once tenants exist the analysis API needs a key too: the CI tenant submits the jobs.
  const ciKey = (await dir.create({ name: 'ci', permissions: ['contract_analysis'] })).api_key;

  const config = path.join(tmp, 'vigil.config.json');
  fs.writeFileSync(
    config,
    JSON.stringify({
      approvals: { skills: ['crypto'], ttl_seconds: 120 },
      plugins: {
        // Only the Redis bus can bring a decision to the other gateway in time.
        'gateway-approvals': { poll_interval_ms: 60_000, sweep_interval_ms: 60_000 },
        'analysis-jobs': { lock_ms: 3000, concurrency: 1 },
        'analysis-engine': { self_test_on_start: false },
      },
    }),
  );
  const env = (role: string): NodeJS.ProcessEnv => ({
    ...process.env,
    VIGIL_DATABASE_URL: dbUrl,
    VIGIL_REDIS_URL: REDIS_URL,
    VIGIL_REDIS_PREFIX: prefix,
    VIGIL_CONFIG: config,
    VIGIL_DATA_DIR: path.join(tmp, role),
    VIGIL_CONTRACT_ROOTS: tmp,
    VIGIL_LOG_LEVEL: 'info',
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(otlp.server.address() as AddressInfo).port}`,
    VIGIL_OTEL_SIMPLE: '1',
    VIGIL_SHUTDOWN_GRACE_MS: '2000',
  });
  const t0 = Date.now();
  const phase = (name: string) => process.env.VIGIL_TEST_PHASES && console.error(`[${((Date.now() - t0) / 1000).toFixed(1)}s] ${name}`);
  const roles = ['gateway', 'gateway', 'api', 'api', 'worker', 'worker'];
  const started = await Promise.allSettled(roles.map((r, i) => start(r, env(`${r}-${i}`))));
  for (const s of started) if (s.status === 'fulfilled') procs.push(s.value);
  for (const s of started) if (s.status === 'rejected') throw s.reason;
  const [g1, g2, a1, a2, w1, w2] = procs as [Proc, Proc, Proc, Proc, Proc, Proc];
  phase('6 processes listening');
  assert.equal(g1.api, '', 'a gateway replica does not serve the analysis API');
  assert.equal(a1.gateway, '', 'an API replica does not serve the gateway');

  // --- rate limit across gateway replicas -------------------------------------------------------
  const codes: number[] = [];
  for (let i = 0; i < 6; i++) {
    const r = await fetch(`${(i % 2 ? g2 : g1).gateway}/api/v1/skills`, { headers: { authorization: `Bearer ${key}` } });
    codes.push(r.status);
    await r.arrayBuffer();
  }
  assert.deepEqual(codes, [200, 200, 200, 200, 429, 429]);

  phase('rate limit');
  // --- approval decided on G2 resumes the stream on G1 ------------------------------------------
  const streamed = (async () => {
    const r = await fetch(`${g1.gateway}/api/v1/chat/stream`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key2}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: '/skill crypto {"op":"keccak256","data":"hello"}' }),
    });
    assert.equal(r.status, 200);
    return r.text();
  })();
  let pending: { id: string } | null = null;
  for (let i = 0; i < 300 && !pending; i++) {
    const r = await fetch(`${g2.gateway}/api/v1/approvals?status=pending`, { headers: { authorization: `Bearer ${key2}` } });
    pending = (await r.json()).approvals?.[0] ?? null;
    if (!pending) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(pending, 'the gated skill call is pending');
  const decided = await fetch(`${g2.gateway}/api/v1/approvals/${pending.id}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${approver}`, 'content-type': 'application/json' },
    body: JSON.stringify({ decision: 'approve', decided_by: 'bob' }),
  });
  assert.equal(decided.status, 200, await decided.clone().text());
  const sse = await streamed;
  assert.match(sse, /0x1c8aff95/, 'the skill ran on G1 after the decision on G2');
  assert.match(sse, /event: done/);
  assert.doesNotMatch(sse, /resumed elsewhere/);

  phase('approval');
  // --- a synchronous analysis on an API replica runs on a worker ---------------------------------
  const quick = await fetch(`${a2.api}/api/v1/analyze/quick/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ciKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      contract_code: 'pragma solidity ^0.8.0; contract K { function k() public { selfdestruct(payable(msg.sender)); } }',
    }),
  });
  const quickBody = await quick.json();
  assert.equal(quick.status, 200, JSON.stringify(quickBody));
  assert.ok(
    quickBody.findings.some((f: { category: string }) => f.category === 'access_control'),
    'the synchronous answer carries the analysis',
  );
  const syncJob = quick.headers.get('x-vigil-job-id');
  assert.ok(syncJob, 'the API replica queued the analysis');
  const syncRec = (await store.getRecord('analysis.jobs', syncJob, 'ci')) as { worker: string; status: string };
  assert.equal(syncRec.status, 'completed');
  assert.ok(
    [w1.child.pid, w2.child.pid].some((pid) => syncRec.worker.startsWith(`${pid}-`)),
    `a worker process ran it (ran on ${syncRec.worker})`,
  );
  phase('synchronous analysis on a worker');
  // --- 20 jobs, one worker SIGKILLed holding a job ----------------------------------------------
  const ids: string[] = [];
  for (let i = 0; i < 20; i++) {
    const r = await fetch(`${(i % 2 ? a2 : a1).api}/api/v1/jobs/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ciKey}` },
      // A distinct contract per job (a comment), so no two jobs are the same work.
      body: JSON.stringify({ contract_code: `${CONTRACT}// job ${i}\n`, mode: 'quick' }),
    });
    assert.equal(r.status, 202, await r.clone().text());
    ids.push((await r.json()).job_id);
  }
  // Kill W1 while it holds a job: the job's record names the worker (pid-prefixed replica id).
  const w1pid = `${w1.child.pid}-`;
  let victim: string | null = null;
  for (let i = 0; i < 600 && !victim; i++) {
    for (const id of ids) {
      const rec = (await store.getRecord('analysis.jobs', id, 'ci')) as any;
      if (rec?.status === 'running' && String(rec.worker).startsWith(w1pid)) {
        victim = id;
        break;
      }
    }
    if (!victim) await new Promise((r) => setTimeout(r, 20));
  }
  assert.ok(victim, 'worker 1 picked up a job');
  w1.child.kill('SIGKILL');
  phase('worker 1 killed');

  const final: any[] = [];
  for (const [i, id] of ids.entries()) {
    const base = (i % 2 ? a1 : a2).api; // read back through the other API replica
    for (let n = 0; ; n++) {
      const j = await (await fetch(`${base}/api/v1/jobs/${id}/`, { headers: { authorization: `Bearer ${ciKey}` } })).json();
      if (j.status === 'completed' || j.status === 'failed') {
        final.push(j);
        break;
      }
      if (n > 1200) throw new Error(`job ${id} still ${j.status}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  phase('20 jobs settled');
  assert.deepEqual(
    final.map((j) => j.status),
    Array(20).fill('completed'),
  );
  assert.ok(final.every((j, i) => j.result.audit_id === ids[i] && j.result.findings.length > 0));
  const killed = final[ids.indexOf(victim)];
  assert.ok(killed.attempts >= 2, `the job W1 held ran again elsewhere (attempts ${killed.attempts})`);
  // Completed once each: one completion event per job in the shared audit log.
  const events = await store.queryAudit({ tenant: 'ci', limit: 10_000 });
  const completions = events.filter((e) => e.type === 'analysis.job.completed').map((e) => e.detail.job_id as string);
  assert.deepEqual([...completions].sort(), [...ids, syncJob].sort());
  assert.ok(
    !completions.includes(victim) ||
      events.find((e) => e.type === 'analysis.job.completed' && e.detail.job_id === victim)!.actor!.startsWith(`${w2.child.pid}-`),
  );

  // --- one ordered audit log from every replica -------------------------------------------------
  const actors = new Set(events.filter((e) => e.type.startsWith('analysis.job.')).map((e) => String(e.actor).split('-')[0]));
  for (const p of [a1, a2, w2]) assert.ok(actors.has(String(p.child.pid)), `events of ${p.role} pid ${p.child.pid} are in the log`);
  const acme = await store.queryAudit({ tenant: 'acme', limit: 10_000 });
  assert.ok(acme.filter((e) => e.type === 'http.request').length >= 6, 'both gateways audited their requests');
  for (const list of [events, acme]) {
    const idsInOrder = list.map((e) => e.id!);
    assert.deepEqual(
      idsInOrder,
      [...idsInOrder].sort((x, y) => x - y),
    );
  }

  // --- one trace: API request -> enqueue -> worker job -> analysis.tool -------------------------
  let chain: { api: Span; job: Span; tool: Span } | null = null;
  for (let n = 0; n < 100 && !chain; n++) {
    const byId = new Map(otlp.spans.map((s) => [s.spanId, s]));
    for (const job of otlp.spans.filter((s) => s.name === 'analysis.job')) {
      const enqueue = byId.get(job.parentSpanId ?? '');
      const api = enqueue && byId.get(enqueue.parentSpanId ?? '');
      const tool = otlp.spans.find(
        (s) => s.name === 'analysis.tool' && s.traceId === job.traceId && byId.get(s.parentSpanId ?? '')?.traceId === job.traceId,
      );
      if (enqueue?.name === 'analysis.job.enqueue' && api && /POST \/api\/v1\/jobs/.test(api.name) && tool) {
        chain = { api, job, tool };
        break;
      }
    }
    if (!chain) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(chain, `a trace links the API request, the queue and the worker's tools (${otlp.spans.length} spans received)`);
  assert.equal(chain.api.traceId, chain.tool.traceId);
  phase('trace');
});
