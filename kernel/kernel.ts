// The kernel: a registry, a lifecycle, a worker pool and a WASM host. Start order:
// telemetry -> store -> metrics -> pool -> WASM host -> plugins (dependency order) -> plugin
// start hooks -> HTTP surfaces -> listen. Stop runs the same list in reverse, after the servers
// have stopped accepting and drained in-flight requests.
import path from 'node:path';
import pino, { type Logger } from 'pino';
import type { FastifyInstance } from 'fastify';
import type { Registry as PromRegistry } from 'prom-client';
import { createMetrics } from './metrics.ts';
import type { Telemetry } from './telemetry.ts';
import { SqliteStore } from './store/sqlite.ts';
import { databaseUrlOf, openStore } from './store/open.ts';
import type { Store } from './store/types.ts';
import { TinyWorkerPool, type WorkerPool } from './pool.ts';
import type { WasmHost } from './wasm/types.ts';
import { Registry } from './registry.ts';
import { loadPlugins } from './loader.ts';
import type { PluginManifest } from './manifest.ts';
import type { KernelServices } from './plugin-api.ts';
import { resolveSettings, type Settings, type SettingsInput } from './config.ts';
import { VERSION, ROOT_DIR } from './version.ts';

export interface KernelOptions {
  settings?: Settings;
  settingsInput?: SettingsInput;
  logger?: Logger;
  /** Use an existing store (tests). */
  store?: Store;
  /** Plugin roots; default <root>/plugins plus settings.pluginDirs. */
  pluginRoots?: string[];
  poolThreads?: number;
  /** A pool created before boot (a CLI command that starts work while the plugins load); the
   *  kernel owns it from here and closes it on stop. */
  pool?: WorkerPool;
  /** Load only the plugins this accepts (and what they depend on): `vigil analyze` loads the
   *  analysis plugins its mode needs, not the gateway, the EVM or Z3 it will not use. */
  select?: (m: PluginManifest) => boolean;
  /** No HTTP surfaces, no telemetry exporter, an in-memory store: a one-shot command. */
  headless?: boolean;
}

export class Kernel {
  readonly settings: Settings;
  readonly log: Logger;
  readonly registry = new Registry();
  readonly version = VERSION;
  /** Start/stop steps in the order they ran, for operators and the lifecycle test. */
  readonly lifecycle: string[] = [];
  readonly startedAt = Date.now();
  store!: Store;
  metrics!: PromRegistry;
  telemetry!: Telemetry;
  pool!: WorkerPool;
  wasm!: WasmHost;
  services!: KernelServices;
  api!: FastifyInstance;
  gateway!: FastifyInstance;
  private stopping: Promise<void> | null = null;
  private started = false;

  constructor(private readonly opts: KernelOptions = {}) {
    this.settings = opts.settings ?? resolveSettings(opts.settingsInput);
    this.log = opts.logger ?? pino({ level: this.settings.logLevel, base: { service: 'vigil' } });
  }

  static async start(opts: KernelOptions = {}): Promise<Kernel> {
    const k = new Kernel(opts);
    await k.boot();
    return k;
  }

