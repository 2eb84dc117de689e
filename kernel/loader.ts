// Discovery and loading. Every folder with a plugin.json under plugins/ (and VIGIL_PLUGIN_DIRS)
// is a plugin. The manifest and config are validated before any plugin code runs; a plugin that
// fails (bad manifest, missing dependency, throwing setup, broken WASM) is recorded with its id
// and reason and the others load regardless.
import fs from 'node:fs';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import type { Logger } from 'pino';
import { validateManifest, type PluginManifest } from './manifest.ts';
import type { KernelServices, PluginContext, PluginModule, PluginStatus, Surface, WasmAdapter } from './plugin-api.ts';
import type { Registry } from './registry.ts';
import type { AnalysisTool, Skill } from './contracts/index.ts';
import { parseProtects, type Protection } from './protect.ts';
import { importModule } from './compiled.js';

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

/** The services a manifest needs, by strength. A WASM detector or tool also needs the adapter
 *  that turns its module's output into registrations (`wasm-adapter:<kind>`). */
export function requiredServices(m: PluginManifest): { hard: string[]; optional: string[]; lazy: string[] } {
  const hard = [...(m.requires ?? [])];
  if (m.runtime === 'wasm' && (m.kind === 'detector' || m.kind === 'tool')) hard.push(`wasm-adapter:${m.kind}`);
  return { hard, optional: [...(m.requires_optional ?? [])], lazy: [...(m.requires_lazy ?? [])] };
}

/** Which plugin provides each service. Two plugins providing one service is ambiguous: both fail. */
export function serviceProviders(items: Discovered[], isDisabled: (m: PluginManifest) => boolean = () => false) {
  const all = new Map<string, string[]>();
  const disabledProviders = new Map<string, string>();
  for (const d of items) {
    const m = d.manifest;
    if (!m) continue;
    for (const s of m.provides ?? []) {
      if (isDisabled(m)) {
        if (!disabledProviders.has(s)) disabledProviders.set(s, m.id);
      } else all.set(s, [...(all.get(s) ?? []), m.id]);
    }
  }
  const providers = new Map<string, string>();
  const conflicts: Array<{ d: Discovered; error: string }> = [];
  for (const [s, ids] of all) {
    if (ids.length === 1) providers.set(s, ids[0]);
    else
      for (const d of items)
        if (d.manifest && ids.includes(d.manifest.id))
          conflicts.push({ d, error: `service "${s}" is provided by more than one plugin (${ids.join(', ')})` });
  }
  return { providers, disabledProviders, conflicts };
}

export interface Ordering {
  ordered: Discovered[];
  failed: Array<{ d: Discovered; error: string }>;
  /** Per plugin id: the plugins that must be loaded for it to load (dependencies, providers of requires). */
  hardDeps: Map<string, Array<{ id: string; why: string }>>;
}

/**
 * Orders plugins so that what a plugin needs is set up before it: its `dependencies`, the providers
 * of its `requires` and (when loaded) of its `requires_optional`. `requires_lazy` does not order.
 * Reports a missing plugin, a missing provider and a cycle (naming every plugin and service on it).
 */
