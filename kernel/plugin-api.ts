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
import type { Settings } from './config.ts';

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
  detectorPlugins(): Array<{
    id: string;
    dir: string;
    entry: string;
    runtime: 'ts' | 'wasm';
    config: Record<string, unknown>;
    manifest: PluginManifest;
  }>;
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

export interface KernelServices {
  store: Store;
  metrics: PromRegistry;
  tracer: Tracer;
  pool: WorkerPool;
  wasm: WasmHost;
  registry: RegistryView;
  settings: Settings;
  /** A service another plugin provided with ctx.provide(name, value). */
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
  /** Makes a value available to other plugins as services.get(name). */
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