  /** Loads everything and builds both surfaces, without listening (app.inject() works). */
  async boot(): Promise<void> {
    // Loaded on demand: the OpenTelemetry SDK and Fastify cost a second of start-up a one-shot
    // command does not need.
    if (this.opts.headless) {
      const { trace } = await import('@opentelemetry/api');
      this.telemetry = {
        tracer: trace.getTracer('vigil'),
        exporting: false,
        endpoint: null,
        shutdown: async () => {},
        forceFlush: async () => {},
      };
    } else this.telemetry = await (await import('./telemetry.ts')).startTelemetry({ version: VERSION });
    this.lifecycle.push('start:telemetry');
    // A headless one-shot command (vigil analyze) keeps nothing: an in-memory store, no ./data.
    this.store =
      this.opts.store ??
      (this.opts.headless
        ? new SqliteStore(':memory:')
        : await openStore({ dataDir: this.settings.dataDir, databaseUrl: databaseUrlOf(this.settings) }));
    this.lifecycle.push('start:store');
    this.metrics = createMetrics();
    this.lifecycle.push('start:metrics');
    this.pool = this.opts.pool ?? new TinyWorkerPool({ maxThreads: this.opts.poolThreads });
    this.lifecycle.push('start:pool');
    this.wasm = await createWasmHost(this.log);
    this.lifecycle.push('start:wasm');
    const registry = this.registry;
    this.services = {
      store: this.store,
      metrics: this.metrics,
      tracer: this.telemetry.tracer,
      pool: this.pool,
      wasm: this.wasm,
      registry,
      settings: this.settings,
      get: <T>(name: string) => registry.services.get(name) as T | undefined,
    };
    const roots = this.opts.pluginRoots ?? [path.join(ROOT_DIR, 'plugins'), ...this.settings.pluginDirs];
    await loadPlugins({
      roots,
      services: this.services,
      registry,
      log: this.log,
      pluginConfig: this.settings.file.plugins ?? {},
      select: this.opts.select,
    });
    this.lifecycle.push('start:plugins');
    for (const h of registry.startHooks) {
      try {
        await h.fn();
        this.lifecycle.push(`start:plugin:${h.plugin}`);
      } catch (e) {
        const st = registry.statuses.get(h.plugin);
        if (st) Object.assign(st, { status: 'error', error: `start hook failed: ${(e as Error).message}` });
        this.log.error({ plugin: h.plugin, err: e }, 'plugin start hook failed');
      }
    }
    if (this.opts.headless) {
      this.started = true;
      return;
    }
    const { buildSurface } = await import('./http.ts');
    const st = this.settings;
    const common = {
      logger: this.log,
      tracer: this.telemetry.tracer,
      metrics: this.metrics,
      registry,
      version: VERSION,
      bindHosts: [st.bind.host, st.apiBind.host],
      allowedHosts: st.allowedHosts,
      bodyTimeoutMs: st.bodyTimeoutMs,
    };
    this.api = await buildSurface({
      ...common,
      surface: 'api',
      bodyLimit: 4 * 1024 * 1024,
      title: 'vigil contract-analysis API',
      description: 'Audits Solidity: quick scan, full multi-layer audit, one layer, one tool, remediation, reports.',
    });
    this.gateway = await buildSurface({
      ...common,
      surface: 'gateway',
      bodyLimit: 1024 * 1024,
      title: 'vigil agent gateway',
      description: 'LLM agent with skills, guardrails, tenants, approvals, audit and compliance.',
    });
    await Promise.all([this.api.ready(), this.gateway.ready()]);
    this.lifecycle.push('start:http');
    this.started = true;
  }

  /** Listens on the surfaces of this process's role (a worker serves the API surface only for
   *  /health and /metrics, so orchestrators can probe it). A surface not served is ''. */
  async listen(): Promise<{ api: string; gateway: string }> {
    if (!this.started) await this.boot();
    const role = this.settings.role ?? 'all';
    const gw =
      role === 'all' || role === 'gateway'
        ? await this.gateway.listen({ host: this.settings.bind.host, port: this.settings.bind.port })
        : '';
    const api = role === 'gateway' ? '' : await this.api.listen({ host: this.settings.apiBind.host, port: this.settings.apiBind.port });
    this.lifecycle.push('start:listen');
    return { api, gateway: gw };
  }

  /** Reverse-order shutdown; in-flight requests are drained by Fastify's close(). Idempotent. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      const step = async (name: string, fn: () => unknown) => {
        try {
          await fn();
        } catch (e) {
          this.log.error({ err: e }, `shutdown step ${name} failed`);
        }
        this.lifecycle.push(`stop:${name}`);
      };
      // Drain in-flight requests; a connection that never sends a request (or a stream that
      // never ends) is not "idle" to Node, so after a grace period every socket is cut.
      const grace = Number(process.env.VIGIL_SHUTDOWN_GRACE_MS) || 10_000;
      await step('http', async () => {
        const closing = Promise.all([this.gateway?.close(), this.api?.close()]);
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), grace)));
        if ((await Promise.race([closing, late])) === 'late') {
          this.log.warn({ grace_ms: grace }, 'connections still open after the grace period; closing them');
          for (const app of [this.gateway, this.api]) app?.server.closeAllConnections?.();
          await closing;
        }
        clearTimeout(timer);
      });
      for (const h of [...this.registry.closeHooks].reverse()) await step(`plugin:${h.plugin}`, h.fn);
      await step('plugins', () => undefined);
      await step('wasm', () => this.wasm?.closeAll());
      await step('pool', () => this.pool?.close());
      await step('metrics', () => this.metrics?.clear());
      await step('store', () => this.store?.close());
      await step('telemetry', () => this.telemetry?.shutdown());
    })();
    return this.stopping;
  }
}

async function createWasmHost(log: Logger): Promise<WasmHost> {
  const mod = (await import('./wasm/host.ts')) as Record<string, any>;
  if (typeof mod.ExtismWasmHost === 'function') return new mod.ExtismWasmHost({ log });
  log.warn('WASM host implementation missing; WASM plugins will fail to load');
  return {
    async load(o) {
      throw new Error(`plugin ${o.id}: no WASM host is available in this build`);
    },
    async closeAll() {},
  };
}
