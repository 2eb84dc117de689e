// The kernel's public API: the only module plugins import.
export { definePlugin, defineCommand } from './plugin-api.ts';
export type {
  PluginContext,
  PluginModule,
  KernelServices,
  Services,
  RegistryView,
  PluginStatus,
  Surface,
  WasmAdapter,
  CliCommand,
  CliHost,
  CliIo,
  CliKernel,
} from './plugin-api.ts';
export type { PluginManifest, PluginKind } from './manifest.ts';
export { CAPABILITIES } from './manifest.ts';
export { RATE_UNITS } from './config.ts';
export type { DetectorPluginDescriptor } from './registry.ts';
export type * from './contracts/index.ts';
export type * from './store/types.ts';
export type { Settings, RateLimit } from './config.ts';
export type { WorkerPool } from './pool.ts';
export type { WasmHost, WasmInstance } from './wasm/types.ts';
export { WasmPluginError } from './wasm/types.ts';
export { HttpError, sendError } from './errors.ts';
export * from '../schemas/finding.ts';
export { Type } from '@sinclair/typebox';
export type { Static, TSchema } from '@sinclair/typebox';
