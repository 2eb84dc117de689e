// The one door a plugin has into the kernel: setup(ctx). Plugins import only kernel/index.ts.
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Logger } from 'pino';
import type { Registry as PromRegistry } from 'prom-client';
import type { Tracer } from '@opentelemetry/api';
import type { PluginManifest } from './manifest.ts';
import type { Store } from './store/types.ts';
import type { AnalysisTool, ComplianceModule, Detector, Guardrail, LlmBackend, Skill } from './contracts/index.ts';
import type { WorkerPool } from './pool.ts';
import type { WasmHost, WasmInstance } from './wasm/types.ts';
import type { Settings, SettingsInput } from './config.ts';
import type { Command } from 'commander';
import type { DetectorPluginDescriptor } from './registry.ts';

export type Surface = 'api' | 'gateway';

export interface PluginStatus {
  id: string;
  kind: string;
  version: string | null;
  runtime: 'ts' | 'wasm' | null;
  dir: string;
  status: 'loaded' | 'error' | 'disabled';
  error: string | null;
  registered: string[];
  description: string | null;
}

/** Read-only view of what plugins registered; used by strategies and route modules. */
export interface RegistryView {
  detectors(): Detector[];
  detectorPlugins(): DetectorPluginDescriptor[];
  tools(): AnalysisTool[];
  tool(name: string): AnalysisTool | undefined;
  guardrails(): Guardrail[];
  skills(): Skill[];
  skill(name: string): Skill | undefined;
  llms(): LlmBackend[];
  llm(provider: string): LlmBackend | undefined;
  compliance(): ComplianceModule[];
  plugins(): PluginStatus[];
  /** The loaded instance of a WASM plugin (detectors are called through it by the static analyzer). */
  wasmInstance(id: string): WasmInstance | undefined;
}

/**
 * The service map: name -> type of every service a plugin provides with ctx.provide(name, value).
 * Empty here (the kernel holds no domain types); the code that defines a service's type adds it by
 * declaration merging, e.g. in lib/:
 *   declare module '../kernel/plugin-api.ts' { interface Services { analysis: AnalysisEngine } }
 * so services.get('analysis') is typed wherever the augmentation is part of the program.
 */
export interface Services {
  /** Turns a loaded WASM detector plugin into registrations (provided by the static analyzer). */
  'wasm-adapter:detector': WasmAdapter;
  /** Turns a loaded WASM analysis-tool plugin into an AnalysisTool. */
  'wasm-adapter:tool': WasmAdapter;
}

/** Registers what a loaded WASM plugin contributes, through that plugin's own context. The kernel
 *  loads and sandboxes the module; the plugin that provides `wasm-adapter:<kind>` knows what its
 *  output means (findings, for detectors and tools). */
export interface WasmAdapter {
  adapt(a: { manifest: PluginManifest; dir: string; instance: WasmInstance; ctx: PluginContext }): Promise<void> | void;
}

export interface KernelServices {
  store: Store;
  metrics: PromRegistry;
  tracer: Tracer;
  pool: WorkerPool;
  wasm: WasmHost;
  registry: RegistryView;
  settings: Settings;
  /** A service a plugin provided with ctx.provide(name, value). In a plugin, only the names its
   *  manifest declares (provides, requires, requires_optional, requires_lazy) may be looked up. */
  get<K extends keyof Services>(name: K): Services[K] | undefined;
  get<T = unknown>(name: string): T | undefined;
}

export interface PluginContext<C extends Record<string, unknown> = Record<string, unknown>> {
  readonly id: string;
  readonly manifest: PluginManifest;
  /** Absolute path of the plugin folder. */
  readonly dir: string;
  readonly log: Logger;
  /** Config validated against manifest.config (defaults applied). */
  readonly config: C;
  readonly services: KernelServices;
  registerDetector(d: Detector): void;
  registerTool(t: AnalysisTool): void;
  registerGuardrail(g: Guardrail): void;
  registerSkill(s: Skill): void;
  registerLlm(b: LlmBackend): void;
  registerCompliance(m: ComplianceModule): void;
  /** Mounts an encapsulated Fastify plugin on one of the two HTTP surfaces. */
  registerRoutes(surface: Surface, routes: FastifyPluginAsync): void;
  /** Runs on the surface's root instance before any route plugin, so hooks added here (auth,
   *  rate limits) apply to every route of that surface. Use sparingly. */
  registerSurfaceHooks(surface: Surface, fn: (app: FastifyInstance) => Promise<void> | void): void;
  /** Makes a value available to other plugins as services.get(name); the name must be in the
   *  manifest's `provides`. */
  provide(name: string, value: unknown): void;
  /** Runs after every plugin is set up, in plugin order. */
  onStart(fn: () => Promise<void> | void): void;
  /** Runs at shutdown, in reverse plugin order. */
  onClose(fn: () => Promise<void> | void): void;
}

export interface PluginModule<C extends Record<string, unknown> = Record<string, unknown>> {
  setup(ctx: PluginContext<C>): void | Promise<void>;
}

export function definePlugin<C extends Record<string, unknown> = Record<string, unknown>>(p: PluginModule<C>): PluginModule<C> {
  return p;
}

// ---- CLI commands contributed by plugins (manifest `commands`) ----

export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** A kernel booted for one command: no HTTP surfaces unless asked. */
export interface CliKernel {
  services: KernelServices;
  registry: RegistryView;
  log: Logger;
  stop(): Promise<void>;
}

/** What the kernel CLI hands a plugin's command module. */
export interface CliHost {
  io: CliIo;
  version: string;
  setExitCode(code: number): void;
  /** Settings resolved as `vigil serve` resolves them (flags, environment, config file). */
  resolveSettings(input?: SettingsInput): Settings;
  /** Boots a kernel for this command. `select` loads only the plugins it accepts (plus the
   *  providers of what they require); `headless` skips HTTP, telemetry export and ./data. */
  boot(o: { settings: Settings; logger?: Logger; select?: (m: PluginManifest) => boolean; headless?: boolean }): Promise<CliKernel>;
  /** The worker pool the next boot() will use, started now: a command can hand it work (loading
   *  a compiler, say) that runs while the plugins load. */
  startPool(): Promise<WorkerPool>;
  /** Opens the configured store (SQLite under the data dir, or VIGIL_DATABASE_URL). */
  openStore(settings: Settings): Promise<Store>;
}

/** The export `command` of a manifest `commands[].entry` module. */
export interface CliCommand {
  /** Adds the command (and its subcommands and options) to the program. */
  register(program: Command, host: CliHost): void;
}

export function defineCommand(c: CliCommand): CliCommand {
  return c;
}
