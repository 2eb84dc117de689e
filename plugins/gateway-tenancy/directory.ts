// The tenant directory (the `tenant-directory` service). Two sources: tenants managed with
// `vigil tenants ...` live in the store (they survive restarts and can be changed while the
// gateway runs: every request looks the key up again, so a rotated key stops working at once);
// tenants declared in the config file are read at start and never written to the store. Only
// hashes of keys are kept.
import type { Capability, Store, TenantRecord } from '../../kernel/index.ts';
import type { AuditSink, TenantDirectory as TenantDirectoryService } from '../../lib/gateway/contracts.ts';
import { generateApiKey, hashApiKey, keyDisplayPrefix } from '../../lib/gateway/governance/keys.ts';
import { LimitError, parsePermissions } from '../../lib/gateway/governance/limits.ts';
import {
  checkName,
  KEY_LABEL,
  limitsOf,
  PRIMARY_KEY,
  type ConfigKey,
  type KeyedTenant,
  type PublicKey,
  type PublicTenant,
  type TenantInput,
} from '../../lib/gateway/governance/tenants.ts';

/** Store collection of a tenant's additional keys (record id = key hash, no tenant column, so a
 *  presented key is found with one indexed lookup). */
const KEYS_COLLECTION = 'tenant_keys';

function publicTenant(t: TenantRecord, source: 'store' | 'config'): PublicTenant {
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

export class TenantDirectory implements TenantDirectoryService {
  private readonly configByName = new Map<string, TenantRecord>();
  private readonly configByHash = new Map<string, { t: TenantRecord; key: ConfigKey | null }>();

  constructor(
    private readonly store: Store,
    configTenants: TenantRecord[] = [],
    private readonly audit?: AuditSink,
  ) {
    for (const t of configTenants) {
      this.configByName.set(t.name, t);
      this.configByHash.set(t.key_hash, { t, key: null });
      for (const k of (t as { keys?: ConfigKey[] }).keys ?? []) this.configByHash.set(k.key_hash, { t, key: k });
    }
  }

  /** The tenant and key a presented API key belongs to (null when it is no valid key). */
  async resolveKey(key: string): Promise<KeyedTenant | null> {
    const h = hashApiKey(key);
    const c = this.configByHash.get(h);
    if (c) {
      const { keys: _k, ...t } = c.t as TenantRecord & { keys?: unknown };
      return c.key
        ? {
            ...t,
            permissions: c.key.permissions,
            key_prefix: c.key.key_prefix,
            source: 'config',
            key_id: `${t.name}/${c.key.label}`,
            key_label: c.key.label,
          }
        : { ...t, source: 'config', key_id: `${t.name}/${PRIMARY_KEY}`, key_label: PRIMARY_KEY };
    }
    const s = await this.store.getTenantByKeyHash(h);
    // A store tenant shadowed by a config tenant of the same name is not valid: config wins.
    if (s)
      return this.configByName.has(s.name) ? null : { ...s, source: 'store', key_id: `${s.name}/${PRIMARY_KEY}`, key_label: PRIMARY_KEY };
    const extra = await this.store.getRecord(KEYS_COLLECTION, h, null);
    if (!extra) return null;
    const owner = await this.store.getTenant(String(extra.tenant));
    // A removed tenant's keys die with it, even if the key record is left behind.
    if (!owner || this.configByName.has(owner.name)) return null;
    const label = String(extra.label);
    return {
      ...owner,
      permissions: (extra.permissions as string[] | null) ?? null,
      key_prefix: String(extra.key_prefix),
      source: 'store',
      key_id: `${owner.name}/${label}`,
      key_label: label,
    };
  }

  /** Issues another key for a store tenant (an approver's, a CI job's), printed once. */
  async addKey(
    name: string,
    input: { label: string; permissions?: string | string[] | null },
    actor = 'cli',
  ): Promise<{ tenant: string; label: string; key_prefix: string; permissions: string[] | null; api_key: string }> {
    if (this.configByName.has(name))
      throw new LimitError(`tenant "${name}" is declared in the config file; add keys there (tenants[].keys)`);
    if (!(await this.store.getTenant(name))) throw new LimitError(`no tenant named "${name}"`);
    if (!KEY_LABEL.test(input.label) || input.label === PRIMARY_KEY)
      throw new LimitError(`key label must be 1-64 letters, digits, ".", "_" or "-" and not "${PRIMARY_KEY}", got "${input.label}"`);
    if ((await this.keys(name)).some((k) => k.label === input.label))
      throw new LimitError(`tenant "${name}" already has a key labelled "${input.label}" (remove it first)`);
    const permissions = input.permissions != null ? parsePermissions(input.permissions, 'permissions') : null;
    const key = generateApiKey();
    const rec = { tenant: name, label: input.label, key_prefix: keyDisplayPrefix(key), permissions, created_at: new Date().toISOString() };
    await this.store.putRecord(KEYS_COLLECTION, hashApiKey(key), rec, null);
    await this.audit?.record({
      tenant: name,
      type: 'tenant.key_added',
      outcome: 'success',
      actor,
      severity: 6,
      detail: { label: rec.label, key_prefix: rec.key_prefix, permissions },
    });
    return { tenant: name, label: rec.label, key_prefix: rec.key_prefix, permissions, api_key: key };
  }

  /** Every key of a tenant (prefixes only, never keys). */
  async keys(name: string): Promise<PublicKey[]> {
    const c = this.configByName.get(name);
    if (c) {
      return [
        {
          tenant: name,
          label: PRIMARY_KEY,
          key_prefix: c.key_prefix,
          permissions: c.permissions,
          created_at: c.created_at,
          source: 'config' as const,
        },
        ...((c as { keys?: ConfigKey[] }).keys ?? []).map((k) => ({
          tenant: name,
          label: k.label,
          key_prefix: k.key_prefix,
          permissions: k.permissions,
          created_at: c.created_at,
          source: 'config' as const,
        })),
      ];
    }
    const t = await this.store.getTenant(name);
    if (!t) return [];
    const extra = (await this.store.listRecords(KEYS_COLLECTION, null)).filter((r) => r.data.tenant === name);
    return [
      {
        tenant: name,
        label: PRIMARY_KEY,
        key_prefix: t.key_prefix,
        permissions: t.permissions,
        created_at: t.created_at,
        source: 'store' as const,
      },
      ...extra.map((r) => ({
        tenant: name,
        label: String(r.data.label),
        key_prefix: String(r.data.key_prefix),
        permissions: (r.data.permissions as string[] | null) ?? null,
        created_at: String(r.data.created_at),
        source: 'store' as const,
      })),
    ].sort((a, b) => (a.label === PRIMARY_KEY ? -1 : b.label === PRIMARY_KEY ? 1 : a.label.localeCompare(b.label)));
  }

  async removeKey(name: string, label: string, actor = 'cli'): Promise<boolean> {
    if (this.configByName.has(name)) throw new LimitError(`tenant "${name}" is declared in the config file; remove the key there`);
    if (label === PRIMARY_KEY) throw new LimitError(`the "${PRIMARY_KEY}" key is replaced with rotate-key, or removed with the tenant`);
    const rows = (await this.store.listRecords(KEYS_COLLECTION, null)).filter((r) => r.data.tenant === name && r.data.label === label);
    for (const r of rows) await this.store.deleteRecord(KEYS_COLLECTION, r.id, null);
    if (rows.length)
      await this.audit?.record({
        tenant: name,
        type: 'tenant.key_removed',
        outcome: 'success',
        actor,
        severity: 6,
        detail: { label, key_prefix: rows[0].data.key_prefix },
      });
    return rows.length > 0;
  }

  /** True when any tenant exists (then every protected route needs a key). */
  async enabled(): Promise<boolean> {
    return this.configByName.size > 0 || (await this.store.hasTenants());
  }

  async byKey(key: string): Promise<KeyedTenant | null> {
    return this.resolveKey(key);
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
    if (await this.store.getTenant(input.name))
      throw new LimitError(`tenant "${input.name}" already exists (use rotate-key to issue a new key)`);
    const limits = limitsOf(input, '');
    const key = generateApiKey();
    const rec: TenantRecord = {
      name: input.name,
      key_hash: hashApiKey(key),
      key_prefix: keyDisplayPrefix(key),
      created_at: new Date().toISOString(),
      ...limits,
    };
    await this.store.putTenant(rec);
    await this.audit?.record({
      tenant: rec.name,
      type: 'tenant.created',
      outcome: 'success',
      actor,
      severity: 5,
      detail: { key_prefix: rec.key_prefix, ...limits },
    });
    return { tenant: publicTenant(rec, 'store'), api_key: key };
  }

  async rotate(name: string, actor = 'cli'): Promise<{ tenant: PublicTenant; api_key: string }> {
    if (this.configByName.has(name)) throw new LimitError(`tenant "${name}" is declared in the config file; change its key there`);
    const cur = await this.store.getTenant(name);
    if (!cur) throw new LimitError(`no tenant named "${name}"`);
    const key = generateApiKey();
    const rec: TenantRecord = { ...cur, key_hash: hashApiKey(key), key_prefix: keyDisplayPrefix(key) };
    await this.store.putTenant(rec);
    await this.audit?.record({
      tenant: name,
      type: 'tenant.key_rotated',
      outcome: 'success',
      actor,
      severity: 6,
      detail: { old_key_prefix: cur.key_prefix, key_prefix: rec.key_prefix },
    });
    return { tenant: publicTenant(rec, 'store'), api_key: key };
  }

  async remove(name: string, actor = 'cli'): Promise<boolean> {
    if (this.configByName.has(name)) throw new LimitError(`tenant "${name}" is declared in the config file; remove it there`);
    const cur = await this.store.getTenant(name);
    const ok = await this.store.removeTenant(name);
    for (const r of (await this.store.listRecords(KEYS_COLLECTION, null)).filter((x) => x.data.tenant === name))
      await this.store.deleteRecord(KEYS_COLLECTION, r.id, null);
    if (ok)
      await this.audit?.record({
        tenant: name,
        type: 'tenant.removed',
        outcome: 'success',
        actor,
        severity: 6,
        detail: { key_prefix: cur?.key_prefix ?? null },
      });
    return ok;
  }
}
