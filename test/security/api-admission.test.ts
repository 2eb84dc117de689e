// Issue 14 item 7: three keyless 40 KB requests (`return ((((…a…))))`, 20,000 parentheses,
// timeout 60) made a trivial analysis sent 4 s later time out, and a chat's contract_audit
// fail; callers could ask for any timeout up to 3600 s. Now: pathological source is refused
// with 400 before it reaches a worker; outside analyses (REST and MCP) pass an admission gate
// with a per-client cap and a bounded queue (429 analysis_busy + Retry-After); timeouts are held
// to --max-analysis-timeout and the answer says so; the gateway's own contract_audit never
// waits in that gate. End to end on listening servers.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { listen, textOf, type Listening } from '../mcp/helpers.ts';
import { VULNERABLE } from '../api/helpers.ts';

const TRIVIAL = 'pragma solidity 0.8.30;\ncontract T { function f() external pure returns (uint) { return 1; } }\n';
// 20,000 parentheses around `a`, padded to 40 KB, exactly as in the report.
const PARENS = 20_000;
const PATHOLOGICAL =
  `pragma solidity 0.8.30;\ncontract P {\n  function f(uint a) external pure returns (uint) {\n    return ${'('.repeat(PARENS)}a${')'.repeat(PARENS)};\n  }\n}\n`.padEnd(
    40 * 1024,
    ' ',
  );

// Start-up self-tests would compete with these requests for the two pool threads.
const NO_SELF_TEST = { 'analysis-engine': { self_test_on_start: false } };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const apiOf = (s: Listening) => `http://127.0.0.1:${(s.kernel.api.server.address() as AddressInfo).port}`;

async function post(base: string, url: string, body: unknown, key?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key) headers.authorization = `Bearer ${key}`;
  const r = await fetch(base + url, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await r.text();
  return {
    status: r.status,
    headers: r.headers,
    text,
    json: (() => {
      try {
        return JSON.parse(text);
      } catch {
        return null;
      }
    })(),
  };
}

// One kernel for both parts (each new kernel pays for loading the compiler into its workers):
// the reproduction runs keyless before any tenant exists, the gate tests add tenants after.
let s: Listening;
const keys: Record<string, string> = {};
before(async () => {
  s = await listen({
    config: { analysis_admission: { max_running: 1, max_queued: 1, per_client: 1 }, max_analysis_timeout: 120, plugins: NO_SELF_TEST },
  });
});
after(() => s.close());

describe('the reproduction (keyless, no tenants)', () => {
  test('three 40 KB 20,000-parenthesis requests are refused up front; a trivial analysis 4 s later and a chat contract_audit succeed', async () => {
    assert.equal(PATHOLOGICAL.length, 40 * 1024);
    const api = apiOf(s);
    const flood = await Promise.all([1, 2, 3].map(() => post(api, '/api/v1/analyze/quick/', { contract_code: PATHOLOGICAL, timeout: 60 })));
    for (const r of flood) {
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.code, 'source_too_complex');
      assert.match(r.json.error, /nested 129 deep at line 4, column \d+ \(the limit is 128\)/);
      assert.equal(r.json.details.line, 4);
    }
    await sleep(4000);
    const trivial = await post(api, '/api/v1/analyze/quick/', { contract_code: TRIVIAL, timeout: 60 });
    assert.equal(trivial.status, 200, trivial.text);
    assert.equal(trivial.json.timeout_clamped, undefined);
    assert.ok(
      trivial.json.results.every((t: any) => t.status !== 'timeout'),
      `a tool timed out: ${JSON.stringify(trivial.json.results.map((t: any) => [t.tool, t.status]))}`,
    );
    const chat = await post(s.gateway, '/api/v1/agent/chat', { message: `/skill contract_audit ${JSON.stringify({ code: TRIVIAL })}` });
    assert.equal(chat.status, 200, chat.text);
    assert.equal(chat.json.tool_calls[0].name, 'contract_audit');
    assert.equal(chat.json.tool_calls[0].status, 'ok', JSON.stringify(chat.json.tool_calls[0]));
  });

  test('readiness names the admission limits and the timeout maximum', async () => {
    const r = await fetch(s.gateway + '/api/v1/enterprise/readiness');
    assert.equal(r.status, 200);
    const item = (await r.json()).checks?.find?.((c: any) => c.id === 'analysis_admission') ?? null;
    assert.ok(item, 'analysis_admission is in the readiness report');
    assert.equal(item.status, 'active');
    assert.match(item.detail, /at most 1 running, 1 waiting, 1 per client .*timeouts held to 120 s/);
  });

  test('the same shapes are refused on every route, over MCP and in contract_audit, with the position', async () => {
    const api = apiOf(s);
    const chain = `contract C {\n  function f(uint a) public pure returns (uint) {\n    return a${'+a'.repeat(2000)};\n  }\n}\n`;
    for (const [url, body] of [
      ['/api/v1/analyze/full/', { contract_code: PATHOLOGICAL }],
      ['/api/v1/remediate/', { contract_code: PATHOLOGICAL }],
      ['/api/v1/validate-remediation/', { original_code: TRIVIAL, patched_code: PATHOLOGICAL }],
      ['/api/v1/analyze/quick/', { contract_code: chain }],
    ] as const) {
      const r = await post(api, url, body);
      assert.equal(r.status, 400, `${url}: ${r.text}`);
      assert.equal(r.json.code, 'source_too_complex', r.text);
      assert.match(r.json.error, /line \d+, column \d+/);
    }
    const c = await s.connect();
    const m: any = await c.callTool({ name: 'analyze_contract', arguments: { contract_code: PATHOLOGICAL } });
    assert.equal(m.isError, true);
    assert.match(textOf(m), /^source_too_complex: /);
    const chat = await post(s.gateway, '/api/v1/agent/chat', { message: `/skill contract_audit ${JSON.stringify({ code: chain })}` });
    assert.equal(chat.json.tool_calls[0].status, 'error', JSON.stringify(chat.json.tool_calls[0]));
    assert.match(chat.json.tool_calls[0].error, /source_too_complex/);
  });
});

