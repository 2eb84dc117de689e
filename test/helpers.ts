// Shared test helpers: the one way tests boot a kernel (on a throw-away data dir, without listening).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { Kernel, type KernelOptions } from '../kernel/kernel.ts';
import { resolveSettings, type Settings, type SettingsInput } from '../kernel/config.ts';
import type { PluginManifest } from '../kernel/manifest.ts';

// A full boot imports every plugin (the guardrails' NLP models, the MCP SDK, 64 detectors, 16 tools)
// for ~5 CPU-seconds more than a small one; a test about one surface boots that surface's side.
const ANALYSIS_SERVICES = new Set(['analysis-engine', 'analysis-api', 'remediation']);
// On both sides: the tenancy and audit hooks guard both surfaces; the probes answer on both and
// report the job queue.
const BOTH = new Set(['gateway-tenancy', 'gateway-audit', 'ops-probes', 'analysis-jobs']);
/** The contract-analysis side: engine, detectors, tools (with the LLM backends AI review uses), the
 *  REST API, and the plugins on both surfaces. */
export const analysisSide = (m: PluginManifest): boolean =>
  m.kind === 'detector' || m.kind === 'tool' || m.kind === 'llm' || ANALYSIS_SERVICES.has(m.id) || BOTH.has(m.id);
/** The agent-gateway side: everything but the analysis engine, detectors, tools and the REST API. */
export const gatewaySide = (m: PluginManifest): boolean => m.kind !== 'detector' && m.kind !== 'tool' && !ANALYSIS_SERVICES.has(m.id);

export function tempDir(prefix = 'vigil-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface BootOptions {
  settings?: SettingsInput;
  /** Resolved settings to use as they are (dataDir and binds included). */
  resolved?: Settings;
  kernel?: Partial<KernelOptions>;
  /** Load only these plugins (plus the providers of what they require); the others are not
   *  even imported. Default: every plugin. */
  only?: string[];
  /** Load only the plugins of one side (see analysisSide, gatewaySide); default: every plugin. */
  side?: 'analysis' | 'gateway';
  /** Run the builtin tools' self-tests after start (the health report's); off unless a test asks,
   *  because they compete with the test for the CPU for a minute. */
  selfTests?: boolean;
  /** Boot and return without calling boot() (a test that drives boot itself). */
  noBoot?: boolean;
}

/** Boots a kernel for a test. Every test that needs a kernel gets it here. */
export async function bootKernel(opts: BootOptions = {}): Promise<Kernel> {
  const settings =
    opts.resolved ??
    resolveSettings({ apiBind: '127.0.0.1:0', bind: '127.0.0.1:0', ...opts.settings, dataDir: opts.settings?.dataDir ?? tempDir() });
  if (!opts.selfTests) {
    const plugins = (settings.file.plugins ?? {}) as Record<string, Record<string, unknown>>;
    settings.file.plugins = { ...plugins, 'analysis-engine': { self_test_on_start: false, ...(plugins['analysis-engine'] ?? {}) } };
  }
  const only = opts.only ? new Set(opts.only) : null;
  const side = opts.side === 'analysis' ? analysisSide : opts.side === 'gateway' ? gatewaySide : null;
  const k = new Kernel({
    settings,
    logger: pino({ level: process.env.VIGIL_TEST_LOG ?? 'silent' }),
    poolThreads: 2,
    ...(only ? { select: (m) => only.has(m.id) } : side ? { select: side } : {}),
    ...opts.kernel,
  });
  if (!opts.noBoot) await k.boot();
  return k;
}
