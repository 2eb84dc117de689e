// The enterprise readiness report: every check is computed from the running instance at
// request time. The gateway core contributes the runtime checks; other plugins add theirs
// through the `readiness` service (a contributed check replaces a built-in one with the same id).
import type { RegistryView } from '../../../kernel/index.ts';
import type { ReadinessCheck, ReadinessRegistry } from '../../../lib/gateway/contracts.ts';

export type CheckProvider = () => Promise<ReadinessCheck[]> | ReadinessCheck[];

export interface ReadinessReport {
  version: string;
  posture: 'ready' | 'needs_attention';
  score: number;
  runtime: { skills_registered: number; active_connections: number; active_sessions: number; uptime_seconds: number };
  checks: Array<Omit<ReadinessCheck, 'next_action'>>;
  next_actions: string[];
}

/** Deployment choices the report always suggests (the spec: auth, SSO, rate limits, approvals). */
export const DEPLOYMENT_ACTIONS = [
  'Wire deployment-specific auth: per-tenant API keys (vigil tenants) or SSO at your ingress.',
  'Set rate limits and quotas for your traffic (--rate-limit-per-key, --token-quota-per-day, --max-concurrent-sessions).',
  'Define an approval policy for skills that write files or run programs.',
];

/** The compliance strategy: one check per registered compliance module, from its status (the
 *  modules only register themselves; the report reduces over them). */
export function complianceChecks(registry: Pick<RegistryView, 'compliance'>): CheckProvider {
  return () =>
    Promise.all(
      registry.compliance().map(async (m): Promise<ReadinessCheck> => {
        const base = { id: `compliance_${m.id}`, category: 'compliance' };
        try {
          const s = await m.status();
          return { ...base, title: s.title, status: s.status, detail: s.detail, next_action: s.next_actions?.[0] };
        } catch (e) {
          // One failing module is reported as such; the other modules' checks still count.
          return { ...base, title: m.title, status: 'attention', detail: `the check failed: ${(e as Error).message}` };
        }
      }),
    );
}

export class ReadinessRegistryImpl implements ReadinessRegistry {
  private readonly builtin: CheckProvider[] = [];
  private readonly contributed: CheckProvider[] = [];

  addBuiltin(p: CheckProvider) {
    this.builtin.push(p);
  }

  private readonly health: CheckProvider[] = [];

  register(provider: CheckProvider, opts: { health?: boolean } = {}): void {
    this.contributed.push(provider);
    if (opts.health) this.health.push(provider);
  }

  /** The checks registered as live dependencies (run by /health on every call). */
  async healthChecks(): Promise<ReadinessCheck[]> {
    return this.collect([], this.health);
  }

  async checks(): Promise<ReadinessCheck[]> {
    return this.collect(this.builtin, this.contributed);
  }

  private async collect(builtin: CheckProvider[], contributed: CheckProvider[]): Promise<ReadinessCheck[]> {
    const byId = new Map<string, ReadinessCheck>();
    const run = async (p: CheckProvider, origin: string) => {
      try {
        for (const c of await p()) byId.set(c.id, c);
      } catch (e) {
        const id = `readiness_provider_${byId.size}`;
        byId.set(id, {
          id,
          category: 'runtime',
          title: `Readiness check (${origin})`,
          status: 'attention',
          detail: `the check failed: ${(e as Error).message}`,
        });
      }
    };
    for (const p of builtin) await run(p, 'gateway');
    for (const p of contributed) await run(p, 'plugin');
    return [...byId.values()];
  }

  async report(version: string, runtime: ReadinessReport['runtime']): Promise<ReadinessReport> {
    const checks = await this.checks();
    const weight = { active: 1, available: 0.5, attention: 0 } as const;
    const score = checks.length ? Math.round((100 * checks.reduce((a, c) => a + weight[c.status], 0)) / checks.length) : 0;
    const rank = { attention: 0, available: 1, active: 2 } as const;
    const actions = [...checks]
      .sort((a, b) => rank[a.status] - rank[b.status])
      .map((c) => c.next_action)
      .filter((x): x is string => !!x);
    return {
      version,
      posture: checks.some((c) => c.status === 'attention') ? 'needs_attention' : 'ready',
      score,
      runtime,
      checks: checks.map(({ next_action: _n, ...c }) => c),
      next_actions: [...new Set([...actions, ...DEPLOYMENT_ACTIONS])],
    };
  }
}
