// compliance-gdpr: answers data-subject requests and keeps stored data within its retention.
//
// Access (GET /api/v1/compliance/gdpr/subjects/{subject}) lists the subject's sessions, found by
// the session's subject id or by their e-mail address in message text; export returns them in
// full as JSON; erasure (DELETE) removes those sessions and redacts — never deletes — the audit
// events that concern them, then records a receipt that holds only a hash of the subject.
// Retention (compliance.gdpr.retention_days) purges sessions idle longer than the policy on a
// schedule and on demand. PII scanning reuses the `pii` guardrail layer, reporting kinds and
// counts, never the matched values. All of it is per tenant: a tenant only ever finds, exports
// or erases its own data.
import { randomUUID } from 'node:crypto';
import { definePlugin, HttpError, Type, type ComplianceStatus } from '../../kernel/index.ts';
import type { AuditSink } from '../../lib/gateway/contracts.ts';
import { auditConcerns, emailsFor, findSubject, scanStoredPii, subjectAuditEvents, subjectHash } from './gdpr.ts';

type Config = {
  retention_days: number | null;
  purge_interval_minutes: number;
  max_scan_sessions: number;
};

const Subject = Type.Object({ subject: Type.String({ minLength: 1, maxLength: 320 }) });
const Emails = Type.Object({
  email: Type.Optional(
    Type.Array(Type.String({ maxLength: 320 }), {
      maxItems: 20,
      description: 'extra e-mail addresses of the subject to look for in message text',
    }),
  ),
});

