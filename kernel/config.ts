// Settings: defaults < config file (vigil.config.json/yaml or --config) < env < CLI flags.
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';

export interface RateLimit {
  max: number;
  /** Window in milliseconds. */
  windowMs: number;
  /** As written, e.g. "60/min". */
  text: string;
}

export interface Settings {
  /** Repository root (where plugins/ lives). */
  rootDir: string;
  dataDir: string;
  bind: { host: string; port: number };
  apiBind: { host: string; port: number };
  pluginDirs: string[];
  contractRoots: string[];
  workspace: string;
  logLevel: string;
  rateLimitPerKey: RateLimit | null;
  maxConcurrentSessions: number | null;
  tokenQuotaPerDay: number | null;
  /** Host names (besides loopback names and the bind addresses) a request's Host may carry;
   *  anything else is 421 (DNS rebinding). A leading "." allows every subdomain. */
  allowedHosts: string[];
  /** `--api-open`: the analysis API stays keyless even with tenants configured. */
  apiOpen: boolean;
  /** A request body must arrive within this many milliseconds (408 otherwise). */
  bodyTimeoutMs: number;
  /** Requests without a valid key, per client address, once tenants exist (429 beyond). */
  anonymousRateLimit: RateLimit;
  /** What this process serves: both surfaces and analysis jobs (all), or one part of them. */
  role: Role;
  /** Largest timeout (s) an outside analysis request may ask for; larger ones are lowered to it. */
  maxAnalysisTimeoutS?: number;
  /** postgres://… for the shared store (VIGIL_DATABASE_URL / database_url); null = SQLite. */
  databaseUrl: string | null;
  /** redis://… for shared state and the job queue (VIGIL_REDIS_URL / redis_url); null = in process. */
  redisUrl: string | null;
  /** Prefix of every Redis key (VIGIL_REDIS_PREFIX / redis_prefix). */
  redisPrefix: string;
  /** Raw config file content (guardrail modes, permission sets, approval policy, MCP servers, plugin config...). */
  file: Record<string, any>;
  configPath: string | null;
}

export const ROLES = ['all', 'gateway', 'api', 'worker'] as const;
export type Role = (typeof ROLES)[number];

export function parseRole(value: string, flag = '--role'): Role {
  const v = String(value).trim().toLowerCase();
  if (!(ROLES as readonly string[]).includes(v)) throw new ConfigError(`${flag} must be one of ${ROLES.join(', ')}, got "${value}"`);
  return v as Role;
}

export class ConfigError extends Error {
  code = 'invalid_config';
}

export function parseHostPort(value: string, flag: string): { host: string; port: number } {
  const m = /^(\[[^\]]+\]|[^:]+)?:(\d{1,5})$/.exec(value.trim());
  if (!m) throw new ConfigError(`${flag} must be host:port (e.g. 127.0.0.1:3000), got "${value}"`);
  const port = Number(m[2]);
  if (port > 65535) throw new ConfigError(`${flag}: port ${port} is out of range`);
  return { host: (m[1] ?? '127.0.0.1').replace(/^\[|\]$/g, ''), port };
}

/** Units of a COUNT/UNIT rate limit, in milliseconds (the serve flags and per-tenant limits). */
export const RATE_UNITS: Record<string, number> = {
  s: 1000,
  sec: 1000,
  second: 1000,
  m: 60_000,
  min: 60_000,
  minute: 60_000,
  h: 3_600_000,
  hour: 3_600_000,
  d: 86_400_000,
  day: 86_400_000,
};

export function parseRateLimit(value: string, flag = '--rate-limit-per-key'): RateLimit {
  const m = /^\s*(\d+)\s*\/\s*([a-z]+)\s*$/i.exec(value);
  const unit = m?.[2]?.toLowerCase();
  if (!m || !unit || !(unit in RATE_UNITS)) {
    throw new ConfigError(`${flag} must be COUNT/UNIT with unit s, min, h or day (e.g. 60/min), got "${value}"`);
  }
  const max = Number(m[1]);
  if (max < 1) throw new ConfigError(`${flag}: count must be at least 1`);
  return { max, windowMs: RATE_UNITS[unit], text: `${max}/${unit}` };
}

