// `mcp.servers` of the service config: the external MCP servers vigil connects to as a client.
// Validated once at start-up with the offending key named. Values of `env` and `headers` may
// reference environment variables as ${NAME}, so secrets stay out of the config file.
import { CAPABILITIES, type Capability } from '../../kernel/index.ts';

interface Common {
  name: string;
  /** Capabilities every tool of this server needs (the permission set must grant them). */
  capabilities: Capability[];
  /** Added to tools the server does not annotate as read-only (readOnlyHint). Hints only ever add requirements. */
  writeCapabilities: Capability[];
  /** Per-tool capabilities, replacing the server's for that tool. */
  toolCapabilities: Record<string, Capability[]>;
  /** When set, only these tools become skills. */
  includeTools: string[] | null;
  connectTimeoutMs: number;
  callTimeoutMs: number;
}

export type ServerConfig =
  | (Common & { transport: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd: string | null })
  | (Common & { transport: 'http'; url: string; headers: Record<string, string> });

export class McpConfigError extends Error {}

const NAME = /^[A-Za-z0-9_-]{1,32}$/;

function expand(v: string, env: NodeJS.ProcessEnv, where: string): string {
  return v.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, k: string) => {
    const val = env[k];
    if (val === undefined) throw new McpConfigError(`${where} references \${${k}}, which is not set in the environment`);
    return val;
  });
}

function strMap(v: unknown, where: string, env: NodeJS.ProcessEnv): Record<string, string> {
  if (v == null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw new McpConfigError(`${where} must be an object of strings`);
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) {
    if (typeof x !== 'string') throw new McpConfigError(`${where}.${k} must be a string`);
    out[k] = expand(x, env, `${where}.${k}`);
  }
  return out;
}

function caps(v: unknown, where: string): Capability[] {
  if (!Array.isArray(v)) throw new McpConfigError(`${where} must be a list of capabilities`);
  const bad = v.filter((c) => !CAPABILITIES.includes(c as Capability));
  if (bad.length)
    throw new McpConfigError(
      `${where}: unknown capabilit${bad.length > 1 ? 'ies' : 'y'} ${bad.join(', ')} (known: ${CAPABILITIES.join(', ')})`,
    );
  return [...new Set(v as Capability[])];
}

function ms(v: unknown, where: string, dflt: number, max: number): number {
  if (v == null) return dflt;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 100 || v > max)
    throw new McpConfigError(`${where} must be an integer from 100 to ${max} (milliseconds)`);
  return v;
}

/** Parses `mcp.servers`; throws McpConfigError naming the key at fault. */
export function parseMcpServers(mcp: unknown, env: NodeJS.ProcessEnv = process.env): ServerConfig[] {
  if (mcp == null) return [];
  if (typeof mcp !== 'object' || Array.isArray(mcp)) throw new McpConfigError('mcp must be an object with a "servers" list');
  const list = (mcp as { servers?: unknown }).servers;
  if (list == null) return [];
  if (!Array.isArray(list)) throw new McpConfigError('mcp.servers must be a list');
  const seen = new Set<string>();
  const out: ServerConfig[] = [];
  list.forEach((raw, i) => {
    const at = `mcp.servers[${i}]`;
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new McpConfigError(`${at} must be an object`);
    const s = raw as Record<string, unknown>;
    if (typeof s.name !== 'string' || !NAME.test(s.name))
      throw new McpConfigError(`${at}.name must be 1-32 letters, digits, "_" or "-" (it becomes part of skill names mcp_<name>_<tool>)`);
    const w = `mcp.servers "${s.name}"`;
    if (seen.has(s.name)) throw new McpConfigError(`${w}: the name is used twice`);
    seen.add(s.name);
    if (s.enabled === false) return;
    const hasCmd = s.command !== undefined;
    const hasUrl = s.url !== undefined;
    if (hasCmd === hasUrl)
      throw new McpConfigError(
        `${w}: give exactly one of "command" (a local program speaking MCP on stdio) or "url" (a Streamable HTTP endpoint)`,
      );
    const toolCaps: Record<string, Capability[]> = {};
    if (s.tool_capabilities != null) {
      if (typeof s.tool_capabilities !== 'object' || Array.isArray(s.tool_capabilities))
        throw new McpConfigError(`${w}.tool_capabilities must map tool names to capability lists`);
      for (const [t, c] of Object.entries(s.tool_capabilities)) toolCaps[t] = caps(c, `${w}.tool_capabilities.${t}`);
    }
    let include: string[] | null = null;
    if (s.include_tools != null) {
      if (!Array.isArray(s.include_tools) || s.include_tools.some((x) => typeof x !== 'string'))
        throw new McpConfigError(`${w}.include_tools must be a list of tool names`);
      include = s.include_tools as string[];
    }
    const common = {
      name: s.name,
      // A local program can do anything its user can, so until the operator says what it needs,
      // its tools require shell_exec (not in the default permission set); a remote one needs network.
      capabilities:
        s.capabilities == null
          ? hasUrl
            ? ['network' as Capability]
            : ['shell_exec' as Capability]
          : caps(s.capabilities, `${w}.capabilities`),
      writeCapabilities: s.write_capabilities == null ? [] : caps(s.write_capabilities, `${w}.write_capabilities`),
      toolCapabilities: toolCaps,
      includeTools: include,
      connectTimeoutMs: ms(s.connect_timeout_ms, `${w}.connect_timeout_ms`, 10_000, 120_000),
      callTimeoutMs: ms(s.call_timeout_ms, `${w}.call_timeout_ms`, 60_000, 600_000),
    };
    if (hasCmd) {
      if (typeof s.command !== 'string' || !s.command.trim()) throw new McpConfigError(`${w}.command must be a program name or path`);
      if (s.args != null && (!Array.isArray(s.args) || s.args.some((a) => typeof a !== 'string')))
        throw new McpConfigError(`${w}.args must be a list of strings`);
      if (s.cwd != null && typeof s.cwd !== 'string') throw new McpConfigError(`${w}.cwd must be a path`);
      out.push({
        ...common,
        transport: 'stdio',
        command: s.command,
        args: ((s.args as string[] | undefined) ?? []).map((a, j) => expand(a, env, `${w}.args[${j}]`)),
        env: strMap(s.env, `${w}.env`, env),
        cwd: (s.cwd as string | undefined) ?? null,
      });
    } else {
      let url: URL;
      try {
        url = new URL(String(s.url));
      } catch {
        throw new McpConfigError(`${w}.url is not a valid URL: ${String(s.url)}`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new McpConfigError(`${w}.url must be http(s), got ${url.protocol}`);
      out.push({ ...common, transport: 'http', url: url.toString(), headers: strMap(s.headers, `${w}.headers`, env) });
    }
  });
  return out;
}

/** Skill name of an upstream tool: mcp_<server>_<tool>, limited to what LLM tool APIs accept. */
export function skillName(server: string, tool: string): string {
  return `mcp_${server}_${tool.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, 64);
}