describe('admission gate and maximum timeout (tenants; one running, one waiting, one per client)', () => {
  before(async () => {
    for (const t of ['alice', 'bob', 'carol']) keys[t] = await s.addTenant(t, ['contract_analysis', 'file_read']);
  });

  test('a timeout above the server maximum is lowered and the answer says so', async () => {
    const r = await post(apiOf(s), '/api/v1/analyze/quick/', { contract_code: TRIVIAL, timeout: 600 }, keys.alice);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json.timeout_clamped, { requested: 600, applied: 120 });
    assert.ok(
      r.json.notes.some((n: string) => /requested timeout of 600 s was lowered to the server's maximum of 120 s/.test(n)),
      r.json.notes,
    );
    assert.equal(r.headers.get('x-vigil-timeout-clamped'), 'requested=600; applied=120');
  });

  test("per-client cap and queue bound answer 429 with Retry-After; the gateway's contract_audit still runs", async () => {
    const api = apiOf(s);
    const gate = s.kernel.services.get('analysis-admission')!;
    const until = async (cond: () => boolean) => {
      while (!cond()) await sleep(5);
    };
    // alice's slow full audit holds the only running slot.
    const first = post(api, '/api/v1/analyze/full/', { contract_code: VULNERABLE, timeout: 10 }, keys.alice);
    await until(() => gate.stats().running === 1);

    const again = await post(api, '/api/v1/analyze/quick/', { contract_code: TRIVIAL }, keys.alice);
    assert.equal(again.status, 429, again.text);
    assert.equal(again.json.code, 'analysis_busy');
    assert.equal(again.json.details.reason, 'per_client_limit');
    assert.match(again.headers.get('retry-after') ?? '', /^\d+$/);
    assert.ok(Number(again.headers.get('retry-after')) >= 1);

    // bob waits in the queue (one place); carol finds it full.
    const queued = post(api, '/api/v1/analyze/quick/', { contract_code: TRIVIAL, timeout: 60 }, keys.bob);
    await until(() => gate.stats().queued === 1);
    const full = await post(api, '/api/v1/remediate/', { contract_code: TRIVIAL }, keys.carol);
    assert.equal(full.status, 429, full.text);
    assert.equal(full.json.details.reason, 'queue_full');
    assert.ok(full.headers.get('retry-after'));

    // MCP calls pass the same gate.
    const c = await s.connect(keys.carol);
    const m: any = await c.callTool({ name: 'analyze_contract', arguments: { contract_code: TRIVIAL } });
    assert.equal(m.isError, true);
    assert.match(textOf(m), /^analysis_busy: /);

    // The gateway's own skill call is not behind the API's queue.
    assert.equal(gate.stats().running, 1, 'the API is still saturated');
    const chat = await post(
      s.gateway,
      '/api/v1/agent/chat',
      { message: `/skill contract_audit ${JSON.stringify({ code: TRIVIAL })}` },
      keys.carol,
    );
    assert.equal(chat.status, 200, chat.text);
    assert.equal(chat.json.tool_calls[0].status, 'ok', JSON.stringify(chat.json.tool_calls[0]));

    const [a, b] = await Promise.all([first, queued]);
    assert.equal(a.status, 200, a.text);
    assert.equal(b.status, 200, b.text);
    assert.deepEqual({ running: gate.stats().running, queued: gate.stats().queued }, { running: 0, queued: 0 });
  });
});
