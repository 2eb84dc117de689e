// Discovery and loading. Every folder with a plugin.json under plugins/ (and VIGIL_PLUGIN_DIRS)
// is a plugin. The manifest and config are validated before any plugin code runs; a plugin that
// fails (bad manifest, missing dependency, throwing setup, broken WASM) is recorded with its id
// and reason and the others load regardless.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Ajv } from 'ajv';
import type { Logger } from 'pino';
import { validateManifest, type PluginManifest } from './manifest.ts';
import type { KernelServices, PluginContext, PluginModule, PluginStatus, Surface } from './plugin-api.ts';
import type { Registry } from './registry.ts';
import type { AnalysisTool, Skill } from './contracts/index.ts';
// eslint-disable-next-line vigil/layers -- known debt (issue #16): becomes a plugin-contributed command/adapter
import { findingId } from '../lib/analysis/ids.ts';
import { parseProtects, type Protection } from './protect.ts';
import type { Finding } from '../schemas/finding.ts';

export interface Discovered {
  dir: string;
  folder: string;
  manifest: PluginManifest | null;
  error: string | null;
  /** The manifest's `protects` (read even from an invalid manifest: fail closed). */
  protects: Protection[];
}

/** Lists plugin folders in the given roots (a root that does not exist is skipped). */
export function discoverPlugins(roots: string[]): Discovered[] {
  const out: Discovered[] = [];
  for (const root of roots) {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(root, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const ent of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (!ent.isDirectory() || ent.name.startsWith('.') || ent.name === 'node_modules') continue;
      const dir = path.join(root, ent.name);
      const mf = path.join(dir, 'plugin.json');
      if (!fs.existsSync(mf)) continue;
      let raw: unknown;
      try {
        raw = JSON.parse(fs.readFileSync(mf, 'utf8'));
      } catch (e) {
        out.push({ dir, folder: ent.name, manifest: null, error: `plugin.json is not valid JSON: ${(e as Error).message}`, protects: [] });
        continue;
      }
      const protects = parseProtects((raw as { protects?: unknown } | null)?.protects);
      const v = validateManifest(raw, ent.name);
      if (!v.ok) {
        out.push({
          dir,
          folder: ent.name,
          manifest: null,
          error: 'invalid manifest: ' + v.problems.map((p) => `${p.path} ${p.message}`).join('; '),
          protects,
        });
        continue;
      }
      out.push({ dir, folder: ent.name, manifest: v.manifest, error: null, protects });
    }
  }
  return out;
}

/** Orders plugins so dependencies come first; reports missing and cyclic dependencies. */
export function orderByDependencies(items: Discovered[]): { ordered: Discovered[]; failed: Array<{ d: Discovered; error: string }> } {
  const byId = new Map<string, Discovered>();
  const failed: Array<{ d: Discovered; error: string }> = [];
  for (const d of items) {
    if (!d.manifest) continue;
    if (byId.has(d.manifest.id)) {
      failed.push({ d, error: `duplicate plugin id "${d.manifest.id}" (already found in ${byId.get(d.manifest.id)!.dir})` });
      continue;
    }
    byId.set(d.manifest.id, d);
  }
  const ordered: Discovered[] = [];
  const state = new Map<string, 'visiting' | 'done' | 'failed'>();
  const visit = (id: string, chain: string[]): boolean => {
    const s = state.get(id);
    if (s === 'done') return true;
    if (s === 'failed') return false;
    const d = byId.get(id)!;
    if (s === 'visiting') {
      failed.push({ d, error: `dependency cycle: ${[...chain, id].join(' -> ')}` });
      state.set(id, 'failed');
      return false;
    }
    state.set(id, 'visiting');
    for (const dep of d.manifest!.dependencies ?? []) {
      if (!byId.has(dep)) {
        failed.push({ d, error: `missing dependency "${dep}"` });
        state.set(id, 'failed');
        return false;
      }
      if (!visit(dep, [...chain, id])) {
        if (state.get(id) !== 'failed') failed.push({ d, error: `dependency "${dep}" failed to load` });
        state.set(id, 'failed');
        return false;
      }
    }
    state.set(id, 'done');
    ordered.push(d);
    return true;
  };
  for (const id of byId.keys()) visit(id, []);
  return { ordered, failed };
}

const ajv = new Ajv({ allErrors: true, useDefaults: true, coerceTypes: false, strict: false });

