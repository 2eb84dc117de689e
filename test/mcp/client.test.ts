// vigil as an MCP client: the real reference filesystem server from npm (stdio) and a second
// vigil's /mcp endpoint (Streamable HTTP with a tenant key header) become skills the agent calls
// in a chat turn, under the permission set; a server that dies or is down at start is reported
// and retried, never fatal.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { bootKernel } from '../helpers.ts';
import { FS_SERVER, ROOT, listen, tmp, type Listening } from './helpers.ts';

const CORE = ['gateway-core', 'llm-demo', 'skill-crypto', 'gateway-audit', 'mcp-client'];

async function boot(o: { servers: unknown[]; dataDir?: string; workspace?: string; env?: Record<string, string> }) {
  const keep = new Set(CORE);
  const plugins: Record<string, any> = {};
  for (const d of fs.readdirSync(path.join(ROOT, 'plugins'), { withFileTypes: true }))
    if (d.isDirectory() && !keep.has(d.name)) plugins[d.name] = { enabled: false };
  plugins['mcp-client'] = { retry_base_ms: 50, retry_max_ms: 400, ping_interval_ms: 200 };
  const dataDir = o.dataDir ?? tmp('vigil-mcpc-data-');
  const workspace = o.workspace ?? tmp('vigil-mcpc-ws-');
  const kernel = await bootKernel({
    settings: { dataDir, env: o.env ?? {}, overrides: { llm: { provider: 'demo' }, workspace, mcp: { servers: o.servers }, plugins } },
    only: [...keep],
    kernel: { poolThreads: 1 },
  });
  const st = kernel.registry.plugins().find((p) => p.id === 'mcp-client');
  assert.equal(st?.status, 'loaded', st?.error ?? '');
  const chat = async (message: string) => {
    const r = await kernel.gateway.inject({ method: 'POST', url: '/api/v1/agent/chat', payload: { message } });
    assert.equal(r.statusCode, 200, r.body);
    return r.json();
  };
  const servers = async () => (await kernel.gateway.inject({ method: 'GET', url: '/api/v1/mcp/servers' })).json().servers as any[];
  const readiness = async () =>
    (await kernel.gateway.inject({ method: 'GET', url: '/api/v1/enterprise/readiness' })).json().checks as any[];
  return { kernel, dataDir, workspace, chat, servers, readiness };
}

