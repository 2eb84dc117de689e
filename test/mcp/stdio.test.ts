// `vigil mcp` over stdio, spawned the way an editor does it (node bin/vigil.js mcp) with a temp
// data directory, driven by the SDK's own stdio client: stdout carries only the protocol.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { REENTRANT } from './fixtures.ts';
import { ROOT, textOf, tmp } from './helpers.ts';

describe('vigil mcp (stdio)', () => {
  const dataDir = tmp('vigil-mcp-stdio-data-');
  const contracts = tmp('vigil-mcp-stdio-contracts-');
  let client: Client;
  let transport: StdioClientTransport;
  let stderr = '';
  before(async () => {
    fs.writeFileSync(path.join(contracts, 'Bank.sol'), REENTRANT);
    // The start-up self-tests of the builtin tools (health reporting, ~a dozen CPU-s) are not what
    // this file tests and would run beside it: off, as bootKernel does for in-process kernels.
    const config = path.join(dataDir, 'vigil.config.json');
    fs.writeFileSync(config, JSON.stringify({ plugins: { 'analysis-engine': { self_test_on_start: false } } }));
    transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.join(ROOT, 'bin/vigil.js'), 'mcp'],
      cwd: contracts,
      env: {
        VIGIL_DATA_DIR: dataDir,
        VIGIL_CONTRACT_ROOTS: contracts,
        VIGIL_LOG_LEVEL: 'info',
        VIGIL_CONFIG: config,
        // the compiled mirror the test runner uses, if it was told where (else the default one)
        ...(process.env.VIGIL_JS_CACHE_DIR ? { VIGIL_JS_CACHE_DIR: process.env.VIGIL_JS_CACHE_DIR } : {}),
      },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (b: Buffer) => (stderr += b.toString()));
    client = new Client({ name: 'vigil-stdio-test', version: '1.0.0' });
    await client.connect(transport, { timeout: 120_000 });
  });
  after(async () => {
    await client.close().catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(contracts, { recursive: true, force: true });
  });

  test('initialize reports vigil; tools/list has the analysis operations and the permitted skills', async () => {
    assert.equal(client.getServerVersion()?.name, 'vigil');
    const names = (await client.listTools()).tools.map((t) => t.name);
    for (const n of [
      'analyze_contract',
      'analyze_layer',
      'analyze_tool',
      'remediate',
      'validate_remediation',
      'list_tools',
      'list_layers',
      'contract_audit',
      'crypto',
    ]) {
      assert.ok(names.includes(n), `missing ${n}`);
    }
    assert.ok(!names.includes('shell'));
  });

  test('analyze_contract (by path, inside the contract roots) finds the reentrancy', async () => {
    const r: any = await client.callTool({ name: 'analyze_contract', arguments: { contract_path: 'Bank.sol', mode: 'quick' } }, undefined, {
      timeout: 120_000,
    });
    assert.ok(!r.isError, textOf(r));
    const f = r.structuredContent.findings.find((x: any) => x.category === 'reentrancy');
    assert.ok(f, JSON.stringify(r.structuredContent.findings.map((x: any) => x.category)));
    assert.equal(f.location.file, 'Bank.sol');
    assert.equal(f.swc_id, 'SWC-107');
  });

  test('a denied capability is a tool error, and logs went to stderr (stdout stayed protocol-only)', async () => {
    const r: any = await client.callTool({ name: 'shell', arguments: { program: 'ls' } });
    assert.equal(r.isError, true);
    assert.match(textOf(r), /capability_denied/);
    assert.match(stderr, /MCP server listening on stdio/);
  });

  test('closing stdin ends the process', async () => {
    const pid = transport.pid!;
    await client.close();
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      try {
        process.kill(pid, 0);
      } catch {
        return;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.fail('vigil mcp did not exit after its input closed');
  });

  test('an invalid --api-key is refused with exit code 2 before serving', () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'bin/vigil.js'), 'mcp', '--api-key', 'not-a-key'], {
      env: { ...process.env, VIGIL_DATA_DIR: dataDir, VIGIL_LOG_LEVEL: 'silent' },
      input: '',
      encoding: 'utf8',
      timeout: 120_000,
    });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /API key is not valid/);
    assert.equal(r.stdout, '');
  });
});