export function resolvePluginConfig(
  manifest: PluginManifest,
  fromSettings: unknown,
): { ok: true; config: Record<string, unknown> } | { ok: false; error: string } {
  const config = { ...(manifest.defaults ?? {}), ...((fromSettings as Record<string, unknown>) ?? {}) };
  if (manifest.config) {
    let validate;
    try {
      validate = ajv.compile({ type: 'object', ...manifest.config });
    } catch (e) {
      return { ok: false, error: `config schema in plugin.json is not a valid JSON schema: ${(e as Error).message}` };
    }
    if (!validate(config)) {
      return { ok: false, error: 'invalid config: ' + ajv.errorsText(validate.errors, { dataVar: 'config' }) };
    }
  }
  return { ok: true, config };
}

// A setup that never settles must not hold the whole service hostage.
const setupTimeoutMs = () => Number(process.env.VIGIL_PLUGIN_SETUP_TIMEOUT_MS) || 15_000;

export interface LoadOptions {
  roots: string[];
  services: KernelServices;
  registry: Registry;
  log: Logger;
  /** Per-plugin config from the service config file: { [id]: {...} }. */
  pluginConfig: Record<string, any>;
  /** Load only the plugins this accepts, plus their dependencies; the rest are not imported. */
  select?: (m: PluginManifest) => boolean;
}

export async function loadPlugins(opts: LoadOptions): Promise<PluginStatus[]> {
  const { registry, log } = opts;
  let found = discoverPlugins(opts.roots);
  if (opts.select) {
    const byId = new Map(found.filter((d) => d.manifest).map((d) => [d.manifest!.id, d]));
    const keep = new Set<string>();
    const add = (id: string) => {
      if (keep.has(id) || !byId.has(id)) return;
      keep.add(id);
      for (const dep of byId.get(id)!.manifest!.dependencies ?? []) add(dep);
    };
    for (const d of byId.values()) if (opts.select(d.manifest!)) add(d.manifest!.id);
    found = found.filter((d) => d.manifest && keep.has(d.manifest.id));
  }
  // Recorded before anything loads: a security plugin that fails at any step (manifest, config,
  // dependency, setup, start hook, surface hook) leaves its routes answering 503, not open.
  for (const d of found) if (d.protects.length) registry.protections.set(d.manifest?.id ?? d.folder, d.protects);
  const setStatus = (s: PluginStatus) => {
    registry.statuses.set(s.id, s);
    if (s.status === 'error') log.error({ plugin: s.id, reason: s.error }, `plugin ${s.id} failed to load: ${s.error}`);
  };
  for (const d of found) {
    if (d.error)
      setStatus({
        id: d.folder,
        kind: 'unknown',
        version: null,
        runtime: null,
        dir: d.dir,
        status: 'error',
        error: d.error,
        registered: [],
        description: null,
      });
  }
  const { ordered, failed } = orderByDependencies(found);
  for (const f of failed) {
    const m = f.d.manifest!;
    setStatus({
      id: m.id,
      kind: m.kind,
      version: m.version,
      runtime: m.runtime,
      dir: f.d.dir,
      status: 'error',
      error: f.error,
      registered: [],
      description: m.description ?? null,
    });
  }
  for (const d of ordered) {
    const m = d.manifest!;
    const base = { id: m.id, kind: m.kind, version: m.version, runtime: m.runtime, dir: d.dir, description: m.description ?? null };
    const cfgIn = opts.pluginConfig[m.id];
    if (m.enabled === false || cfgIn?.enabled === false) {
      setStatus({ ...base, status: 'disabled', error: null, registered: [] });
      continue;
    }
    const deps = m.dependencies ?? [];
    const badDep = deps.find((x) => registry.statuses.get(x)?.status !== 'loaded');
    if (badDep) {
      setStatus({ ...base, status: 'error', error: `dependency "${badDep}" is not loaded`, registered: [] });
      continue;
    }
    const { enabled: _e, ...cfgRest } = (cfgIn ?? {}) as Record<string, unknown>;
    const cfg = resolvePluginConfig(m, cfgRest);
    if (!cfg.ok) {
      setStatus({ ...base, status: 'error', error: cfg.error, registered: [] });
      continue;
    }
    const registered: string[] = [];
    try {
      if (m.runtime === 'ts') await loadTsPlugin(d.dir, m, cfg.config, opts, registered);
      else await loadWasmPlugin(d.dir, m, cfg.config, opts, registered);
      setStatus({ ...base, status: 'loaded', error: null, registered });
      log.debug({ plugin: m.id, registered }, 'plugin loaded');
    } catch (e) {
      setStatus({ ...base, status: 'error', error: (e as Error).message || String(e), registered: [] });
    }
  }
  return registry.plugins();
}

