// Tenants and their API keys. Two sources: tenants managed with `vigil tenants ...` live in the
// store (they survive restarts and can be changed while the gateway runs: every request looks
// the key up again, so a rotated key stops working at once); tenants declared in the config
// file are read at start and never written to the store. Only hashes of keys are kept.
import type { AuditSink, Capability, Store, TenantRecord } from '../../../kernel/index.ts';
import { generateApiKey, hashApiKey, keyDisplayPrefix } from './keys.ts';
import { LimitError, parsePermissions, parseRate, positiveInt } from './limits.ts';

export const TENANT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export interface PublicTenant {
  name: string;
  key_prefix: string;
  created_at: string;
  rate_limit: string | null;
  token_quota_per_day: number | null;
  max_concurrent_sessions: number | null;
  permissions: Capability[] | null;
  source: 'store' | 'config';
}

export interface TenantInput {
  name: string;
  rateLimit?: string | null;
  tokenQuotaPerDay?: number | string | null;
  maxConcurrentSessions?: number | string | null;
  permissions?: string | string[] | null;
}

export function publicTenant(t: TenantRecord, source: 'store' | 'config'): PublicTenant {
  return {
    name: t.name,
    key_prefix: t.key_prefix,
    created_at: t.created_at,
    rate_limit: t.rate_limit,
    token_quota_per_day: t.token_quota_per_day,
    max_concurrent_sessions: t.max_concurrent_sessions,
    permissions: (t.permissions as Capability[] | null) ?? null,
    source,
  };
}

function checkName(name: string) {
  if (!TENANT_NAME.test(name)) throw new LimitError(`tenant name must be 1-64 letters, digits, ".", "_" or "-" and start with a letter or digit, got "${name}"`);
}

function limitsOf(i: Omit<TenantInput, 'name'>, where: string) {
  return {
    rate_limit: i.rateLimit != null ? parseRate(i.rateLimit, `${where}rate limit`).text : null,
    token_quota_per_day: i.tokenQuotaPerDay != null ? positiveInt(i.tokenQuotaPerDay, `${where}token quota per day`) : null,
    max_concurrent_sessions: i.maxConcurrentSessions != null ? positiveInt(i.maxConcurrentSessions, `${where}max concurrent sessions`) : null,
    permissions: i.permissions != null ? parsePermissions(i.permissions, `${where}permissions`) : null,
  };
}

/**
 * Reads `tenants:` from the config file. Each entry names its key by hash (`api_key_sha256`) or
 * by an environment variable holding it (`api_key_env`), so no plain key sits in a config file.
 */
export function parseConfigTenants(raw: unknown, env: NodeJS.ProcessEnv = process.env): TenantRecord[] {
  if (raw == null) return [];
  if (!Array.isArray(raw)) throw new LimitError('config "tenants" must be a list of {name, api_key_sha256 | api_key_env, ...}');
  const seen = new Set<string>();
  return raw.map((t, i) => {
    const where = `config tenants[${i}]: `;
    if (!t || typeof t !== 'object') throw new LimitError(`${where}must be an object`);
    const name = String(t.name ?? '');
    try {
      checkName(name);
    } catch (e) {
      throw new LimitError(where + (e as Error).message);
    }
    if (seen.has(name)) throw new LimitError(`${where}tenant "${name}" is declared twice`);
    seen.add(name);
    let hash: string;
    let prefix: string;
    if (typeof t.api_key_sha256 === 'string') {
      if (!/^[a-f0-9]{64}$/i.test(t.api_key_sha256)) throw new LimitError(`${where}api_key_sha256 must be 64 hex digits`);
      hash = t.api_key_sha256.toLowerCase();
      prefix = typeof t.key_prefix === 'string' ? t.key_prefix.slice(0, 12) : 'sha256:' + hash.slice(0, 8);
    } else if (typeof t.api_key_env === 'string') {
      const key = env[t.api_key_env];
      if (!key || key.length < 16) throw new LimitError(`${where}environment variable ${t.api_key_env} must hold the tenant's key (at least 16 characters)`);
      hash = hashApiKey(key);
      prefix = keyDisplayPrefix(key);
    } else {
      throw new LimitError(`${where}give api_key_sha256 (hex SHA-256 of the key) or api_key_env (name of an environment variable holding it)`);
    }
    const limits = limitsOf(
      { rateLimit: t.rate_limit, tokenQuotaPerDay: t.token_quota_per_day, maxConcurrentSessions: t.max_concurrent_sessions, permissions: t.permissions },
      where,
    );
    return { name, key_hash: hash, key_prefix: prefix, created_at: new Date(0).toISOString(), ...limits };
  });
}

