// Shared test helpers: a kernel on a throw-away data dir, booted without listening.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { Kernel, type KernelOptions } from '../kernel/kernel.ts';
import { resolveSettings, type SettingsInput } from '../kernel/config.ts';

export function tempDir(prefix = 'vigil-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export async function bootKernel(opts: { settings?: SettingsInput; kernel?: Partial<KernelOptions> } = {}): Promise<Kernel> {
  const dataDir = opts.settings?.dataDir ?? tempDir();
  const settings = resolveSettings({ apiBind: '127.0.0.1:0', bind: '127.0.0.1:0', ...opts.settings, dataDir });
  const k = new Kernel({ settings, logger: pino({ level: process.env.VIGIL_TEST_LOG ?? 'silent' }), poolThreads: 2, ...opts.kernel });
  await k.boot();
  return k;
}