function allowed(kind: string, what: string): boolean {
  // A tool plugin may also contribute detectors: its rules then run in the static analyzer's one
  // traversal (layers 7 and 8) and the registry hands their module to the static worker.
  return kind === what || kind === 'service' || (kind === 'tool' && what === 'detector');
}

function makeContext(dir: string, m: PluginManifest, config: Record<string, unknown>, opts: LoadOptions, registered: string[]) {
  const { registry } = opts;
  let open = true;
  // The kernel's own WASM wrappers register on the plugin's behalf (a WASM detector is also a
  // drop-in tool), so the kind check applies to plugin code only.
  let kernelWrapper = false;
  const guard = (what: string) => {
    if (!open) throw new Error(`plugin ${m.id}: registration after setup is not allowed (${what})`);
    if (!kernelWrapper && what !== 'routes' && what !== 'provide' && !allowed(m.kind, what)) {
      throw new Error(`plugin ${m.id}: a "${m.kind}" plugin cannot register a ${what}`);
    }
  };
  const pending = {
    detectors: [] as any[],
    tools: [] as AnalysisTool[],
    guardrails: [] as any[],
    skills: [] as Skill[],
    llms: [] as any[],
    compliance: [] as any[],
    routes: [] as Array<{ surface: Surface; fn: any }>,
    hooks: [] as Array<{ surface: Surface; fn: any }>,
    provides: [] as Array<[string, unknown]>,
    start: [] as any[],
    close: [] as any[],
  };
  const ctx: PluginContext = {
    id: m.id,
    manifest: m,
    dir,
    log: opts.log.child({ plugin: m.id }),
    config,
    services: opts.services,
    registerDetector: (x) => (guard('detector'), pending.detectors.push(x)),
    registerTool: (x) => (guard('tool'), pending.tools.push({ ...x, plugin: x.plugin ?? m.id, runtime: x.runtime ?? m.runtime })),
    registerGuardrail: (x) => (guard('guardrail'), pending.guardrails.push(x)),
    registerSkill: (x) => (guard('skill'), pending.skills.push({ ...x, plugin: x.plugin ?? m.id, runtime: x.runtime ?? m.runtime })),
    registerLlm: (x) => (guard('llm'), pending.llms.push(x)),
    registerCompliance: (x) => (guard('compliance'), pending.compliance.push(x)),
    registerRoutes: (surface, fn) => {
      guard('routes');
      if (surface !== 'api' && surface !== 'gateway') throw new Error(`plugin ${m.id}: unknown surface "${String(surface)}"`);
      pending.routes.push({ surface, fn });
    },
    registerSurfaceHooks: (surface, fn) => {
      guard('routes');
      if (surface !== 'api' && surface !== 'gateway') throw new Error(`plugin ${m.id}: unknown surface "${String(surface)}"`);
      pending.hooks.push({ surface, fn });
    },
    provide: (name, value) => (guard('provide'), pending.provides.push([name, value])),
    onStart: (fn) => pending.start.push(fn),
    onClose: (fn) => pending.close.push(fn),
  };
  // Commit everything at once, only when setup succeeded: a failing plugin leaves no half-registration.
  const commit = () => {
    open = false;
    for (const t of pending.tools)
      if (registry.toolMap.has(t.name))
        throw new Error(`plugin ${m.id}: tool "${t.name}" is already registered by ${registry.toolMap.get(t.name)!.plugin}`);
    for (const s of pending.skills)
      if (registry.skillMap.has(s.name)) throw new Error(`plugin ${m.id}: skill "${s.name}" is already registered`);
    for (const d of pending.detectors) {
      registry.detectorList.push(d);
      registered.push(`detector:${d.meta?.id}`);
    }
    if (pending.detectors.length)
      registry.detectorDescriptors.push({ id: m.id, dir, entry: path.join(dir, m.entry), runtime: m.runtime, config, manifest: m });
    for (const t of pending.tools) {
      registry.toolMap.set(t.name, t);
      registered.push(`tool:${t.name}`);
    }
    for (const g of pending.guardrails) {
      registry.guardrailList.push(g);
      registered.push(`guardrail:${g.name}`);
    }
    for (const s of pending.skills) {
      registry.skillMap.set(s.name, s);
      registered.push(`skill:${s.name}`);
    }
    for (const l of pending.llms) {
      registry.llmMap.set(l.provider, l);
      registered.push(`llm:${l.provider}`);
    }
    for (const c of pending.compliance) {
      registry.complianceList.push(c);
      registered.push(`compliance:${c.id}`);
    }
    for (const r of pending.routes) {
      registry.routes.push({ plugin: m.id, ...r });
      registered.push(`routes:${r.surface}`);
    }
    for (const h of pending.hooks) {
      registry.surfaceHooks.push({ plugin: m.id, ...h });
      registered.push(`hooks:${h.surface}`);
    }
    for (const [k, v] of pending.provides) {
      registry.services.set(k, v);
      registered.push(`service:${k}`);
    }
    for (const fn of pending.start) registry.startHooks.push({ plugin: m.id, fn });
    for (const fn of pending.close) registry.closeHooks.push({ plugin: m.id, fn });
  };
  return { ctx, commit, close: () => (open = false), asKernel: () => (kernelWrapper = true) };
}

