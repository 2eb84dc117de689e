// Tenants and their API keys: names, the public shapes, input checks and the `tenants:` section of
// the config file, shared by gateway-tenancy (whose TenantDirectory is the `tenant-directory`
// service) and the operator CLIs that list tenants without a running gateway (gateway-approvals).
import type { Capability, TenantRecord } from '../../../kernel/index.ts';
import { hashApiKey, keyDisplayPrefix } from './keys.ts';
import { LimitError, parsePermissions, parseRate, positiveInt } from './limits.ts';

export const TENANT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const KEY_LABEL = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** Label of the key created with the tenant (and replaced by rotate-key). */
export const PRIMARY_KEY = 'primary';

/** A tenant as resolved from one presented key: the tenant's limits with the key's permissions. */
export type KeyedTenant = TenantRecord & {
  source: 'store' | 'config';
  /** "<tenant>/<label>": who made a request, for approvals and the audit trail. */
  key_id: string;
  key_label: string;
};

export interface PublicKey {
  tenant: string;
  label: string;
  key_prefix: string;
  permissions: string[] | null;
  created_at: string;
  source: 'store' | 'config';
}

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

export function checkName(name: string) {
  if (!TENANT_NAME.test(name))
    throw new LimitError(`tenant name must be 1-64 letters, digits, ".", "_" or "-" and start with a letter or digit, got "${name}"`);
}

export function limitsOf(i: Omit<TenantInput, 'name'>, where: string) {
  return {
    rate_limit: i.rateLimit != null ? parseRate(i.rateLimit, `${where}rate limit`).text : null,
    token_quota_per_day: i.tokenQuotaPerDay != null ? positiveInt(i.tokenQuotaPerDay, `${where}token quota per day`) : null,
    max_concurrent_sessions:
      i.maxConcurrentSessions != null ? positiveInt(i.maxConcurrentSessions, `${where}max concurrent sessions`) : null,
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
      if (!key || key.length < 16)
        throw new LimitError(`${where}environment variable ${t.api_key_env} must hold the tenant's key (at least 16 characters)`);
      hash = hashApiKey(key);
      prefix = keyDisplayPrefix(key);
    } else {
      throw new LimitError(
        `${where}give api_key_sha256 (hex SHA-256 of the key) or api_key_env (name of an environment variable holding it)`,
      );
    }
    const limits = limitsOf(
      {
        rateLimit: t.rate_limit,
        tokenQuotaPerDay: t.token_quota_per_day,
        maxConcurrentSessions: t.max_concurrent_sessions,
        permissions: t.permissions,
      },
      where,
    );
    const keys = parseConfigKeys(t.keys, name, where, env);
    return { name, key_hash: hash, key_prefix: prefix, created_at: new Date(0).toISOString(), ...limits, ...(keys.length ? { keys } : {}) };
  });
}

export interface ConfigKey {
  label: string;
  key_hash: string;
  key_prefix: string;
  permissions: string[] | null;
}

/** `keys:` of a config tenant: more keys of the same tenant (e.g. an approver's), each with a
 *  label and its own permissions. */
function parseConfigKeys(raw: unknown, tenant: string, where: string, env: NodeJS.ProcessEnv): ConfigKey[] {
  if (raw == null) return [];
  if (!Array.isArray(raw)) throw new LimitError(`${where}keys must be a list of {label, api_key_sha256 | api_key_env, permissions}`);
  const seen = new Set<string>([PRIMARY_KEY]);
  return raw.map((k, j) => {
    const at = `${where}keys[${j}]: `;
    if (!k || typeof k !== 'object') throw new LimitError(`${at}must be an object`);
    const label = String(k.label ?? '');
    if (!KEY_LABEL.test(label)) throw new LimitError(`${at}label must be 1-64 letters, digits, ".", "_" or "-", got "${label}"`);
    if (seen.has(label))
      throw new LimitError(`${at}label "${label}" is used twice for tenant "${tenant}" ("${PRIMARY_KEY}" is the tenant's own key)`);
    seen.add(label);
    let hash: string;
    let prefix: string;
    if (typeof k.api_key_sha256 === 'string' && /^[a-f0-9]{64}$/i.test(k.api_key_sha256)) {
      hash = k.api_key_sha256.toLowerCase();
      prefix = 'sha256:' + hash.slice(0, 8);
    } else if (typeof k.api_key_env === 'string' && (env[k.api_key_env] ?? '').length >= 16) {
      hash = hashApiKey(env[k.api_key_env]!);
      prefix = keyDisplayPrefix(env[k.api_key_env]!);
    } else
      throw new LimitError(
        `${at}give api_key_sha256 (64 hex digits) or api_key_env (an environment variable holding a key of at least 16 characters)`,
      );
    return {
      label,
      key_hash: hash,
      key_prefix: prefix,
      permissions: k.permissions != null ? parsePermissions(k.permissions, `${at}permissions`) : null,
    };
  });
}
