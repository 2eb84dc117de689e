// compliance-dpga: the paperwork behind processing personal data with third parties.
//
// Data processing agreements (who processes what, for whom, with which sub-processors, valid
// until when) and transfer impact assessments (data leaving for another country: recipient,
// legal mechanism, risk, next review). Both are per-tenant records. The module's status flags
// an active agreement past its expiry and an assessment past its review date; a terminated
// agreement or a closed assessment is never flagged, however old.
import { definePlugin, Type, type ComplianceStatus } from '../../kernel/index.ts';
import { checkDates, DateString, knownTenants, mountRegister, type RegisterSpec } from '../../lib/gateway/governance/records.ts';
import { HttpError } from '../../kernel/index.ts';

const Strings = (max: number) => Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: max });

const Agreement = Type.Object(
  {
    processor: Type.String({ minLength: 1, maxLength: 200 }),
    controller: Type.String({ minLength: 1, maxLength: 200 }),
    purpose: Type.String({ minLength: 1, maxLength: 2000 }),
    data_categories: Strings(50),
    subprocessors: Type.Optional(Strings(100)),
    signed_at: Type.Optional(DateString('date the agreement was signed')),
    expires_at: Type.Optional(DateString('date the agreement ends')),
    status: Type.Union(['draft', 'active', 'terminated'].map((s) => Type.Literal(s))),
    document_url: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);

const Transfer = Type.Object(
  {
    recipient: Type.String({ minLength: 1, maxLength: 200 }),
    destination_country: Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2 code' }),
    mechanism: Type.Union(
      ['adequacy_decision', 'standard_contractual_clauses', 'binding_corporate_rules', 'derogation', 'other'].map((s) => Type.Literal(s)),
    ),
    data_categories: Strings(50),
    risk_level: Type.Union(['low', 'medium', 'high'].map((s) => Type.Literal(s))),
    supplementary_measures: Type.Optional(Strings(50)),
    assessed_at: DateString('date of the assessment'),
    next_review_at: Type.Optional(DateString('date the assessment must be reviewed')),
    status: Type.Union(['active', 'closed'].map((s) => Type.Literal(s))),
    agreement_id: Type.Optional(Type.String({ maxLength: 128, description: 'the data processing agreement this transfer falls under' })),
  },
  { additionalProperties: false },
);

const past = (v: unknown) => typeof v === 'string' && Date.parse(v) < Date.now();

const AGREEMENTS: RegisterSpec = {
  base: '/api/v1/compliance/dpga/agreements',
  collection: 'dpga.agreements',
  module: 'dpga',
  noun: 'data processing agreement',
  body: Agreement,
  validate: (d) => {
    checkDates(d, ['signed_at', 'expires_at']);
    if (typeof d.signed_at === 'string' && typeof d.expires_at === 'string' && Date.parse(d.expires_at) < Date.parse(d.signed_at)) {
      throw new HttpError(400, 'invalid_request', '"expires_at" must not be before "signed_at"', { field: 'expires_at' });
    }
  },
  derive: (d) => ({ expired: d.status === 'active' && past(d.expires_at) }),
};

const TRANSFERS: RegisterSpec = {
  base: '/api/v1/compliance/dpga/transfers',
  collection: 'dpga.transfers',
  module: 'dpga',
  noun: 'transfer impact assessment',
  body: Transfer,
  validate: (d) => checkDates(d, ['assessed_at', 'next_review_at']),
  derive: (d) => ({ review_overdue: d.status === 'active' && past(d.next_review_at) }),
};

export default definePlugin({
  async setup(ctx) {
    const { store } = ctx.services;
    const status = async (): Promise<ComplianceStatus> => {
      let agreements = 0;
      let activeAgreements = 0;
      let expired = 0;
      let transfers = 0;
      let overdue = 0;
      let highRiskNoMeasures = 0;
      for (const t of await knownTenants((name) => ctx.services.get(name))) {
        for (const r of await store.listRecords(AGREEMENTS.collection, t)) {
          agreements++;
          if (r.data.status === 'active') activeAgreements++;
          if (AGREEMENTS.derive!(r.data).expired) expired++;
        }
        for (const r of await store.listRecords(TRANSFERS.collection, t)) {
          transfers++;
          if (TRANSFERS.derive!(r.data).review_overdue) overdue++;
          if (
            r.data.status === 'active' &&
            r.data.risk_level === 'high' &&
            !(r.data.supplementary_measures as unknown[] | undefined)?.length
          )
            highRiskNoMeasures++;
        }
      }
      const next: string[] = [];
      if (expired) next.push(`${expired} active data processing agreement(s) have expired: renew or terminate them`);
      if (overdue) next.push(`${overdue} transfer impact assessment(s) are past their review date`);
      if (highRiskNoMeasures) next.push(`${highRiskNoMeasures} high-risk transfer(s) record no supplementary measures`);
      if (!agreements) next.push('record the data processing agreements with your LLM providers at /api/v1/compliance/dpga/agreements');
      const attention = expired + overdue + highRiskNoMeasures > 0;
      return {
        id: 'dpga',
        title: 'Data processing agreements and transfers',
        status: attention ? 'attention' : activeAgreements ? 'active' : 'available',
        detail: `${agreements} agreement(s) (${activeAgreements} active, ${expired} expired); ${transfers} transfer impact assessment(s) (${overdue} overdue for review)`,
        next_actions: next,
      };
    };
    ctx.registerCompliance({ id: 'dpga', title: 'Data processing agreements and transfers', status });

    ctx.registerRoutes('gateway', async (app) => {
      app.get(
        '/api/v1/compliance/dpga/status',
        { schema: { summary: 'Status of this compliance module', tags: ['compliance-dpga'] } },
        async () => status(),
      );
      mountRegister(app, store, () => ctx.services.get('audit'), AGREEMENTS);
      mountRegister(app, store, () => ctx.services.get('audit'), TRANSFERS);
    });
  },
});
