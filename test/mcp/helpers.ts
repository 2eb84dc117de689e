// MCP test helpers: a real kernel listening on port 0 (all discovered plugins or one side of them,
// temp data dir and contract root), and an SDK client connected to its /mcp endpoint.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Kernel } from '../../kernel/kernel.ts';
import { bootKernel } from '../helpers.ts';
import { TenantDirectory } from '../../plugins/gateway-tenancy/directory.ts';
import { createAuditLog } from '../../lib/gateway/governance/audit-log.ts';

export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
export const FS_SERVER = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

delete process.env.VIGIL_MODEL;

export function tmp(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface Listening {
  kernel: Kernel;
  gateway: string;
  dataDir: string;
  contracts: string;
  addTenant(name: string, permissions?: string[]): Promise<string>;
  connect(key?: string): Promise<Client>;
  close(): Promise<void>;
}

/** `side: 'gateway'`: without the analysis engine, detectors and tools, for a test that calls
 *  gateway skills only (see bootKernel). */
export async function listen(
  o: { config?: Record<string, any>; disable?: string[]; side?: 'analysis' | 'gateway' } = {},
): Promise<Listening> {
  const dataDir = tmp('vigil-mcp-data-');
  const contracts = tmp('vigil-mcp-contracts-');
  const plugins: Record<string, any> = { ...(o.config?.plugins ?? {}) };
  for (const id of o.disable ?? []) plugins[id] = { enabled: false };
  const kernel = await bootKernel({
    settings: {
      dataDir,
      bind: '127.0.0.1:0',
      apiBind: '127.0.0.1:0',
      env: { VIGIL_CONTRACT_ROOTS: contracts },
      overrides: { llm: { provider: 'demo' }, workspace: contracts, ...(o.config ?? {}), plugins },
    },
    ...(o.side ? { side: o.side } : {}),
  });
  const addrs = await kernel.listen();
  const clients: Client[] = [];
  return {
    kernel,
    gateway: addrs.gateway,
    dataDir,
    contracts,
    async addTenant(name, permissions) {
      const dir = new TenantDirectory(kernel.store, [], createAuditLog(kernel.store));
      return (await dir.create({ name, permissions })).api_key;
    },
    async connect(key) {
      const c = new Client({ name: 'vigil-test', version: '1.0.0' });
      await c.connect(
        new StreamableHTTPClientTransport(
          new URL(addrs.gateway + '/mcp'),
          key ? { requestInit: { headers: { authorization: `Bearer ${key}` } } } : undefined,
        ),
      );
      clients.push(c);
      return c;
    },
    async close() {
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      // Kernel shutdown waits for connections that were opened but never sent a request (fetch
      // clients of other kernels in this process leave such sockets when they abort); Fastify's
      // forceCloseConnections: 'idle' does not count them as idle, so stop() would hang until
      // Node's request timeout. Reported to the kernel owner; bounded here after a grace period.
      const force = setTimeout(() => {
        kernel.gateway.server.closeAllConnections();
        kernel.api.server.closeAllConnections();
      }, 2000);
      await kernel.stop();
      clearTimeout(force);
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(contracts, { recursive: true, force: true });
    },
  };
}

/** The text of a tool result's first content block. */
export function textOf(r: any): string {
  return r.content?.find((b: any) => b.type === 'text')?.text ?? '';
}
