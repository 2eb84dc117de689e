// A whole kernel (every discovered plugin, or one side of them) listening on ephemeral ports over a
// temp data dir, for the edge security tests: what an attacker on the network would see.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kernel } from '../../kernel/kernel.ts';
import { bootKernel } from '../helpers.ts';
import { TenantDirectory } from '../../plugins/gateway-tenancy/directory.ts';
import { createAuditLog } from '../../lib/gateway/governance/audit-log.ts';
import { main } from '../../kernel/cli.ts';

export interface Server {
  kernel: Kernel;
  dataDir: string;
  gateway: string;
  api: string;
  stop(): Promise<void>;
}

export function tempDir(prefix = 'vigil-edge-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export async function serve(
  o: {
    dataDir?: string;
    config?: Record<string, unknown>;
    env?: Record<string, string>;
    listen?: boolean;
    /** Boot one side of the plugins (see bootKernel) for a test about that surface only. */
    side?: 'analysis' | 'gateway';
  } = {},
): Promise<Server> {
  const dataDir = o.dataDir ?? tempDir();
  const kernel = await bootKernel({
    settings: {
      env: o.env ?? {},
      dataDir,
      config: null,
      bind: '127.0.0.1:0',
      apiBind: '127.0.0.1:0',
      overrides: { guardrails: { prompt_injection: { mode: 'log' } }, ...(o.config ?? {}) },
    },
    kernel: { poolThreads: 1 },
    ...(o.side ? { side: o.side } : {}),
  });
  const addrs = o.listen === false ? { gateway: '', api: '' } : await kernel.listen();
  return { kernel, dataDir, gateway: addrs.gateway, api: addrs.api, stop: () => kernel.stop() };
}

export async function addTenant(k: Kernel, name: string, permissions?: string[]): Promise<string> {
  return (await new TenantDirectory(k.store, [], createAuditLog(k.store)).create({ name, permissions })).api_key;
}

export async function addKey(k: Kernel, tenant: string, label: string, permissions?: string[]): Promise<string> {
  return (await new TenantDirectory(k.store, [], createAuditLog(k.store)).addKey(tenant, { label, permissions })).api_key;
}

/** Runs `vigil ...` in-process, as the operator would in a shell. */
export async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io = {
    stdout: { write: (s: string) => ((out += s), true) } as unknown as NodeJS.WritableStream,
    stderr: { write: (s: string) => ((err += s), true) } as unknown as NodeJS.WritableStream,
  };
  const code = await main(['node', 'vigil', ...args], io);
  return { code, out, err };
}

export async function until<T>(fn: () => Promise<T | null | undefined | false>, ms = 10_000, what = 'condition'): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`${what} not reached within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function http(
  base: string,
  method: string,
  url: string,
  o: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...(o.headers ?? {}) };
  if (o.key) headers.authorization = `Bearer ${o.key}`;
  if (o.body !== undefined) headers['content-type'] ??= 'application/json';
  const res = await fetch(base + url, {
    method,
    headers,
    body: o.body === undefined ? undefined : typeof o.body === 'string' ? o.body : JSON.stringify(o.body),
  });
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, json, text, headers: res.headers };
}