export function orderByDependencies(items: Discovered[], isDisabled: (m: PluginManifest) => boolean = () => false): Ordering {
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
  const { providers, disabledProviders, conflicts } = serviceProviders([...byId.values()], isDisabled);
  const state = new Map<string, 'visiting' | 'done' | 'failed'>();
  for (const c of conflicts) {
    failed.push(c);
    state.set(c.d.manifest!.id, 'failed');
  }
  // Edges: id -> what must come first, with the reason shown in errors.
  const hardDeps = new Map<string, Array<{ id: string; why: string }>>();
  const edges = new Map<string, Array<{ id: string; why: string; hard: boolean }>>();
  for (const [id, d] of byId) {
    if (state.get(id) === 'failed') continue;
    const m = d.manifest!;
    // A disabled plugin is never set up, so it needs nothing: its requires must not turn it into
    // an error (a disabled guardrail whose provider is disabled too would close the gateway).
    if (isDisabled(m)) {
      edges.set(id, []);
      hardDeps.set(id, []);
      continue;
    }
    const list: Array<{ id: string; why: string; hard: boolean }> = [];
    for (const dep of m.dependencies ?? []) list.push({ id: dep, why: `dependency "${dep}"`, hard: true });
    const req = requiredServices(m);
    let missing: string | null = null;
    for (const s of req.hard) {
      const p = providers.get(s);
      if (p === id) continue;
      if (!p) {
        const off = disabledProviders.get(s);
        missing ??= off
          ? `requires service "${s}", whose provider "${off}" is disabled`
          : `requires service "${s}", which no plugin provides`;
        continue;
      }
      list.push({ id: p, why: `service "${s}"`, hard: true });
    }
    for (const s of req.optional) {
      const p = providers.get(s);
      if (p && p !== id) list.push({ id: p, why: `service "${s}"`, hard: false });
    }
    if (missing) {
      failed.push({ d, error: missing });
      state.set(id, 'failed');
      continue;
    }
    edges.set(id, list);
    hardDeps.set(
      id,
      list.filter((e) => e.hard),
    );
  }
  const ordered: Discovered[] = [];
  const visit = (id: string, chain: string[]): boolean => {
    const s = state.get(id);
    if (s === 'done') return true;
    if (s === 'failed') return false;
    const d = byId.get(id)!;
    if (s === 'visiting') {
      const from = chain.findIndex((c) => c.startsWith(id + ' '));
      failed.push({ d, error: `dependency cycle: ${[...chain.slice(from), id].join(' ')}` });
      state.set(id, 'failed');
      return false;
    }
    state.set(id, 'visiting');
    for (const e of edges.get(id) ?? []) {
      if (!byId.has(e.id)) {
        failed.push({ d, error: `missing dependency "${e.id}"` });
        state.set(id, 'failed');
        return false;
      }
      // A provider of an optional service that cannot load is simply absent (a cycle through it is
      // still reported, on the plugin that closes it).
      if (!visit(e.id, [...chain, `${id} -(${e.why})->`]) && (e.hard || state.get(id) === 'failed')) {
        if (state.get(id) !== 'failed') failed.push({ d, error: `${e.why} of plugin "${e.id}" failed to load` });
        state.set(id, 'failed');
        return false;
      }
    }
    state.set(id, 'done');
    ordered.push(d);
    return true;
  };
  for (const id of byId.keys()) visit(id, []);
  return { ordered, failed, hardDeps };
}

const ajv = new Ajv({ allErrors: true, useDefaults: true, coerceTypes: false, strict: false });
// Compiled config validators by schema text: most detectors share one config schema, and an Ajv
// compile costs ~20 ms of CPU, so compiling each distinct schema once saves about a second a boot.
const validators = new Map<string, ValidateFunction>();

export function resolvePluginConfig(
  manifest: PluginManifest,
  fromSettings: unknown,
): { ok: true; config: Record<string, unknown> } | { ok: false; error: string } {
  const config = { ...(manifest.defaults ?? {}), ...((fromSettings as Record<string, unknown>) ?? {}) };
  if (manifest.config) {
    let validate;
    try {
      const schema = { type: 'object', ...manifest.config };
      const key = JSON.stringify(schema);
      validate = validators.get(key);
      if (!validate) validators.set(key, (validate = ajv.compile(schema)));
    } catch (e) {
      return { ok: false, error: `config schema in plugin.json is not a valid JSON schema: ${(e as Error).message}` };
    }
    if (!validate(config)) {
      return { ok: false, error: 'invalid config: ' + ajv.errorsText(validate.errors, { dataVar: 'config' }) };
    }
  }
  return { ok: true, config };
}

/** Moves the settings of the plugins `m` replaces into `cfg` (under the manifest's key for each);
 *  returns an error when the same section is set both ways, since neither can silently win. */
