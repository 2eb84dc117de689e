// Boots a real kernel (every discovered plugin) on a temp data directory for governance tests.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kernel } from '../../kernel/kernel.ts';
import { bootKernel } from '../helpers.ts';
import type { SettingsInput } from '../../kernel/config.ts';
import { TenantDirectory } from '../../plugins/gateway-tenancy/directory.ts';
import { createAuditLog } from '../../lib/gateway/governance/audit-log.ts';

export function tempDir(prefix = 'vigil-gov-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface Booted {
  kernel: Kernel;
  dataDir: string;
  req(
    method: string,
    url: string,
    opts?: { key?: string; header?: 'bearer' | 'x-api-key'; body?: unknown },
  ): Promise<{ status: number; json: any; headers: Record<string, any>; body: string }>;
  addTenant(
    name: string,
    o?: { rateLimit?: string; tokenQuotaPerDay?: number; maxConcurrentSessions?: number; permissions?: string[] },
  ): Promise<string>;
  /** Another key of an existing tenant (e.g. an approver with permissions ['approvals_decide']). */
  addKey(tenant: string, label: string, permissions?: string[]): Promise<string>;
  stop(): Promise<void>;
}

export async function boot(input: Omit<SettingsInput, 'dataDir'> & { dataDir?: string } = {}): Promise<Booted> {
  const dataDir = input.dataDir ?? tempDir();
  // The injection layer logs instead of blocking here: these tests are about governance, and
  // must not depend on how another layer's classifier scores a "/skill ..." command.
  const kernel = await bootKernel({
    settings: {
      env: {},
      ...input,
      dataDir,
      config: input.config ?? null,
      overrides: { guardrails: { prompt_injection: { mode: 'log' } }, ...(input.overrides ?? {}) },
    },
    side: 'gateway',
    kernel: { poolThreads: 1 },
  });
  return {
    kernel,
    dataDir,
    async req(method, url, opts = {}) {
      const headers: Record<string, string> = {};
      if (opts.key) {
        if (opts.header === 'x-api-key') headers['x-api-key'] = opts.key;
        else headers.authorization = `Bearer ${opts.key}`;
      }
      const r = await kernel.gateway.inject({
        method: method,
        url,
        headers,
        ...(opts.body !== undefined ? { payload: opts.body as any } : {}),
      });
      let json: any;
      try {
        json = r.body ? JSON.parse(r.body) : null;
      } catch {
        json = null;
      }
      return { status: r.statusCode, json, headers: r.headers, body: r.body };
    },
    async addTenant(name, o = {}) {
      const dir = new TenantDirectory(kernel.store, [], createAuditLog(kernel.store));
      const r = await dir.create({
        name,
        rateLimit: o.rateLimit,
        tokenQuotaPerDay: o.tokenQuotaPerDay,
        maxConcurrentSessions: o.maxConcurrentSessions,
        permissions: o.permissions,
      });
      return r.api_key;
    },
    async addKey(tenant, label, permissions) {
      const dir = new TenantDirectory(kernel.store, [], createAuditLog(kernel.store));
      return (await dir.addKey(tenant, { label, permissions })).api_key;
    },
    stop: () => kernel.stop(),
  };
}

export function fakeIo() {
  let out = '';
  let err = '';
  return {
    io: {
      stdout: { write: (s: string) => ((out += s), true) } as unknown as NodeJS.WritableStream,
      stderr: { write: (s: string) => ((err += s), true) } as unknown as NodeJS.WritableStream,
    },
    out: () => out,
    err: () => err,
  };
}
