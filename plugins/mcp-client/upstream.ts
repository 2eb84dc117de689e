// One external MCP server vigil uses as a client: connect (stdio child process or Streamable
// HTTP), list its tools, call them, and stay honest about its state. A server that is down at
// start, exits, or stops answering pings is marked down and reconnected with exponential backoff
// (with jitter, capped); calls made meanwhile fail at once with the reason instead of hanging.
// Nothing here is fatal to vigil: the worst case is a skill that answers "unavailable".
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import type { SkillResult } from '../../kernel/index.ts';
import type { ServerConfig } from './client-config.ts';

export interface UpstreamTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** The server's readOnlyHint annotation (a hint: it only ever adds requirements here). */
  readOnly: boolean;
}

export type UpstreamState = 'connecting' | 'connected' | 'down' | 'closed';

export interface UpstreamStatus {
  name: string;
  transport: 'stdio' | 'http';
  state: UpstreamState;
  tools: number;
  last_error: string | null;
  connected_at: string | null;
  failures: number;
  next_retry_at: string | null;
  /** Process id of a stdio server while connected. */
  pid: number | null;
}

export interface UpstreamOptions {
  version: string;
  baseDelayMs?: number;
  maxDelayMs?: number;
  pingIntervalMs?: number;
  onState?: (u: Upstream) => void;
}

const firstLine = (e: unknown) =>
  String((e as Error)?.message ?? e)
    .split('\n')[0]
    .slice(0, 300);

export class Upstream {
  state: UpstreamState = 'connecting';
  tools: UpstreamTool[] = [];
  lastError: string | null = null;
  connectedAt: Date | null = null;
  failures = 0;
  nextRetryAt: Date | null = null;
  private client: Client | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private pingTimer: NodeJS.Timeout | null = null;
  /** Bumped per connection, so callbacks of an old connection cannot touch the new one. */
  private generation = 0;
  private connecting: Promise<boolean> | null = null;
  private stderrTail: string[] = [];
  private pid: number | null = null;

  constructor(
    readonly cfg: ServerConfig,
    private readonly log: Logger,
    private readonly opts: UpstreamOptions,
  ) {}

  /** One connection attempt (bounded by connect_timeout_ms); on failure a retry is scheduled. */
  connect(): Promise<boolean> {
    this.connecting ??= this.attempt().finally(() => (this.connecting = null));
    return this.connecting;
  }

