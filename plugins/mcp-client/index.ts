// mcp-client: vigil's agent as an MCP client. Every server in `mcp.servers` (a local program on
// stdio, or a Streamable HTTP URL with headers) is connected at start-up, and each of its tools
// becomes a skill `mcp_<server>_<tool>` that the agent calls like any other — so the permission
// set, schema check, guardrails (an external tool's result is untrusted and gets the
// tool_result checks, prompt injection included), approvals and audit all apply.
//
// What a tool needs is what the operator declares: `capabilities` per server (default network
// for a URL, shell_exec for a local program, which the default permission set does not grant),
// `write_capabilities` added to tools the server does not annotate read-only, and per-tool
// overrides. The server's own annotations are only ever used to add requirements, never to
// drop them, since they are the server's claims about itself.
//
// Skills can only be registered during setup, so the tool list comes from the first connection
// (bounded by connect_timeout_ms), or, when the server is down at start, from the list cached at
// its last successful connection; calls fail with the reason until it is back. A server that
// is down or dies is retried with backoff and shown in readiness and /api/v1/mcp/servers; it
// never stops vigil. Bad `mcp.servers` config fails this plugin at start with the key named.
import { definePlugin, Type, type Capability, type Skill } from '../../kernel/index.ts';
import type { ReadinessCheck, ReadinessRegistry } from '../../lib/gateway/contracts.ts';
import { parseMcpServers, skillName, type ServerConfig } from './client-config.ts';
import { Upstream, type UpstreamTool } from './upstream.ts';
import { VERSION } from '../../lib/mcp/version.ts';
import client from 'prom-client';

interface ClientConfig extends Record<string, unknown> {
  retry_base_ms: number;
  retry_max_ms: number;
  ping_interval_ms: number;
}

const CACHE = 'mcp_client_tools';

/** Strips the dialect marker: the agent's validator speaks draft-07 and the rest of a tool schema is plain JSON schema. */
function cleanSchema(s: Record<string, unknown> | undefined): Record<string, unknown> {
  const { $schema: _drop, ...rest } = s ?? {};
  return { type: 'object', ...rest };
}

function toolCapabilities(cfg: ServerConfig, t: UpstreamTool): Capability[] {
  const base = cfg.toolCapabilities[t.name] ?? cfg.capabilities;
  return [...new Set([...base, ...(t.readOnly ? [] : cfg.writeCapabilities)])];
}