async function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let t: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<T>((_, rej) => (t = setTimeout(() => rej(new Error(`${what} did not finish within ${ms} ms`)), ms))),
    ]);
  } finally {
    clearTimeout(t);
  }
}

async function loadTsPlugin(dir: string, m: PluginManifest, config: Record<string, unknown>, opts: LoadOptions, registered: string[]) {
  const entry = path.join(dir, m.entry);
  if (!fs.existsSync(entry)) throw new Error(`entry file ${m.entry} not found`);
  let mod: any;
  try {
    mod = await import(pathToFileURL(entry).href);
  } catch (e) {
    throw new Error(`import failed: ${(e as Error).message}`, { cause: e });
  }
  const plugin: PluginModule | undefined =
    typeof mod?.default?.setup === 'function' ? mod.default : typeof mod?.setup === 'function' ? mod : undefined;
  if (!plugin) throw new Error(`entry ${m.entry} exports no setup(ctx) (use export default definePlugin({ setup }))`);
  const c = makeContext(dir, m, config, opts, registered);
  try {
    await withTimeout(
      Promise.resolve().then(() => plugin.setup(c.ctx)),
      setupTimeoutMs(),
      'setup',
    );
  } catch (e) {
    c.close();
    throw new Error(`setup threw: ${(e as Error).message}`, { cause: e });
  }
  c.commit();
}