export function parsePositiveInt(value: string | number, flag: string): number {
  const n = typeof value === 'number' ? value : Number(String(value).trim());
  if (!Number.isInteger(n) || n < 1) throw new ConfigError(`${flag} must be a positive integer, got "${value}"`);
  return n;
}

/** "a.example, .corp.example" or a list -> lower-case host names without ports. */
export function parseAllowedHosts(value: unknown, flag = '--allowed-hosts'): string[] {
  if (value == null || value === '') return [];
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : null;
  if (!list || list.some((h) => typeof h !== 'string'))
    throw new ConfigError(`${flag} must be a comma-separated list of host names, got ${JSON.stringify(value)}`);
  const out: string[] = [];
  for (const raw of list as string[]) {
    const h = raw
      .trim()
      .toLowerCase()
      .replace(/^\[|\]$/g, '');
    if (!h) continue;
    if (!/^\.?[a-z0-9_:.-]{1,253}$/.test(h))
      throw new ConfigError(
        `${flag}: "${raw.trim()}" is not a host name (give names such as vigil.example.com or .example.com, without scheme or port)`,
      );
    out.push(h);
  }
  return [...new Set(out)];
}

function parseBool(v: unknown, flag: string): boolean {
  if (typeof v === 'boolean') return v;
  if (v == null || v === '') return false;
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- any config value; a non-primitive just fails the checks below
  const raw = String(v);
  const s = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(s)) return true;
  if (['0', 'false', 'no', 'off'].includes(s)) return false;
  throw new ConfigError(`${flag} must be true or false, got "${raw}"`);
}

export function loadConfigFile(p: string | null): { file: Record<string, any>; configPath: string | null } {
  const candidates = p ? [p] : ['vigil.config.json', 'vigil.config.yaml', 'vigil.config.yml'];
  for (const c of candidates) {
    const abs = path.resolve(c);
    if (!fs.existsSync(abs)) {
      if (p) throw new ConfigError(`config file not found: ${p}`);
      continue;
    }
    const text = fs.readFileSync(abs, 'utf8');
    let parsed: unknown;
    try {
      parsed = abs.endsWith('.json') ? JSON.parse(text) : YAML.parse(text);
    } catch (e) {
      throw new ConfigError(`config file ${c} is not valid ${abs.endsWith('.json') ? 'JSON' : 'YAML'}: ${(e as Error).message}`);
    }
    if (parsed == null) parsed = {};
    if (typeof parsed !== 'object' || Array.isArray(parsed)) throw new ConfigError(`config file ${c} must hold an object`);
    return { file: parsed as Record<string, any>, configPath: abs };
  }
  return { file: {}, configPath: null };
}

export interface SettingsInput {
  rootDir?: string;
  config?: string | null;
  bind?: string;
  apiBind?: string;
  dataDir?: string;
  rateLimitPerKey?: string;
  maxConcurrentSessions?: string | number;
  tokenQuotaPerDay?: string | number;
  maxAnalysisTimeout?: string | number;
  logLevel?: string;
  allowedHosts?: string | string[];
  apiOpen?: boolean;
  role?: string;
  env?: NodeJS.ProcessEnv;
  /** Extra config merged over the file (tests). */
  overrides?: Record<string, any>;
}

