// The stdio entry of the MCP server (`vigil mcp`): stdout carries only the protocol, so every log
// line goes to stderr and console.log is routed there too (a stray print from any plugin would
// otherwise corrupt the JSON-RPC stream). The caller is the local user who owns the data
// directory — the same trust as the `vigil tenants` command — unless an API key is given, in
// which case the call runs as that tenant with its permission set, audited under its name.
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Logger } from 'pino';
import type { KernelServices } from '../../kernel/index.ts';
import type { TenantContext } from '../../lib/gateway/contracts.ts';
import type { AgentService } from '../../lib/gateway/agent/types.ts';
import { createMcpServer } from './server.ts';

export class StdioSetupError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

interface TenantLookup {
  byKey(key: string): Promise<{ name: string; permissions: unknown; key_id?: string } | null>;
}

/** The tenant `vigil mcp` runs as: local, or the owner of the given API key. */
export async function stdioTenant(services: KernelServices, apiKey: string | undefined): Promise<TenantContext> {
  if (!apiKey) return { name: null, permissions: null };
  const dir = services.get<TenantLookup>('tenant-directory');
  if (!dir) throw new StdioSetupError('an API key was given but tenancy is not loaded (plugin gateway-tenancy)', 2);
  const t = await dir.byKey(apiKey);
  if (!t) throw new StdioSetupError('the API key is not valid (VIGIL_API_KEY / --api-key)', 2);
  return { name: t.name, permissions: (t.permissions as TenantContext['permissions']) ?? null, key: t.key_id ?? null };
}

/** Serves MCP on the given streams until the client closes them. */
export async function serveStdio(o: {
  services: KernelServices;
  log: Logger;
  version: string;
  tenant: TenantContext;
  stdin?: Readable;
  stdout?: Writable;
  maxResultChars?: number;
}): Promise<void> {
  const agent = o.services.get<AgentService>('agent');
  if (!agent || typeof agent.callSkillDirect !== 'function') {
    throw new StdioSetupError('the agent runtime is not available (plugin gateway-core did not load); see `vigil plugins`', 1);
  }
  const server = createMcpServer(
    { services: o.services, agent, log: o.log, version: o.version, origin: 'mcp-stdio', maxResultChars: o.maxResultChars },
    o.tenant,
  );
  const transport = new StdioServerTransport(o.stdin, o.stdout);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    // The SDK transport does not notice the end of its input by itself.
    (o.stdin ?? process.stdin).once('end', () => void transport.close().catch(() => undefined));
  });
  await server.connect(transport);
  o.log.info({ tenant: o.tenant.name ?? 'local' }, 'MCP server listening on stdio');
  await closed;
  await server.close().catch(() => undefined);
}