/** WASM plugins get a TS wrapper per kind; the guest runs in the host's sandbox. */
async function loadWasmPlugin(dir: string, m: PluginManifest, config: Record<string, unknown>, opts: LoadOptions, registered: string[]) {
  const wasmPath = path.join(dir, m.entry);
  if (!fs.existsSync(wasmPath)) throw new Error(`${m.entry} not found — build it with: vigil plugin build ${dir}`);
  // An unpinned module could be swapped on disk unnoticed: the hash in the manifest is required.
  if (!m.wasm?.sha256)
    throw new Error(
      `wasm.sha256 is missing from plugin.json; a WASM module loads only with its hash pinned — write it with: vigil plugin build ${dir}`,
    );
  const stringConfig = Object.fromEntries(Object.entries(config).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
  const inst = await opts.services.wasm.load({
    id: m.id,
    wasmPath,
    sha256: m.wasm?.sha256,
    permissions: m.permissions ?? [],
    config: stringConfig,
    timeoutMs: m.wasm?.timeout_ms,
    maxMemoryPages: m.wasm?.max_memory_pages,
    allowedHosts: m.wasm?.allowed_hosts,
  });
  const c = makeContext(dir, m, config, opts, registered);
  c.asKernel();
  try {
    if (m.kind === 'detector') {
      const meta = (m.detector?.meta ?? {}) as Record<string, any>;
      if (!meta.id || !meta.title || !meta.severity || !meta.category)
        throw new Error('a wasm detector needs detector.meta with id, title, severity and category');
      const exp = typeof m.detector?.export === 'string' ? m.detector.export : 'detect';
      if (!(await inst.functionExists(exp))) throw new Error(`the module does not export "${exp}"`);
      // Visitors of WASM detectors run inside the static analyzer (which collects the declared
      // node types and calls the guest); here the detector is listed and exposed as a drop-in tool.
      c.ctx.registerDetector({ meta: meta as any, create: () => ({}) });
      c.ctx.registerTool(wasmDetectorTool(m, opts.services));
    } else if (m.kind === 'skill') {
      const s = (m.skill ?? {}) as Record<string, any>;
      const exp = String(s.export ?? 'call');
      if (!(await inst.functionExists(exp))) throw new Error(`the module does not export "${exp}"`);
      c.ctx.registerSkill({
        name: String(s.name ?? m.id),
        description: String(s.description ?? m.description ?? ''),
        inputSchema: (s.input_schema as Record<string, unknown>) ?? { type: 'object' },
        capabilities: m.permissions ?? [],
        runtime: 'wasm',
        async call(input, ctx) {
          try {
            const out = await inst.callJson<unknown>(exp, input, { signal: ctx.signal });
            return { ok: true, output: out };
          } catch (e) {
            return { ok: false, output: null, error: (e as Error).message };
          }
        },
      });
    } else if (m.kind === 'tool') {
      c.ctx.registerTool(wasmAnalyzerTool(m, inst));
    } else {
      throw new Error(`kind "${m.kind}" cannot be a wasm plugin (detector, skill or tool only)`);
    }
  } catch (e) {
    c.close();
    await inst.close();
    throw e;
  }
  c.commit();
  opts.registry.wasmInstances.set(m.id, inst);
}

/** A WASM detector is also a tool of its own, so POST /analyze/tool/{id}/ runs just that rule. */
function wasmDetectorTool(m: PluginManifest, services: KernelServices): AnalysisTool {
  return {
    name: m.id,
    layer: 1,
    description: m.description ?? `WASM detector ${m.id}`,
    builtin: false,
    modes: [],
    runtime: 'wasm',
    async availability() {
      const s = services.get<{ analyze: (...args: any[]) => any }>('static-analyzer');
      return s ? { available: true } : { available: false, reason: 'the static-analyzer plugin that hosts detectors is not loaded' };
    },
    async run(input, runOpts) {
      const s = services.get<{ analyze(i: unknown, o: unknown): Promise<{ findings: Finding[]; error?: string | null; status?: any }> }>(
        'static-analyzer',
      );
      if (!s) return { status: 'not_available', findings: [], error: 'static-analyzer plugin is not loaded' };
      const r = await s.analyze(input, { ...runOpts, only: [m.id] });
      return { findings: r.findings.map((f) => ({ ...f, tools: [m.id] })), error: r.error ?? null, status: r.status };
    },
  };
}

/** A WASM analysis tool: export (default "analyze") gets {source, file} and answers {findings: [...]}. */
function wasmAnalyzerTool(m: PluginManifest, inst: import('./wasm/types.ts').WasmInstance): AnalysisTool {
  const t = m.tool!;
  const exp = String((t as any).export ?? 'analyze');
  return {
    name: t.name ?? m.id,
    layer: t.layer,
    description: m.description ?? '',
    builtin: false,
    modes: t.modes ?? ['full'],
    runtime: 'wasm',
    async availability() {
      return (await inst.functionExists(exp)) ? { available: true } : { available: false, reason: `module does not export ${exp}` };
    },
    async run(input, runOpts) {
      const out = await inst.callJson<{ findings?: any[] }>(
        exp,
        { source: input.source, file: input.file },
        { signal: runOpts.signal, timeoutMs: Math.max(1, runOpts.deadline - Date.now()) },
      );
      if (!out || !Array.isArray(out.findings)) throw new Error(`plugin ${m.id}: output has no findings array`);
      return {
        findings: out.findings.map((f): Finding => {
          const line = Math.max(1, Number(f.line) || 1);
          return {
            id: findingId({
              detector: m.id + ':' + (f.rule ?? f.messageId ?? ''),
              contract: f.contract ?? null,
              function: f.function ?? null,
              code: `${line}:${f.title ?? ''}`,
            }),
            detector: String(f.rule ?? m.id),
            title: String(f.title ?? m.id),
            description: String(f.description ?? f.title ?? ''),
            severity: ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'].includes(f.severity) ? f.severity : 'MEDIUM',
            confidence: typeof f.confidence === 'number' ? Math.min(1, Math.max(0, f.confidence)) : 0.5,
            category: f.category ?? 'other',
            swc_id: f.swc_id ?? null,
            cwe_id: f.cwe_id ?? null,
            location: {
              file: input.file,
              line,
              end_line: Math.max(line, Number(f.end_line) || line),
              contract: f.contract ?? null,
              function: f.function ?? null,
            },
            tools: [t.name ?? m.id],
            layers: [t.layer],
            recommendation: String(f.recommendation ?? ''),
          };
        }),
      };
    },
  };
}