export class TenantDirectory {
  private readonly configByName = new Map<string, TenantRecord>();
  private readonly configByHash = new Map<string, TenantRecord>();

  constructor(
    private readonly store: Store,
    configTenants: TenantRecord[] = [],
    private readonly audit?: AuditSink,
  ) {
    for (const t of configTenants) {
      this.configByName.set(t.name, t);
      this.configByHash.set(t.key_hash, t);
    }
  }

  /** True when any tenant exists (then every protected route needs a key). */
  async enabled(): Promise<boolean> {
    return this.configByName.size > 0 || (await this.store.listTenants()).length > 0;
  }

  async byKey(key: string): Promise<(TenantRecord & { source: 'store' | 'config' }) | null> {
    const h = hashApiKey(key);
    const c = this.configByHash.get(h);
    if (c) return { ...c, source: 'config' };
    const s = await this.store.getTenantByKeyHash(h);
    // A store tenant shadowed by a config tenant of the same name is not valid: config wins.
    return s && !this.configByName.has(s.name) ? { ...s, source: 'store' } : null;
  }

  async get(name: string): Promise<(TenantRecord & { source: 'store' | 'config' }) | null> {
    const c = this.configByName.get(name);
    if (c) return { ...c, source: 'config' };
    const s = await this.store.getTenant(name);
    return s ? { ...s, source: 'store' } : null;
  }

  async list(): Promise<PublicTenant[]> {
    const out = new Map<string, PublicTenant>();
    for (const t of await this.store.listTenants()) out.set(t.name, publicTenant(t, 'store'));
    for (const t of this.configByName.values()) out.set(t.name, publicTenant(t, 'config'));
    return [...out.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  async create(input: TenantInput, actor = 'cli'): Promise<{ tenant: PublicTenant; api_key: string }> {
    checkName(input.name);
    if (this.configByName.has(input.name)) throw new LimitError(`tenant "${input.name}" is declared in the config file; change it there`);
    if (await this.store.getTenant(input.name)) throw new LimitError(`tenant "${input.name}" already exists (use rotate-key to issue a new key)`);
    const limits = limitsOf(input, '');
    const key = generateApiKey();
    const rec: TenantRecord = { name: input.name, key_hash: hashApiKey(key), key_prefix: keyDisplayPrefix(key), created_at: new Date().toISOString(), ...limits };
    await this.store.putTenant(rec);
    await this.audit?.record({ tenant: rec.name, type: 'tenant.created', outcome: 'success', actor, severity: 5, detail: { key_prefix: rec.key_prefix, ...limits } });
    return { tenant: publicTenant(rec, 'store'), api_key: key };
  }

  async rotate(name: string, actor = 'cli'): Promise<{ tenant: PublicTenant; api_key: string }> {
    if (this.configByName.has(name)) throw new LimitError(`tenant "${name}" is declared in the config file; change its key there`);
    const cur = await this.store.getTenant(name);
    if (!cur) throw new LimitError(`no tenant named "${name}"`);
    const key = generateApiKey();
    const rec: TenantRecord = { ...cur, key_hash: hashApiKey(key), key_prefix: keyDisplayPrefix(key) };
    await this.store.putTenant(rec);
    await this.audit?.record({ tenant: name, type: 'tenant.key_rotated', outcome: 'success', actor, severity: 6, detail: { old_key_prefix: cur.key_prefix, key_prefix: rec.key_prefix } });
    return { tenant: publicTenant(rec, 'store'), api_key: key };
  }

  async remove(name: string, actor = 'cli'): Promise<boolean> {
    if (this.configByName.has(name)) throw new LimitError(`tenant "${name}" is declared in the config file; remove it there`);
    const cur = await this.store.getTenant(name);
    const ok = await this.store.removeTenant(name);
    if (ok) await this.audit?.record({ tenant: name, type: 'tenant.removed', outcome: 'success', actor, severity: 6, detail: { key_prefix: cur?.key_prefix ?? null } });
    return ok;
  }
}