export default definePlugin<ClientConfig>({
  async setup(ctx) {
    const servers = parseMcpServers(ctx.services.settings.file.mcp);
    const reg = ctx.services.metrics;
    const up =
      (reg.getSingleMetric('vigil_mcp_upstream_up') as client.Gauge<string> | undefined) ??
      new client.Gauge({
        name: 'vigil_mcp_upstream_up',
        help: 'External MCP server connected (1) or not (0)',
        labelNames: ['server'],
        registers: [reg],
      });
    const upstreams = servers.map(
      (cfg) =>
        new Upstream(cfg, ctx.log, {
          version: VERSION,
          baseDelayMs: ctx.config.retry_base_ms,
          maxDelayMs: ctx.config.retry_max_ms,
          pingIntervalMs: ctx.config.ping_interval_ms,
          onState: (u) => up.set({ server: u.cfg.name }, u.state === 'connected' ? 1 : 0),
        }),
    );
    ctx.onClose(async () => {
      await Promise.all(upstreams.map((u) => u.close()));
    });

    const registered = new Map<string, Set<string>>();
    const sources = new Map<string, 'live' | 'cache' | 'none'>();
    await Promise.all(
      upstreams.map(async (u) => {
        let tools: UpstreamTool[];
        if (await u.connect()) {
          tools = u.tools;
          sources.set(u.cfg.name, 'live');
          await ctx.services.store
            .putRecord(CACHE, u.cfg.name, { tools, at: new Date().toISOString() })
            .catch((err) => ctx.log.warn({ err }, 'could not cache MCP tool list'));
        } else {
          const cached = (await ctx.services.store.getRecord(CACHE, u.cfg.name).catch(() => null)) as { tools?: UpstreamTool[] } | null;
          tools = Array.isArray(cached?.tools) ? cached.tools : [];
          sources.set(u.cfg.name, cached ? 'cache' : 'none');
        }
        const include = u.cfg.includeTools ? new Set(u.cfg.includeTools) : null;
        const names = new Set<string>();
        for (const t of tools) {
          if (include && !include.has(t.name)) continue;
          const name = skillName(u.cfg.name, t.name);
          if (names.has(name) || ctx.services.registry.skill(name)) {
            ctx.log.warn({ mcp_server: u.cfg.name, tool: t.name, skill: name }, 'MCP tool skipped: its skill name is already taken');
            continue;
          }
          names.add(t.name);
          const skill: Skill = {
            name,
            description: `${t.description.slice(0, 1000)} (tool "${t.name}" of MCP server "${u.cfg.name}")`,
            inputSchema: cleanSchema(t.inputSchema),
            capabilities: toolCapabilities(u.cfg, t),
            plugin: 'mcp-client',
            runtime: 'ts',
            call: (input, sc) => u.call(t.name, input, sc.signal),
          };
          ctx.registerSkill(skill);
        }
        registered.set(u.cfg.name, names);
      }),
    );

    const view = () =>
      upstreams.map((u) => {
        const names = registered.get(u.cfg.name) ?? new Set<string>();
        const unregistered =
          u.state === 'connected'
            ? u.tools.filter((t) => !names.has(t.name) && (!u.cfg.includeTools || u.cfg.includeTools.includes(t.name))).map((t) => t.name)
            : [];
        return {
          ...u.status(),
          skills: [...names].map((t) => skillName(u.cfg.name, t)),
          tool_list_source: sources.get(u.cfg.name) ?? 'none',
          unregistered_tools: unregistered,
        };
      });

    ctx.registerRoutes('gateway', async (app) => {
      app.get(
        '/api/v1/mcp/servers',
        {
          schema: {
            summary: 'External MCP servers: connection state, skills registered from them, last error and next retry',
            tags: ['mcp'],
            response: {
              200: Type.Object({
                servers: Type.Array(
                  Type.Object(
                    {
                      name: Type.String(),
                      transport: Type.String(),
                      state: Type.String({ description: 'connecting | connected | down | closed' }),
                      skills: Type.Array(Type.String()),
                      last_error: Type.Union([Type.String(), Type.Null()]),
                      next_retry_at: Type.Union([Type.String(), Type.Null()]),
                    },
                    { additionalProperties: true },
                  ),
                ),
              }),
            },
          },
        },
        async () => ({ servers: view() }),
      );
    });

    ctx.services.get<ReadinessRegistry>('readiness')?.register(
      (): ReadinessCheck[] => {
        if (!upstreams.length) {
          return [
            {
              id: 'mcp_client',
              category: 'integrations',
              title: 'External MCP servers',
              status: 'available',
              detail: 'no external MCP servers configured (mcp.servers)',
              next_action: 'Connect external tool servers under mcp.servers in the config file (see docs/mcp.md).',
            },
          ];
        }
        return view().map((s) => {
          const ok = s.state === 'connected';
          const newTools = s.unregistered_tools.length
            ? `; ${s.unregistered_tools.length} tool(s) appeared since start and need a restart to become skills`
            : '';
          return {
            id: `mcp_server_${s.name}`,
            category: 'integrations',
            title: `MCP server ${s.name}`,
            status: ok ? 'active' : 'attention',
            detail: ok
              ? `connected over ${s.transport}; ${s.skills.length} skill(s)${newTools}`
              : `${s.state}: ${s.last_error ?? 'not connected yet'}; ${s.skills.length} skill(s) registered from ${s.tool_list_source === 'cache' ? 'the cached tool list' : 'no tool list'}${s.next_retry_at ? `; next retry at ${s.next_retry_at}` : ''}`,
            ...(ok ? {} : { next_action: `Check MCP server "${s.name}" (command/url in mcp.servers); vigil keeps retrying with backoff.` }),
          };
        });
      },
      { health: true },
    );
  },
});
