// The gateway as `npm run bench:gateway` and `npm run bench:agent-turn` run it: the core gateway
// plugins, the demo LLM backend, the skills, and (optionally) every guardrail-* plugin, on a
// fresh SQLite store in a temporary data directory.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { Kernel } from '../kernel/kernel.ts';

export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const CORE = [
  'gateway-core',
  'gateway-audit',
  'gateway-tenancy',
  'gateway-approvals',
  'llm-demo',
  'skill-crypto',
  'skill-files',
  'skill-git',
  'skill-web-search',
  'skill-contract-audit',
  'skill-shell',
];

export async function bootGateway(withGuardrails: boolean): Promise<{ k: Kernel; dataDir: string; layers: string[] }> {
  const all = fs.readdirSync(path.join(ROOT, 'plugins'));
  const keep = new Set([...CORE, ...(withGuardrails ? all.filter((p) => p.startsWith('guardrail-')) : [])]);
  const plugins = Object.fromEntries(all.filter((p) => !keep.has(p)).map((p) => [p, { enabled: false }]));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-bench-'));
  const k = new Kernel({
    settingsInput: {
      dataDir,
      env: {},
      overrides: { llm: { provider: 'demo' }, workspace: dataDir, bind: '127.0.0.1:0', api_bind: '127.0.0.1:0', plugins },
    },
    logger: pino({ level: 'silent' }),
    poolThreads: 1,
  });
  await k.boot();
  return { k, dataDir, layers: k.registry.guardrails().map((g) => g.name) };
}
