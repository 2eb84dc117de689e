// mcp-server: vigil's tools over MCP Streamable HTTP at /mcp on the gateway surface.
//
// Stateless: every POST carries one JSON-RPC message (or batch) and gets its own server instance
// bound to the caller's tenant, so there is no session table to leak between tenants or to lose
// on restart, and any gateway replica can answer. Authentication is not re-implemented here:
// the gateway-tenancy surface hook runs first, so with tenants configured a request without a
// valid key is a 401 before it reaches this route, and rate limits apply per tenant as on chat.
// Tools are the analysis operations plus the skills the tenant's permission set allows; calls go
// through the agent's skill-call path (the 'agent' service, see server.ts), so they are permission-checked,
// guardrailed, approval-gated and audited exactly as in chat. GET (server-initiated stream) and
// DELETE (session end) have no meaning without sessions and answer 405.
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { definePlugin, HttpError } from '../../kernel/index.ts';
import type { ReadinessRegistry, Tenancy, TenantContext } from '../../lib/gateway/contracts.ts';
import type { AgentService } from '../../lib/gateway/agent/types.ts';
import { createMcpServer, ToolCatalogue } from './server.ts';
import { VERSION } from '../../lib/mcp/version.ts';

interface McpServerConfig extends Record<string, unknown> {
  path: string;
  max_body_bytes: number;
  max_result_chars: number;
}

const LOCAL: TenantContext = { name: null, permissions: null };

export default definePlugin<McpServerConfig>({
  setup(ctx) {
    const { path } = ctx.config;
    let catalogue: ToolCatalogue | null = null;
    const agentOf = (): AgentService => {
      const agent = ctx.services.get<AgentService>('agent');
      if (!agent || typeof agent.callSkillDirect !== 'function') {
        throw new HttpError(503, 'unavailable', 'MCP is not available: the agent runtime (plugin gateway-core) is not loaded');
      }
      catalogue ??= new ToolCatalogue(agent, ctx.services);
      return agent;
    };

    ctx.registerRoutes('gateway', async (app) => {
      app.post(
        path,
        {
          bodyLimit: ctx.config.max_body_bytes,
          schema: {
            summary: 'MCP (Streamable HTTP, stateless)',
            description:
              "Model Context Protocol endpoint: initialize, tools/list, tools/call. Send `Accept: application/json, text/event-stream`. Tools are the contract-analysis operations and the skills the caller's permission set allows; with tenants configured an API key is required.",
            tags: ['mcp'],
          },
        },
        async (req, reply) => {
          const agent = agentOf();
          const tenant = req.tenant ?? ctx.services.get<Tenancy>('tenancy')?.of(req) ?? LOCAL;
          const server = createMcpServer(
            {
              services: ctx.services,
              agent,
              log: ctx.log,
              version: VERSION,
              origin: 'mcp-http',
              maxResultChars: ctx.config.max_result_chars,
              client: req.ip,
            },
            tenant,
            catalogue!,
          );
          const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
          // The transport writes the response itself (JSON or an SSE stream).
          reply.hijack();
          reply.raw.on('close', () => {
            void transport.close().catch(() => undefined);
            void server.close().catch(() => undefined);
          });
          try {
            await server.connect(transport);
            await transport.handleRequest(req.raw, reply.raw, req.body);
          } catch (err) {
            req.log.error({ err }, 'MCP request failed');
            if (!reply.raw.headersSent) {
              reply.raw.writeHead(500, { 'content-type': 'application/json' });
              reply.raw.end(
                JSON.stringify({
                  jsonrpc: '2.0',
                  error: { code: -32603, message: 'internal error; see the server log for request ' + req.id },
                  id: null,
                }),
              );
            }
          }
        },
      );
      const notAllowed = async () => {
        throw new HttpError(405, 'method_not_allowed', `${path} is a stateless MCP endpoint: send JSON-RPC messages with POST`, undefined, {
          allow: 'POST',
        });
      };
      app.get(path, { schema: { hide: true } }, notAllowed);
      app.delete(path, { schema: { hide: true } }, notAllowed);
    });

    ctx.services.get<ReadinessRegistry>('readiness')?.register(() => {
      const agent = ctx.services.get<AgentService>('agent');
      if (!agent) {
        return [
          {
            id: 'mcp_server',
            category: 'integrations',
            title: 'MCP server',
            status: 'attention',
            detail: 'the agent runtime is not loaded, so /mcp answers 503',
            next_action: 'Fix the gateway-core plugin (see /health).',
          },
        ];
      }
      const cat = (catalogue ??= new ToolCatalogue(agent, ctx.services));
      const local = cat.tools(LOCAL).length;
      return [
        {
          id: 'mcp_server',
          category: 'integrations',
          title: 'MCP server',
          status: 'active',
          detail: `MCP tools at POST ${path} (Streamable HTTP) and on stdio via \`vigil mcp\`: ${cat.operations.length} analysis operations plus permitted skills (${local} tools for the default permission set); calls are governed like chat`,
        },
      ];
    });
  },
});