function takeOverConfig(m: PluginManifest, cfg: Record<string, unknown>, all: Record<string, any>, log: Logger): string | null {
  for (const [oldId, key] of Object.entries(m.replaces ?? {})) {
    const old = all[oldId];
    if (old === undefined) continue;
    if (cfg[key] !== undefined)
      return `plugins.${oldId} and plugins.${m.id}.${key} are both set: ${oldId} became part of ${m.id}, keep only plugins.${m.id}.${key}`;
    cfg[key] = old;
    log.warn(
      { plugin: m.id, replaced: oldId },
      `plugins.${oldId} is read as plugins.${m.id}.${key} (${oldId} became part of ${m.id}); move the settings there`,
    );
  }
  return null;
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
  const isDisabled = (m: PluginManifest) => m.enabled === false || opts.pluginConfig[m.id]?.enabled === false;
  if (opts.select) {
    const byId = new Map(found.filter((d) => d.manifest).map((d) => [d.manifest!.id, d]));
    const { providers } = serviceProviders([...byId.values()], isDisabled);
    const keep = new Set<string>();
    // A selected plugin brings what it cannot load without: its dependencies and the providers of its requires.
    const add = (id: string) => {
      if (keep.has(id) || !byId.has(id)) return;
      keep.add(id);
      const m = byId.get(id)!.manifest!;
      for (const dep of m.dependencies ?? []) add(dep);
      for (const svc of requiredServices(m).hard) if (providers.has(svc)) add(providers.get(svc)!);
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
  const { ordered, failed, hardDeps } = orderByDependencies(found, isDisabled);
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
    if (isDisabled(m)) {
      setStatus({ ...base, status: 'disabled', error: null, registered: [] });
      continue;
    }
    const badDep = (hardDeps.get(m.id) ?? []).find((x) => registry.statuses.get(x.id)?.status !== 'loaded');
    if (badDep) {
      const st = registry.statuses.get(badDep.id)?.status ?? 'absent';
      const error = badDep.why.startsWith('dependency')
        ? `dependency "${badDep.id}" is not loaded`
        : `requires ${badDep.why}, but its provider "${badDep.id}" is ${st === 'error' ? 'in error' : st}`;
      setStatus({ ...base, status: 'error', error, registered: [] });
      continue;
    }
    const { enabled: _e, ...cfgRest } = (cfgIn ?? {}) as Record<string, unknown>;
    const moved = takeOverConfig(m, cfgRest, opts.pluginConfig, log);
    if (moved) {
      setStatus({ ...base, status: 'error', error: moved, registered: [] });
      continue;
    }
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
  registry.setupDone = true;
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
  const req = requiredServices(m);
  const provides = new Set(m.provides ?? []);
  const lazy = new Set(req.lazy);
  const declared = new Set([...provides, ...req.hard, ...req.optional, ...lazy]);
  // The plugin's view of the services: only what its manifest declares, so the manifest is the
  // whole truth about what a plugin depends on (and load order can rely on it).
  const get = (name: string): unknown => {
    if (!declared.has(name))
      throw new Error(
        `plugin ${m.id}: services.get("${name}") is not declared in its plugin.json (add it to requires, requires_optional or requires_lazy)`,
      );
    if (lazy.has(name) && !registry.setupDone)
      throw new Error(
        `plugin ${m.id}: service "${name}" is declared requires_lazy, so it can be looked up only after every plugin is set up (in a handler or an onStart hook)`,
      );
    return registry.services.get(name);
  };
  const services: KernelServices = { ...opts.services, get };
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
    services,
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
    provide: (name, value) => {
      guard('provide');
      if (!provides.has(name)) throw new Error(`plugin ${m.id}: provide("${name}") is not declared in its plugin.json provides`);
      pending.provides.push([name, value]);
    },
    onStart: (fn) => pending.start.push(fn),
    onClose: (fn) => pending.close.push(fn),
  };
  // Commit everything at once, only when setup succeeded: a failing plugin leaves no half-registration.
  const commit = () => {
    open = false;
    const given = new Set(pending.provides.map(([k]) => k));
    for (const p of provides)
      if (!given.has(p)) throw new Error(`plugin ${m.id}: plugin.json provides "${p}" but setup did not provide it`);
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
    mod = await importModule(entry);
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
    if (m.kind === 'detector' || m.kind === 'tool') {
      // What a detector's or tool's output means (findings) is analysis knowledge: the plugin that
      // provides the adapter registers on this plugin's behalf. Ordered first as a required service.
      const adapter = opts.registry.services.get(`wasm-adapter:${m.kind}`) as WasmAdapter | undefined;
      if (!adapter) throw new Error(`no loaded plugin adapts WASM ${m.kind} plugins (service "wasm-adapter:${m.kind}")`);
      await adapter.adapt({ manifest: m, dir, instance: inst, ctx: c.ctx });
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
