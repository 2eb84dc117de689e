// Boots a real kernel for gateway tests: temp data dir and workspace, the demo LLM backend,
// and only the plugins a test names (others are disabled through config, so tests do not depend
// on unrelated plugins) — guardrails, tenancy, approvals and audit are opted into per test.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kernel } from '../../kernel/kernel.ts';
import { bootKernel } from '../helpers.ts';

export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
export const CORE = [
  'gateway-core',
  'llm-demo',
  'llm-openai-compatible',
  'skill-files',
  'skill-shell',
  'skill-git',
  'skill-web-search',
  'skill-crypto',
  'skill-contract-audit',
];

// Keys or a model choice in the developer's environment must not change what tests see.
delete process.env.VIGIL_MODEL;

export function tmpDir(prefix = 'vigil-gw-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface BootOptions {
  /** Plugin ids to load besides CORE. */
  extra?: string[];
  /** Replaces CORE entirely. */
  only?: string[];
  config?: Record<string, any>;
  workspace?: string;
}

export async function bootGateway(
  o: BootOptions = {},
): Promise<{ kernel: Kernel; workspace: string; dataDir: string; close: () => Promise<void> }> {
  const keep = new Set([...(o.only ?? CORE), ...(o.extra ?? [])]);
  const all = fs
    .readdirSync(path.join(ROOT, 'plugins'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  const plugins: Record<string, any> = {};
  for (const id of all) if (!keep.has(id)) plugins[id] = { enabled: false };
  for (const [id, cfg] of Object.entries((o.config?.plugins as Record<string, any>) ?? {}))
    plugins[id] = { ...(plugins[id] ?? {}), ...cfg };
  const dataDir = tmpDir('vigil-gw-data-');
  const workspace = o.workspace ?? tmpDir('vigil-gw-ws-');
  const kernel = await bootKernel({
    settings: { dataDir, env: {}, overrides: { llm: { provider: 'demo' }, workspace, ...(o.config ?? {}), plugins } },
    only: [...keep],
    kernel: { poolThreads: 1 },
  });
  const failed = kernel.registry.plugins().filter((p) => keep.has(p.id) && p.status !== 'loaded');
  if (failed.length) throw new Error(`plugins failed to load: ${failed.map((f) => `${f.id}: ${f.error}`).join('; ')}`);
  return {
    kernel,
    workspace,
    dataDir,
    close: async () => {
      await kernel.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface SseEvent {
  event: string;
  data: any;
}

export function parseSse(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter((b) => b.trim() && !b.startsWith(':'))
    .map((b) => {
      const ev = /^event: (.*)$/m.exec(b)?.[1] ?? 'message';
      const data = b
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6))
        .join('\n');
      return { event: ev, data: JSON.parse(data) };
    });
}