export function resolveSettings(input: SettingsInput = {}): Settings {
  const env = input.env ?? process.env;
  const rootDir = input.rootDir ?? path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
  const { file: fileRaw, configPath } = loadConfigFile(input.config ?? env.VIGIL_CONFIG ?? null);
  const file = { ...fileRaw, ...(input.overrides ?? {}) };
  const pick = <T>(flag: T | undefined, envVal: string | undefined, fileVal: any): T | string | undefined => flag ?? envVal ?? fileVal;
  const bindRaw = pick(input.bind, env.VIGIL_BIND, file.bind) ?? '127.0.0.1:3000';
  const apiBindRaw = pick(input.apiBind, env.VIGIL_API_BIND, file.api_bind) ?? '127.0.0.1:8000';
  const rl = pick(input.rateLimitPerKey, env.VIGIL_RATE_LIMIT_PER_KEY, file.rate_limit_per_key);
  const mcs = pick(input.maxConcurrentSessions, env.VIGIL_MAX_CONCURRENT_SESSIONS, file.max_concurrent_sessions);
  const tq = pick(input.tokenQuotaPerDay, env.VIGIL_TOKEN_QUOTA_PER_DAY, file.token_quota_per_day);
  const mat = pick(input.maxAnalysisTimeout, env.VIGIL_MAX_ANALYSIS_TIMEOUT, file.max_analysis_timeout);
  const delim = path.delimiter;
  const list = (v: string | undefined) =>
    v
      ? v
          .split(delim)
          .map((s) => s.trim())
          .filter(Boolean)
      : [];
  const dataDir = path.resolve(String(pick(input.dataDir, env.VIGIL_DATA_DIR, file.data_dir) ?? './data'));
  return {
    rootDir,
    dataDir,
    bind: parseHostPort(String(bindRaw), '--bind'),
    apiBind: parseHostPort(String(apiBindRaw), '--api-bind'),
    pluginDirs: [...list(env.VIGIL_PLUGIN_DIRS), ...((file.plugin_dirs as string[] | undefined) ?? [])].map((p) => path.resolve(p)),
    contractRoots: (list(env.VIGIL_CONTRACT_ROOTS).length
      ? list(env.VIGIL_CONTRACT_ROOTS)
      : ((file.contract_roots as string[]) ?? [process.cwd()])
    ).map((p) => path.resolve(p)),
    workspace: path.resolve(String(env.VIGIL_WORKSPACE ?? file.workspace ?? process.cwd())),
    logLevel: String(input.logLevel ?? env.VIGIL_LOG_LEVEL ?? file.log_level ?? 'info'),
    rateLimitPerKey: rl ? parseRateLimit(String(rl)) : null,
    maxConcurrentSessions: mcs != null ? parsePositiveInt(mcs, '--max-concurrent-sessions') : null,
    tokenQuotaPerDay: tq != null ? parsePositiveInt(tq, '--token-quota-per-day') : null,
    allowedHosts: parseAllowedHosts(pick(input.allowedHosts as string | undefined, env.VIGIL_ALLOWED_HOSTS, file.allowed_hosts)),
    apiOpen: parseBool(input.apiOpen ?? env.VIGIL_API_OPEN ?? file.api_open, '--api-open'),
    bodyTimeoutMs: parsePositiveInt(env.VIGIL_BODY_TIMEOUT_MS ?? file.body_timeout_ms ?? 30_000, 'body_timeout_ms'),
    anonymousRateLimit: parseRateLimit(
      String(env.VIGIL_ANONYMOUS_RATE_LIMIT ?? file.anonymous_rate_limit ?? '120/min'),
      'anonymous_rate_limit',
    ),
    role: parseRole(String(pick(input.role, env.VIGIL_ROLE, file.role) ?? 'all')),
    maxAnalysisTimeoutS: mat != null ? parsePositiveInt(mat, '--max-analysis-timeout') : 300,
    databaseUrl: String(env.VIGIL_DATABASE_URL ?? file.database_url ?? '').trim() || null,
    redisUrl: String(env.VIGIL_REDIS_URL ?? file.redis_url ?? '').trim() || null,
    redisPrefix: String(env.VIGIL_REDIS_PREFIX ?? file.redis_prefix ?? 'vigil:'),
    file,
    configPath,
  };
}
