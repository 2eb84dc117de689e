// compliance-iso42001: the AI-management records ISO/IEC 42001 expects.
//
// Risk register: per-tenant entries with likelihood and impact (1-5), from which a score and a
// level are derived on every read, so a changed rating can never leave a stale score behind.
// Model inventory: each registered LLM backend with its provider, default model, whether it is
// configured, and the plugin and version that provide it. Human oversight: the approval policy
// in force and the tenant's approval statistics (decided, expired, median time to decide).
import { definePlugin, Type, type ComplianceStatus } from '../../kernel/index.ts';
import { checkDates, DateString, knownTenants, mountRegister, type RegisterSpec } from '../../lib/gateway/governance/records.ts';
import type { ApprovalService } from '../../lib/gateway/contracts.ts';

const Risk = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 200 }),
    description: Type.Optional(Type.String({ maxLength: 5000 })),
    category: Type.Union(
      ['bias', 'safety', 'security', 'privacy', 'transparency', 'robustness', 'accountability', 'other'].map((c) => Type.Literal(c)),
    ),
    likelihood: Type.Integer({ minimum: 1, maximum: 5 }),
    impact: Type.Integer({ minimum: 1, maximum: 5 }),
    owner: Type.String({ minLength: 1, maxLength: 200 }),
    mitigation: Type.Optional(Type.String({ maxLength: 5000 })),
    status: Type.Union(['open', 'mitigating', 'accepted', 'closed'].map((c) => Type.Literal(c))),
    affected_models: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 50 })),
    review_by: Type.Optional(DateString('date of the next review')),
  },
  { additionalProperties: false },
);

export function riskLevel(score: number): 'low' | 'medium' | 'high' | 'critical' {
  return score >= 20 ? 'critical' : score >= 12 ? 'high' : score >= 6 ? 'medium' : 'low';
}

const RISKS: RegisterSpec = {
  base: '/api/v1/compliance/iso42001/risks',
  collection: 'iso42001.risks',
  module: 'iso42001',
  noun: 'AI risk',
  body: Risk,
  validate: (d) => checkDates(d, ['review_by']),
  derive: (d) => {
    const score = Number(d.likelihood) * Number(d.impact);
    const overdue = typeof d.review_by === 'string' && d.status !== 'closed' && Date.parse(d.review_by) < Date.now();
    return { score, level: riskLevel(score), review_overdue: overdue };
  },
};

export default definePlugin({
  async setup(ctx) {
    const { store, registry } = ctx.services;
    const gate = () => ctx.services.get<ApprovalService>('approvals');

    const status = async (): Promise<ComplianceStatus> => {
      let risks = 0;
      let openHigh = 0;
      for (const t of await knownTenants((name) => ctx.services.get(name))) {
        for (const r of await store.listRecords(RISKS.collection, t)) {
          risks++;
          const score = Number(r.data.likelihood) * Number(r.data.impact);
          if (r.data.status === 'open' && score >= 12 && !r.data.mitigation) openHigh++;
        }
      }
      const g = gate();
      const oversight = !!g?.policy && (g.policy.skills.length > 0 || g.policy.capabilities.length > 0);
      const next: string[] = [];
      if (!risks) next.push('record the AI risks of this deployment at /api/v1/compliance/iso42001/risks');
      if (!oversight) next.push('set an approval policy (approvals.skills / approvals.capabilities) so a human oversees risky skill calls');
      if (openHigh) next.push(`${openHigh} open high or critical AI risk(s) have no mitigation recorded`);
      return {
        id: 'iso42001',
        title: 'ISO/IEC 42001',
        status: openHigh ? 'attention' : risks && oversight ? 'active' : 'available',
        detail: `${risks} AI risk(s) registered; ${registry.llms().length} model backend(s) inventoried; human oversight ${oversight ? 'by approval gates' : 'not configured'}`,
        next_actions: next,
      };
    };
    ctx.registerCompliance({ id: 'iso42001', title: 'ISO/IEC 42001', status });

    ctx.registerRoutes('gateway', async (app) => {
      app.get(
        '/api/v1/compliance/iso42001/status',
        { schema: { summary: 'Status of this compliance module', tags: ['compliance-iso42001'] } },
        async () => status(),
      );
      mountRegister(app, store, () => ctx.services.get('audit'), RISKS);
      const tags = ['compliance-iso42001'];
      app.get(
        '/api/v1/compliance/iso42001/models',
        { schema: { summary: 'Model inventory: LLM backends with provider, model and version', tags } },
        async () => {
          const plugins = registry.plugins();
          return {
            models: registry.llms().map((l) => {
              const p = plugins.find((x) => x.registered.includes(`llm:${l.provider}`));
              return {
                provider: l.provider,
                model: l.defaultModel,
                configured: l.configured(),
                plugin: p?.id ?? null,
                version: p?.version ?? null,
              };
            }),
          };
        },
      );
      app.get(
        '/api/v1/compliance/iso42001/oversight',
        { schema: { summary: "Human-oversight hooks: the approval policy and this tenant's approval statistics", tags } },
        async (req) => {
          const g = gate();
          if (!g) return { approval_gates: false, policy: null, stats: null };
          return {
            approval_gates: true,
            policy: { skills: g.policy.skills, capabilities: g.policy.capabilities, ttl_seconds: g.policy.ttlSeconds },
            stats: await g.stats(req.tenant?.name ?? null),
          };
        },
      );
    });
  },
});
