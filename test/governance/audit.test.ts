// Audit log: every request recorded, filters and cursor paging, malformed filters -> 400,
// CEF escaping, JSONL and CEF export.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { AuditSink } from '../../lib/gateway/contracts.ts';
import { cefHeader, cefValue, toCef } from '../../plugins/gateway-audit/cef.ts';
import { boot, type Booted } from './helpers.ts';

let b: Booted;
let key: string;
before(async () => {
  b = await boot();
  key = await b.addTenant('acme');
});
after(() => b.stop());

/** Follows next_cursor from the first page; returns each event's detail.i in page order. */
async function pageAll(query: string): Promise<{ seen: number[]; pages: number }> {
  const seen: number[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const p = await b.req('GET', `/api/v1/audit/events?${cursor ? query.replace(/&?order=\w+/, '') + `&cursor=${cursor}` : query}`, {
      key,
    });
    assert.equal(p.status, 200, p.body);
    seen.push(...p.json.events.map((e: any) => e.detail.i));
    cursor = p.json.next_cursor;
    pages++;
  } while (cursor);
  return { seen, pages };
}

test('every gateway request is recorded with method, route, status, tenant, latency and request id', async () => {
  const r = await b.kernel.gateway.inject({
    method: 'GET',
    url: '/api/v1/skills',
    headers: { authorization: `Bearer ${key}`, 'x-request-id': 'req-audit-1' },
  });
  assert.equal(r.statusCode, 200);
  await b.req('GET', '/api/v1/skills', { key: 'vgl_wrong_key_wrong_key_wrong_key_wrong_key_x' });
  const ev = await b.req('GET', '/api/v1/audit/events?type=http.request', { key });
  const e = ev.json.events.find((x: any) => x.detail.request_id === 'req-audit-1');
  assert.ok(e, 'the request is in the log');
  assert.equal(e.tenant, 'acme');
  assert.equal(e.detail.method, 'GET');
  assert.equal(e.detail.route, '/api/v1/skills');
  assert.equal(e.detail.status, 200);
  assert.equal(typeof e.detail.latency_ms, 'number');
  assert.equal(e.outcome, 'success');
  // A rejected request has no tenant: it lands in the operator's (local) log, not acme's.
  assert.ok(!ev.json.events.some((x: any) => x.detail.status === 401));
  // Authentication failures are aggregated per client address and minute (one auth.failure row),
  // never one http.request row each.
  const local = await b.kernel.store.queryAudit({ tenant: null, type: 'http.request', limit: 1000 });
  assert.ok(!local.some((x) => (x.detail as any).status === 401));
  await (b.kernel.services.get<AuditSink>('audit') as any).flushAuthFailures(true);
  const agg = await b.kernel.store.queryAudit({ tenant: null, type: 'auth.failure', limit: 1000 });
  assert.equal(agg[0]?.outcome, 'denied');
  assert.ok((agg[0]?.detail as any).count >= 1);
  assert.equal((agg[0]?.detail as any).statuses['401'] >= 1, true);
});

test('filters by type, outcome and time; cursor paging visits every event once', async () => {
  const audit = b.kernel.services.get<AuditSink>('audit')!;
  for (let i = 0; i < 25; i++) {
    await audit.record({
      tenant: 'acme',
      type: 'skill.call',
      outcome: i % 5 === 0 ? 'failure' : 'success',
      session_id: `s${i}`,
      detail: { skill: 'files', i },
    });
  }
  const failures = await b.req('GET', '/api/v1/audit/events?type=skill.call&outcome=failure', { key });
  assert.equal(failures.status, 200);
  assert.equal(failures.json.events.length, 5);
  const { seen, pages } = await pageAll('type=skill.call&limit=10');
  assert.equal(pages, 3);
  assert.deepEqual(seen, [...Array(25).keys()]);
  const future = await b.req('GET', '/api/v1/audit/events?from=2999-01-01T00:00:00Z', { key });
  assert.equal(future.json.events.length, 0);
  const past = await b.req(
    'GET',
    `/api/v1/audit/events?type=skill.call&from=2000-01-01&to=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}&limit=1000`,
    { key },
  );
  assert.equal(past.json.events.length, 25);
});

test('order=desc pages newest first; cursors keep their direction', async () => {
  const audit = b.kernel.services.get<AuditSink>('audit')!;
  for (let i = 0; i < 12; i++) await audit.record({ tenant: 'acme', type: 'approval.decision', outcome: 'success', detail: { i } });
  const { seen, pages } = await pageAll('type=approval.decision&limit=5&order=desc');
  assert.equal(pages, 3);
  assert.deepEqual(seen, [...Array(12).keys()].reverse());
  // The newest event is first page, first row: what a dashboard or an on-call engineer wants.
  // (Filtered by type: each request adds its own http.request event after answering.)
  const newest = await b.req('GET', '/api/v1/audit/events?type=approval.decision&order=desc&limit=1', { key });
  const all = await b.req('GET', '/api/v1/audit/events?type=approval.decision&limit=1000', { key });
  assert.equal(newest.json.events[0].id, all.json.events.at(-1).id);
  // A newest-first cursor cannot continue an oldest-first listing (and vice versa).
  const first = await b.req('GET', '/api/v1/audit/events?type=approval.decision&limit=5&order=desc', { key });
  const mixed = await b.req('GET', `/api/v1/audit/events?type=approval.decision&limit=5&order=asc&cursor=${first.json.next_cursor}`, {
    key,
  });
  assert.equal(mixed.status, 400);
  assert.match(mixed.json.error, /cursor/);
  const bad = await b.req('GET', '/api/v1/audit/events?order=newest', { key });
  assert.equal(bad.status, 400);
  assert.match(bad.json.error, /order/);
});