async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > end) assert.fail(`condition not reached in ${ms} ms; last value ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const fsServer = (dir: string) => ({
  name: 'fs',
  command: process.execPath,
  args: [FS_SERVER, dir],
  capabilities: ['file_read'],
  write_capabilities: ['file_write'],
});

describe('MCP client: the reference filesystem server over stdio', () => {
  let b: Awaited<ReturnType<typeof boot>>;
  before(async () => {
    const workspace = tmp('vigil-mcpc-ws-');
    fs.writeFileSync(path.join(workspace, 'notes-7f3a.txt'), 'remember the audit on friday\n');
    b = await boot({ servers: [fsServer(workspace)], workspace });
  });
  after(async () => {
    await b.kernel.stop();
    fs.rmSync(b.dataDir, { recursive: true, force: true });
  });

  test('its tools are skills mcp_fs_<tool> with the configured capabilities', () => {
    const skills = b.kernel.registry.skills().filter((s) => s.name.startsWith('mcp_fs_'));
    const list = skills.find((s) => s.name === 'mcp_fs_list_directory');
    assert.ok(list, skills.map((s) => s.name).join(', '));
    assert.deepEqual(list.capabilities, ['file_read']);
    // Not annotated read-only by the server: the configured write capability is added.
    assert.deepEqual(skills.find((s) => s.name === 'mcp_fs_write_file')?.capabilities, ['file_read', 'file_write']);
    assert.equal((list.inputSchema as any).$schema, undefined);
  });

  test('the agent calls a filesystem tool in a chat turn and the result is in the answer', async () => {
    const r = await b.chat(`/skill mcp_fs_list_directory {"path": ${JSON.stringify(b.workspace)}}`);
    assert.equal(r.tool_calls.length, 1);
    assert.equal(r.tool_calls[0].name, 'mcp_fs_list_directory');
    assert.equal(r.tool_calls[0].status, 'ok', JSON.stringify(r.tool_calls[0]));
    assert.match(r.response, /\[FILE\] notes-7f3a\.txt/);

    const read = await b.chat(`/skill mcp_fs_read_text_file {"path": ${JSON.stringify(path.join(b.workspace, 'notes-7f3a.txt'))}}`);
    assert.match(read.response, /remember the audit on friday/);
    const audit = await b.kernel.store.queryAudit({ tenant: null, type: 'skill.call', limit: 20 });
    assert.ok(audit.some((e) => e.detail.skill === 'mcp_fs_read_text_file' && e.outcome === 'success'));
  });

  test('a tool needing a capability the permission set lacks is refused, and nothing is written', async () => {
    const target = path.join(b.workspace, 'written.txt');
    const r = await b.chat(`/skill mcp_fs_write_file {"path": ${JSON.stringify(target)}, "content": "x"}`);
    assert.equal(r.tool_calls[0].status, 'denied');
    assert.match(r.tool_calls[0].error, /capability_denied: skill "mcp_fs_write_file" needs file_write/);
    assert.equal(fs.existsSync(target), false);
  });

  test('an error from the server is a failed tool call with its message', async () => {
    const r = await b.chat('/skill mcp_fs_read_text_file {"path": "/etc/hostname"}');
    assert.equal(r.tool_calls[0].status, 'error');
    assert.match(r.tool_calls[0].error, /MCP server "fs".*(denied|outside|allowed)/i);
  });

  test('when the server process dies it is reported, reconnected with backoff, and works again', async () => {
    const [before] = await b.servers();
    assert.equal(before.state, 'connected');
    assert.ok(before.skills.includes('mcp_fs_list_directory'));
    assert.equal((await b.readiness()).find((c) => c.id === 'mcp_server_fs').status, 'active');
    const healthy = (await b.kernel.gateway.inject({ method: 'GET', url: '/health' })).json();
    assert.equal(healthy.checks.integrations.status, 'ok', JSON.stringify(healthy.checks.integrations));
    assert.match(healthy.checks.integrations.detail, /1 connected/);
    process.kill(before.pid, 'SIGKILL');
    const down = await until(b.servers, (s) => s[0].state !== 'connected' || s[0].pid !== before.pid);
    // Either caught while down, or already back on a new process.
    if (down[0].state !== 'connected') {
      assert.match(down[0].last_error, /closed|ping|call failed/);
    }
    const back = await until(b.servers, (s) => s[0].state === 'connected' && s[0].pid !== before.pid);
    assert.ok(back[0].failures === 0 && back[0].last_error === null);
    const r = await b.chat(`/skill mcp_fs_list_directory {"path": ${JSON.stringify(b.workspace)}}`);
    assert.match(r.response, /notes-7f3a\.txt/);
  });
});

describe('MCP client: servers that are down', () => {
  test('a server down at start is not fatal: reported in readiness, retried with growing backoff', async () => {
    const b = await boot({
      servers: [
        { name: 'broken', command: process.execPath, args: ['-e', 'process.stderr.write("no such database\\n"); process.exit(3)'] },
      ],
    });
    try {
      const s = await until(b.servers, (x) => x[0].failures >= 3);
      assert.equal(s[0].state === 'connected', false);
      assert.match(s[0].last_error, /could not connect/);
      assert.deepEqual(s[0].skills, []);
      const chk = (await b.readiness()).find((c) => c.id === 'mcp_server_broken');
      assert.equal(chk.status, 'attention');
      assert.match(chk.detail, /could not connect/);
      // /health (what a load balancer or on-call engineer polls) says the dependency is down.
      const h = (await b.kernel.gateway.inject({ method: 'GET', url: '/health' })).json();
      assert.equal(h.status, 'degraded');
      assert.equal(h.checks.integrations.status, 'degraded');
      assert.match(h.checks.integrations.detail, /MCP server broken/);
      assert.equal(h.checks.integrations.items.find((i: any) => i.id === 'mcp_server_broken')?.status, 'attention');
      // The gateway itself is fine.
      const r = await b.chat('/skill crypto {"op":"sha256","data":"a"}');
      assert.equal(r.tool_calls[0].status, 'ok');
    } finally {
      await b.kernel.stop();
    }
  });

  test('a server seen before but down now keeps its skills from the cached tool list; calls say it is unavailable', async () => {
    const workspace = tmp('vigil-mcpc-ws-');
    const first = await boot({ servers: [fsServer(workspace)], workspace });
    await first.kernel.stop();
    // Same data directory; the server now fails to start (its allowed directory is gone).
    fs.rmSync(workspace, { recursive: true, force: true });
    const b = await boot({ servers: [fsServer(workspace)], dataDir: first.dataDir });
    try {
      const [s] = await b.servers();
      assert.equal(s.tool_list_source, 'cache');
      assert.ok(s.skills.includes('mcp_fs_list_directory'));
      const r = await b.chat(`/skill mcp_fs_list_directory {"path": ${JSON.stringify(workspace)}}`);
      assert.equal(r.tool_calls[0].status, 'error');
      assert.match(r.tool_calls[0].error, /mcp_server_unavailable: MCP server "fs" is (down|connecting)/);
    } finally {
      await b.kernel.stop();
      fs.rmSync(first.dataDir, { recursive: true, force: true });
    }
  });

  test('bad mcp.servers config fails the plugin with the key named, not the gateway', async () => {
    const keep = new Set(CORE);
    const plugins: Record<string, any> = {};
    for (const d of fs.readdirSync(path.join(ROOT, 'plugins'), { withFileTypes: true }))
      if (d.isDirectory() && !keep.has(d.name)) plugins[d.name] = { enabled: false };
    const kernel = await bootKernel({
      settings: {
        dataDir: tmp('vigil-mcpc-bad-'),
        env: {},
        overrides: { llm: { provider: 'demo' }, mcp: { servers: [{ name: 'x', command: 'a', url: 'http://b' }] }, plugins },
      },
      only: [...keep],
      kernel: { poolThreads: 1 },
    });
    try {
      const st = kernel.registry.plugins().find((p) => p.id === 'mcp-client')!;
      assert.equal(st.status, 'error');
      assert.match(st.error ?? '', /mcp.servers "x": give exactly one of "command".*or "url"/);
      assert.equal(kernel.registry.plugins().find((p) => p.id === 'gateway-core')!.status, 'loaded');
    } finally {
      await kernel.stop();
    }
  });
});

describe('MCP client: another vigil over Streamable HTTP with a tenant key', () => {
  let peer: Listening;
  before(async () => {
    peer = await listen();
  });
  after(() => peer.close());

  test('its tools become skills; the key comes from the environment through ${VAR}; the agent runs its analysis', async () => {
    const key = await peer.addTenant('upstream-user');
    const server = {
      name: 'peer',
      url: peer.gateway + '/mcp',
      headers: { Authorization: 'Bearer ${VIGIL_TEST_PEER_KEY}' },
      capabilities: ['contract_analysis'],
      include_tools: ['list_layers', 'analyze_contract'],
    };
    process.env.VIGIL_TEST_PEER_KEY = key;
    const b = await boot({ servers: [server] });
    try {
      const names = b.kernel.registry
        .skills()
        .map((s) => s.name)
        .filter((n) => n.startsWith('mcp_peer_'))
        .sort();
      assert.deepEqual(names, ['mcp_peer_analyze_contract', 'mcp_peer_list_layers']);
      const r = await b.chat('/skill mcp_peer_list_layers {}');
      assert.equal(r.tool_calls[0].status, 'ok', JSON.stringify(r.tool_calls[0]));
      assert.match(r.response, /Symbolic Execution/);
      // The peer saw the calls as its tenant.
      const audit = await peer.kernel.store.queryAudit({ tenant: 'upstream-user', type: 'skill.call', limit: 10 });
      assert.ok(audit.some((e) => e.detail.skill === 'list_layers' && e.detail.via === 'mcp-http'));
    } finally {
      await b.kernel.stop();
      delete process.env.VIGIL_TEST_PEER_KEY;
    }
    // Without the key the peer answers 401 and the server is reported down, not fatal.
    const noKey = await boot({ servers: [{ ...server, headers: {} }] });
    try {
      const [s] = await noKey.servers();
      assert.notEqual(s.state, 'connected');
      assert.match(s.last_error, /401|unauthorized|API key/i);
    } finally {
      await noKey.kernel.stop();
    }
  });
});