  private async attempt(): Promise<boolean> {
    if (this.state === 'closed') return false;
    const gen = ++this.generation;
    this.setState('connecting');
    const client = new Client({ name: 'vigil', version: this.opts.version }, { capabilities: {} });
    let transport: Transport;
    if (this.cfg.transport === 'stdio') {
      const t = new StdioClientTransport({
        command: this.cfg.command,
        args: this.cfg.args,
        env: Object.keys(this.cfg.env).length ? this.cfg.env : undefined,
        cwd: this.cfg.cwd ?? undefined,
        stderr: 'pipe',
      });
      this.stderrTail = [];
      t.stderr?.on('data', (chunk: Buffer) => {
        for (const line of chunk
          .toString('utf8')
          .split('\n')
          .filter((l) => l.trim())) {
          this.stderrTail = [...this.stderrTail.slice(-4), line.slice(0, 300)];
          this.log.debug({ mcp_server: this.cfg.name, stderr: line }, 'MCP server stderr');
        }
      });
      transport = t;
    } else {
      transport = new StreamableHTTPClientTransport(new URL(this.cfg.url), { requestInit: { headers: this.cfg.headers } });
    }
    try {
      await client.connect(transport, { timeout: this.cfg.connectTimeoutMs });
      const tools: UpstreamTool[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: this.cfg.connectTimeoutMs });
        for (const t of page.tools) {
          tools.push({
            name: t.name,
            description: t.description ?? t.title ?? t.name,
            inputSchema: t.inputSchema,
            readOnly: t.annotations?.readOnlyHint === true,
          });
        }
        cursor = page.nextCursor;
      } while (cursor && tools.length < 10_000);
      if (gen !== this.generation || this.isClosed()) {
        await client.close().catch(() => undefined);
        return false;
      }
      this.client = client;
      this.tools = tools;
      this.failures = 0;
      this.lastError = null;
      this.nextRetryAt = null;
      this.connectedAt = new Date();
      this.pid = transport instanceof StdioClientTransport ? transport.pid : null;
      client.onclose = () => {
        if (gen === this.generation)
          this.lost(`the connection closed${this.stderrTail.length ? ` (stderr: ${this.stderrTail.at(-1)})` : ''}`);
      };
      this.startPings(gen);
      this.setState('connected');
      this.log.info({ mcp_server: this.cfg.name, tools: tools.length }, 'MCP server connected');
      return true;
    } catch (e) {
      await client.close().catch(() => undefined);
      if (gen !== this.generation || this.isClosed()) return false;
      const why = firstLine(e) + (this.stderrTail.length ? ` (stderr: ${this.stderrTail.at(-1)})` : '');
      this.failed(`could not connect: ${why}`);
      return false;
    }
  }

  /** A method, so the compiler does not narrow `state` across the awaits above. */
  private isClosed(): boolean {
    return this.state === 'closed';
  }

  private startPings(gen: number) {
    const every = this.opts.pingIntervalMs ?? 30_000;
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => {
      const c = this.client;
      if (!c || gen !== this.generation) return;
      // A busy server may be slow to answer; only a long silence counts as dead.
      c.ping({ timeout: 10_000 }).catch((e) => {
        if (gen === this.generation) this.lost(`ping failed: ${firstLine(e)}`);
      });
    }, every);
    this.pingTimer.unref();
  }

  /** A working connection broke: drop it and reconnect with backoff. */
  private lost(reason: string) {
    if (this.state === 'closed') return;
    this.generation++;
    const c = this.client;
    this.client = null;
    this.pid = null;
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = null;
    void c?.close().catch(() => undefined);
    this.log.warn({ mcp_server: this.cfg.name, reason }, 'MCP server connection lost; reconnecting');
    this.failed(reason);
  }

  private failed(reason: string) {
    this.failures++;
    this.lastError = reason;
    this.connectedAt = null;
    const base = this.opts.baseDelayMs ?? 1000;
    const delay = Math.min(this.opts.maxDelayMs ?? 60_000, base * 2 ** Math.min(this.failures - 1, 16)) * (0.8 + Math.random() * 0.4);
    this.nextRetryAt = new Date(Date.now() + delay);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.connect();
    }, delay);
    this.retryTimer.unref();
    this.setState('down');
    if (this.failures === 1 || this.failures % 10 === 0)
      this.log.warn(
        { mcp_server: this.cfg.name, reason, failures: this.failures, retry_in_ms: Math.round(delay) },
        'MCP server unavailable',
      );
  }

  private setState(s: UpstreamState) {
    if (this.state === 'closed') return;
    this.state = s;
    this.opts.onState?.(this);
  }

  /** Calls one tool; an unavailable server or a failing call is a failed SkillResult, never a throw (except on abort). */
  async call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<SkillResult> {
    const c = this.client;
    if (this.state !== 'connected' || !c) {
      const when = this.nextRetryAt
        ? `; next reconnect attempt in ${Math.max(0, Math.round((this.nextRetryAt.getTime() - Date.now()) / 1000))} s`
        : '';
      return {
        ok: false,
        output: null,
        error: `mcp_server_unavailable: MCP server "${this.cfg.name}" is ${this.state}${this.lastError ? ` (${this.lastError})` : ''}${when}`,
      };
    }
    const gen = this.generation;
    let r: CallToolResult;
    try {
      r = (await c.callTool({ name: tool, arguments: args }, undefined, { signal, timeout: this.cfg.callTimeoutMs })) as CallToolResult;
    } catch (e) {
      if (signal.aborted) throw e;
      // Protocol errors (bad arguments, timeouts) leave the connection usable; anything else
      // (connection closed, fetch failed) means it is gone.
      const connectionLost = e instanceof McpError ? e.code === (ErrorCode.ConnectionClosed as number) : true;
      if (connectionLost && gen === this.generation) this.lost(`call failed: ${firstLine(e)}`);
      return { ok: false, output: null, error: `MCP server "${this.cfg.name}" failed on ${tool}: ${firstLine(e)}` };
    }
    return fromCallResult(r, this.cfg.name);
  }

  status(): UpstreamStatus {
    return {
      name: this.cfg.name,
      transport: this.cfg.transport,
      state: this.state,
      tools: this.tools.length,
      last_error: this.lastError,
      connected_at: this.connectedAt?.toISOString() ?? null,
      failures: this.failures,
      next_retry_at: this.state === 'down' ? (this.nextRetryAt?.toISOString() ?? null) : null,
      pid: this.pid,
    };
  }

  async close(): Promise<void> {
    this.state = 'closed';
    this.generation++;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.pingTimer) clearInterval(this.pingTimer);
    const c = this.client;
    this.client = null;
    await c?.close().catch(() => undefined);
  }
}

/** An MCP tool result -> the SkillResult the agent shows the model. */
export function fromCallResult(r: CallToolResult, server: string): SkillResult {
  const blocks = Array.isArray(r.content) ? r.content : [];
  const text = blocks
    .filter((b): b is Extract<typeof b, { type: 'text' }> => b.type === 'text')
    .map((b) => b.text)
    .join('\n');
  // Binary content is described, not inlined: the model cannot use base64 and it would swamp its context.
  const other = blocks
    .filter((b) => b.type !== 'text')
    .map((b) => {
      if (b.type === 'image' || b.type === 'audio')
        return { type: b.type, mimeType: b.mimeType, bytes: Math.floor((b.data.length * 3) / 4) };
      if (b.type === 'resource_link') return { type: b.type, uri: b.uri, name: b.name };
      if (b.type === 'resource')
        return {
          type: b.type,
          uri: b.resource.uri,
          ...('text' in b.resource ? { text: b.resource.text } : { mimeType: b.resource.mimeType }),
        };
      return { type: (b as { type: string }).type };
    });
  if (r.isError)
    return {
      ok: false,
      output: other.length ? { content: other } : null,
      error: `the tool reported an error (MCP server "${server}"): ${text || 'no message'}`,
    };
  if (r.structuredContent && typeof r.structuredContent === 'object') return { ok: true, output: r.structuredContent };
  return { ok: true, output: other.length ? { text, content: other } : text };
}