test('malformed filters answer 400 naming the field', async () => {
  for (const [q, field] of [
    ['from=yesterday', 'from'],
    ['to=2025-13-45T00:00:00Z', 'to'],
    ['from=2025-02-01&to=2025-01-01', 'from'],
    ['outcome=maybe', 'outcome'],
    ['limit=0', 'limit'],
    ['limit=abc', 'limit'],
    ['cursor=not-a-cursor', 'cursor'],
    ['type=bad%20type', 'type'],
  ] as const) {
    const r = await b.req('GET', `/api/v1/audit/events?${q}`, { key });
    assert.equal(r.status, 400, `${q}: ${r.body}`);
    assert.equal(r.json.code, 'invalid_request');
    assert.match(r.json.error, new RegExp(field));
  }
  assert.equal((await b.req('GET', '/api/v1/audit/export?format=xml', { key })).status, 400);
  const desc = await b.req('GET', '/api/v1/audit/export?order=desc', { key });
  assert.equal(desc.status, 400, 'an export is in time order; asking for newest first is refused, not ignored');
  assert.match(desc.json.error, /oldest first/);
});

/** Splits at the first 7 unescaped pipes (pipes inside the extension need no escaping). */
function splitCefHeader(line: string): string[] {
  const parts: string[] = [];
  let cur = '';
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === '\\' && parts.length < 7) {
      cur += ch + (line[i + 1] ?? '');
      i++;
    } else if (ch === '|' && parts.length < 7) {
      parts.push(cur);
      cur = '';
    } else cur += ch;
  }
  parts.push(cur);
  return parts;
}

test('CEF escaping: header pipes and backslashes, extension equals signs and newlines', () => {
  assert.equal(cefHeader('a|b\\c'), 'a\\|b\\\\c');
  assert.equal(cefHeader('two\nlines'), 'two lines');
  assert.equal(cefValue('k=v\\x\nnext\rz'), 'k\\=v\\\\x\\nnext\\rz');
  assert.equal(cefValue('a|b'), 'a|b');
  const line = toCef(
    {
      id: 7,
      ts: '2025-01-02T03:04:05.000Z',
      tenant: 'ac|me',
      type: 'skill|call',
      outcome: 'failure',
      actor: 'x=y',
      session_id: 's\n1',
      severity: 12,
      detail: { arg: 'rm -rf / | cat\nsrc=1.2.3.4' },
    },
    '1|0',
  );
  assert.ok(!line.includes('\n'), 'one event is one line');
  const header = splitCefHeader(line);
  assert.equal(header.length, 8, `7 unescaped pipes separate the header: ${line}`);
  assert.equal(header[3], '1\\|0');
  assert.equal(header[4], 'skill\\|call');
  assert.equal(header[6], '10', 'severity clamped to 0..10');
  const ext = header[7];
  // Only real key=value separators are unescaped '=': an injected "src=1.2.3.4" stays inside msg.
  const keys = [...ext.matchAll(/(?:^| )([A-Za-z0-9]+)=(?<!\\=)/g)].map((m) => m[1]);
  assert.deepEqual(keys, ['rt', 'externalId', 'outcome', 'suser', 'cs1Label', 'cs1', 'cs2Label', 'cs2', 'msg']);
  assert.match(ext, /suser=x\\=y/);
  assert.match(ext, /cs2=s\\n1/);
  assert.match(ext, /rt=1735787045000/);
});

test("export streams the tenant's events as JSON lines and as CEF", async () => {
  const j = await b.req('GET', '/api/v1/audit/export?format=jsonl&type=skill.call', { key });
  assert.equal(j.status, 200);
  assert.match(String(j.headers['content-type']), /application\/x-ndjson/);
  assert.match(String(j.headers['content-disposition']), /attachment; filename="vigil-audit-acme-/);
  const rows = j.body
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(rows.length, 25);
  assert.ok(rows.every((r) => r.tenant === 'acme' && r.type === 'skill.call'));
  const c = await b.req('GET', '/api/v1/audit/export?format=cef&type=skill.call&outcome=failure', { key });
  assert.equal(c.status, 200);
  const lines = c.body.trim().split('\n');
  assert.equal(lines.length, 5);
  for (const l of lines)
    assert.match(l, /^CEF:0\|vigil\|vigil\|[^|]+\|skill\.call\|skill\.call failure\|3\|rt=\d+ externalId=\d+ outcome=failure /);
  const other = await b.addTenant('other');
  const none = await b.req('GET', '/api/v1/audit/export?type=skill.call', { key: other });
  assert.equal(none.body, '', "another tenant's export holds none of acme's events");
});