export default definePlugin<Config>({
  async setup(ctx) {
    const { store, settings, registry } = ctx.services;
    const fileCfg = (settings.file.compliance?.gdpr ?? {}) as Record<string, unknown>;
    const rd = fileCfg.retention_days ?? ctx.config.retention_days;
    if (rd != null && (typeof rd !== 'number' || !Number.isInteger(rd) || rd < 1))
      throw new Error(`compliance.gdpr.retention_days must be a positive integer number of days, got ${JSON.stringify(rd)}`);
    const retentionDays = rd ?? null;
    const maxScan = ctx.config.max_scan_sessions;
    const audit = () => ctx.services.get<AuditSink>('audit');
    const record = async (e: Parameters<AuditSink['record']>[0]) => {
      try {
        await audit()?.record(e);
      } catch (err) {
        ctx.log.error({ err }, 'gdpr: audit write failed');
      }
    };
    const pii = () => registry.guardrails().find((g) => g.name === 'pii');

    let lastRun: { at: string; cutoff: string; purged: number; trigger: string } | null = null;
    const purge = async (trigger: string, tenant: string | null) => {
      if (retentionDays == null)
        throw new HttpError(409, 'conflict', 'no retention policy is configured; set compliance.gdpr.retention_days');
      const cutoff = new Date(Date.now() - retentionDays * 86_400_000).toISOString();
      const purged = await store.purgeSessionsBefore(cutoff);
      lastRun = { at: new Date().toISOString(), cutoff, purged, trigger };
      await store.putRecord('gdpr.retention', 'last_run', lastRun);
      await record({
        tenant,
        type: 'gdpr.retention_purge',
        outcome: 'success',
        actor: trigger,
        severity: 4,
        detail: { retention_days: retentionDays, cutoff, sessions_purged: purged },
      });
      return { retention_days: retentionDays, ...lastRun };
    };

    const status = async (): Promise<ComplianceStatus> => {
      const missing: string[] = [];
      if (!ctx.services.get('audit')) missing.push('enable the gateway-audit plugin so data-subject requests and purges are recorded');
      if (!pii()) missing.push('load the pii guardrail plugin so stored data can be scanned for personal data');
      if (retentionDays == null) missing.push('set compliance.gdpr.retention_days in the config file to enforce a retention period');
      const parts = [
        'data-subject access, export and erasure at /api/v1/compliance/gdpr/subjects/{subject}',
        retentionDays != null
          ? `retention ${retentionDays} days, purged every ${ctx.config.purge_interval_minutes} min${lastRun ? ` (last run ${lastRun.at}: ${lastRun.purged} sessions)` : ''}`
          : 'no retention policy',
        pii() ? 'PII scanning with the pii guardrail' : 'PII scanning unavailable',
      ];
      const hard = !ctx.services.get('audit') || !pii();
      return {
        id: 'gdpr',
        title: 'GDPR',
        status: hard ? 'attention' : retentionDays == null ? 'available' : 'active',
        detail: parts.join('; '),
        next_actions: missing,
      };
    };
    ctx.registerCompliance({ id: 'gdpr', title: 'GDPR', status });

    ctx.registerRoutes('gateway', async (app) => {
      app.get(
        '/api/v1/compliance/gdpr/status',
        { schema: { summary: 'Status of this compliance module', tags: ['compliance-gdpr'] } },
        async () => status(),
      );
      const tags = ['compliance-gdpr'];
      const lookup = async (req: { tenant?: { name: string | null }; params: unknown; query: unknown }) => {
        const { subject } = req.params as { subject: string };
        const emails = ((req.query as { email?: string[] }).email ?? []).filter(Boolean);
        const tenant = req.tenant?.name ?? null;
        const found = await findSubject(store, { tenant, subject, emails, maxScan });
        return { tenant, subject, emails: emailsFor(subject, emails), found };
      };
      // Access and export read the same things and say so in the audit log before answering.
      const gather = async (req: Parameters<typeof lookup>[0], type: 'gdpr.access' | 'gdpr.export') => {
        const l = await lookup(req);
        const events = await subjectAuditEvents(store, l.tenant, l.subject, new Set(l.found.map((f) => f.session.id)), l.emails);
        await record({
          tenant: l.tenant,
          type,
          outcome: 'success',
          actor: l.tenant,
          severity: 4,
          detail: { subject_sha256: subjectHash(l.subject), sessions: l.found.length, audit_events: events.length },
        });
        return { ...l, events };
      };
      const subjectSchema = (summary: string) => ({ schema: { summary, tags, params: Subject, querystring: Emails } });

      app.get(
        '/api/v1/compliance/gdpr/subjects/:subject',
        subjectSchema('Data-subject access: the sessions and audit events held about a subject'),
        async (req) => {
          const { subject, emails, found, events } = await gather(req, 'gdpr.access');
          return {
            subject,
            searched: { subject_id: true, emails },
            sessions: found.map((f) => ({
              id: f.session.id,
              created_at: f.session.created_at,
              updated_at: f.session.updated_at,
              matched_by: f.matched_by,
              message_count: f.messages.length,
              title: f.session.meta?.title ?? null,
            })),
            audit_events: events.length,
            export_url: `/api/v1/compliance/gdpr/subjects/${encodeURIComponent(subject)}/export`,
          };
        },
      );

      app.get(
        '/api/v1/compliance/gdpr/subjects/:subject/export',
        subjectSchema('Data-subject export: everything held about the subject as one JSON document'),
        async (req, reply) => {
          const { subject, found, events } = await gather(req, 'gdpr.export');
          reply.header('content-disposition', `attachment; filename="gdpr-export-${subjectHash(subject).slice(0, 12)}.json"`);
          return {
            subject,
            exported_at: new Date().toISOString(),
            sessions: found.map((f) => ({ ...f.session, matched_by: f.matched_by, messages: f.messages })),
            audit_events: events,
          };
        },
      );

      app.delete(
        '/api/v1/compliance/gdpr/subjects/:subject',
        subjectSchema("Erasure: delete the subject's sessions and redact the audit events about them"),
        async (req) => {
          const { tenant, subject, emails, found } = await lookup(req);
          const ids = new Set(found.map((f) => f.session.id));
          let deleted = 0;
          for (const id of ids) if (await store.deleteSession(id, tenant)) deleted++;
          const at = new Date().toISOString();
          const redacted = await store.redactAudit(tenant, (e) =>
            auditConcerns(e, subject, ids, emails) && !(e.detail as { redacted?: boolean })?.redacted
              ? { redacted: true, reason: 'gdpr_erasure', redacted_at: at }
              : null,
          );
          const receipt = {
            kind: 'erasure',
            subject_sha256: subjectHash(subject),
            at,
            sessions_deleted: deleted,
            audit_events_redacted: redacted,
          };
          await store.putRecord('gdpr.requests', randomUUID(), receipt, tenant);
          await record({
            tenant,
            type: 'gdpr.erasure',
            outcome: 'success',
            actor: tenant,
            severity: 6,
            detail: { subject_sha256: receipt.subject_sha256, sessions_deleted: deleted, audit_events_redacted: redacted },
          });
          return receipt;
        },
      );

      app.get(
        '/api/v1/compliance/gdpr/requests',
        { schema: { summary: 'Receipts of erasures carried out for this tenant (subjects appear only as hashes)', tags } },
        async (req) => ({
          requests: (await store.listRecords('gdpr.requests', req.tenant?.name ?? null)).map((r) => ({ id: r.id, ...r.data })),
        }),
      );

      app.get('/api/v1/compliance/gdpr/retention', { schema: { summary: 'The retention policy and its last run', tags } }, async () => ({
        retention_days: retentionDays,
        purge_interval_minutes: ctx.config.purge_interval_minutes,
        last_run: lastRun ?? (await store.getRecord('gdpr.retention', 'last_run')),
      }));

      app.post('/api/v1/compliance/gdpr/retention/run', { schema: { summary: 'Apply the retention policy now', tags } }, async (req) =>
        purge(`api:${req.tenant?.name ?? 'local'}`, req.tenant?.name ?? null),
      );

      app.post(
        '/api/v1/compliance/gdpr/pii-scan',
        { schema: { summary: "Scan this tenant's stored messages for personal data with the pii guardrail", tags } },
        async (req) => {
          const layer = pii();
          if (!layer) throw new HttpError(503, 'unavailable', 'PII scanning needs the pii guardrail plugin, which is not loaded');
          const tenant = req.tenant?.name ?? null;
          const r = await scanStoredPii(store, layer, tenant, maxScan);
          await record({
            tenant,
            type: 'gdpr.pii_scan',
            outcome: 'success',
            actor: tenant,
            severity: 3,
            detail: { scanned_sessions: r.scanned_sessions, messages_with_pii: r.messages_with_pii, by_kind: r.by_kind },
          });
          return r;
        },
      );
    });

    let timer: NodeJS.Timeout | null = null;
    ctx.onStart(async () => {
      if (retentionDays != null) {
        const run = () => purge('schedule', null).catch((err) => ctx.log.error({ err }, 'gdpr retention purge failed'));
        await run();
        timer = setInterval(() => void run(), ctx.config.purge_interval_minutes * 60_000);
        timer.unref();
      }
    });
    ctx.onClose(() => {
      if (timer) clearInterval(timer);
    });
  },
});
