// Plugin manifest (plugin.json): validated before any plugin code is imported.
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

export const PLUGIN_KINDS = ['detector', 'tool', 'guardrail', 'skill', 'llm', 'compliance', 'routes', 'service'] as const;
export type PluginKind = (typeof PLUGIN_KINDS)[number];

export const CAPABILITIES = [
  'file_read',
  'file_write',
  'shell_exec',
  'git_read',
  'web_fetch',
  'network',
  'crypto',
  'contract_analysis',
  'llm_call',
] as const;

const Id = Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,63}$' });
/** A service name: lower-case words, optionally namespaced ("wasm-adapter:detector"). */
const ServiceName = Type.String({ pattern: '^[a-z][a-z0-9-]{0,63}(:[a-z0-9-]{1,63})?$' });
const ServiceList = Type.Array(ServiceName, { uniqueItems: true });

export const ManifestSchema = Type.Object(
  {
    id: Id,
    kind: Type.Union(PLUGIN_KINDS.map((k) => Type.Literal(k))),
    version: Type.String({ pattern: '^\\d+\\.\\d+\\.\\d+([-+][0-9A-Za-z.-]+)?$' }),
    runtime: Type.Union([Type.Literal('ts'), Type.Literal('wasm')]),
    entry: Type.String({ minLength: 1 }),
    description: Type.Optional(Type.String()),
    /** Host capabilities the plugin may use. A WASM plugin gets nothing that is not listed. */
    permissions: Type.Optional(Type.Array(Type.Union(CAPABILITIES.map((c) => Type.Literal(c))))),
    /** JSON schema of the plugin's config; config is validated against it before setup. */
    config: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    /** Config used when the service configuration gives none. */
    defaults: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    /** Plugin ids that must be set up first. */
    dependencies: Type.Optional(Type.Array(Id)),
    /** Services this plugin makes available with ctx.provide(name, value); nothing else may be provided. */
    provides: Type.Optional(ServiceList),
    /** Services this plugin cannot work without: their providers are set up first, and the plugin
     *  fails to load (naming the service) when no loaded plugin provides one. */
    requires: Type.Optional(ServiceList),
    /** Services used when present: their providers, when loaded, are set up first. */
    requires_optional: Type.Optional(ServiceList),
    /** Services looked up only after every plugin is set up (in handlers and start hooks). They do
     *  not order plugins, so two plugins may use each other this way; a lookup during setup fails. */
    requires_lazy: Type.Optional(ServiceList),
    /** CLI commands this plugin contributes: `vigil <name>` imports `entry` (a module exporting
     *  `command: CliCommand`) only when that command runs; `--help` lists them from the manifest. */
    commands: Type.Optional(
      Type.Array(
        Type.Object(
          {
            name: Type.String({ pattern: '^[a-z][a-z0-9-]{0,31}$' }),
            description: Type.String({ minLength: 1 }),
            entry: Type.String({ minLength: 1 }),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    /** Disabled plugins are discovered and listed, never loaded. */
    enabled: Type.Optional(Type.Boolean()),
    /** Kind-specific declarations for WASM plugins. */
    wasm: Type.Optional(
      Type.Object({
        sha256: Type.Optional(Type.String({ pattern: '^[a-f0-9]{64}$' })),
        /** Per-call time limit enforced by the host. */
        timeout_ms: Type.Optional(Type.Integer({ minimum: 10, maximum: 600_000 })),
        /** Linear-memory cap in 64 KiB pages enforced by the host. */
        max_memory_pages: Type.Optional(Type.Integer({ minimum: 1, maximum: 65536 })),
        /** Allowed HTTP hosts (only with the "network" permission). */
        allowed_hosts: Type.Optional(Type.Array(Type.String())),
      }),
    ),
    /** Tool plugins: name, layer and metadata of the analysis tool. */
    tool: Type.Optional(
      Type.Object({
        name: Type.Optional(Type.String()),
        layer: Type.Integer({ minimum: 1, maximum: 9 }),
        modes: Type.Optional(Type.Array(Type.Union([Type.Literal('quick'), Type.Literal('full')]))),
      }),
    ),
    /** Tool plugins that register several tools (one per entry); `tool` is the one-tool form. */
    tools: Type.Optional(
      Type.Array(
        Type.Object({
          name: Type.String({ minLength: 1 }),
          layer: Type.Integer({ minimum: 1, maximum: 9 }),
          modes: Type.Optional(Type.Array(Type.Union([Type.Literal('quick'), Type.Literal('full')]))),
        }),
        { minItems: 1 },
      ),
    ),
    /** Former plugin ids this plugin took over: `plugins.<old id>` settings are read as the
     *  `<key>` section of this plugin's config, so configurations written for them keep working. */
    replaces: Type.Optional(Type.Record(Type.String({ pattern: '^[a-z0-9][a-z0-9-]*$' }), Type.String({ minLength: 1 }))),
    /** Detector plugins (WASM): node types the host sends to the guest, plus rule metadata. */
    detector: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    /** Skill plugins (WASM): name, description, input schema and capabilities. */
    skill: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: true },
);
export type PluginManifest = Static<typeof ManifestSchema>;

export interface ManifestProblem {
  path: string;
  message: string;
}

/** Validates a parsed manifest; `folderName` must equal the id (the folder is the plugin). */
export function validateManifest(
  raw: unknown,
  folderName: string,
): { ok: true; manifest: PluginManifest } | { ok: false; problems: ManifestProblem[] } {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, problems: [{ path: '/', message: 'manifest must be a JSON object' }] };
  }
  const problems: ManifestProblem[] = [];
  for (const err of Value.Errors(ManifestSchema, raw)) {
    problems.push({ path: err.path || '/', message: err.message });
    if (problems.length >= 10) break;
  }
  const m = raw as Partial<PluginManifest>;
  if (problems.length === 0 && m.id !== folderName) {
    problems.push({ path: '/id', message: `id "${m.id}" must equal the folder name "${folderName}"` });
  }
  if (problems.length === 0 && m.entry && (m.entry.includes('..') || m.entry.startsWith('/'))) {
    problems.push({ path: '/entry', message: 'entry must be a path inside the plugin folder' });
  }
  for (const c of problems.length === 0 ? (m.commands ?? []) : []) {
    if (c.entry.includes('..') || c.entry.startsWith('/'))
      problems.push({ path: '/commands', message: `command ${c.name}: entry must be a path inside the plugin folder` });
  }
  if (problems.length === 0 && m.runtime === 'wasm' && !m.entry!.endsWith('.wasm')) {
    problems.push({ path: '/entry', message: 'a wasm plugin entry must be a .wasm file' });
  }
  if (problems.length === 0 && m.tool && m.tools) {
    problems.push({ path: '/tools', message: 'declare either tool (one tool) or tools (several), not both' });
  }
  if (problems.length === 0 && m.kind === 'tool' && !m.tool && m.runtime === 'wasm') {
    problems.push({ path: '/tool', message: 'a wasm tool plugin must declare tool.layer' });
  }
  if (problems.length) return { ok: false, problems };
  return { ok: true, manifest: raw as PluginManifest };
}
