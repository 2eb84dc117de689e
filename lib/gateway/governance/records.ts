// CRUD routes over per-tenant store records, for the compliance registers (AI risks, data
// processing agreements, transfer impact assessments). Bodies are schema-checked, every change
// is audited, and another tenant's record id answers 404 like a missing one.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { HttpError, Type, type Store, type TSchema } from '../../../kernel/index.ts';
import type { AuditSink } from '../contracts.ts';

export interface RegisterSpec {
  /** e.g. /api/v1/compliance/iso42001/risks */
  base: string;
  collection: string;
  /** Module id for the audit trail and OpenAPI tags. */
  module: string;
  noun: string;
  body: TSchema;
  /** Fields computed from the stored data on every read (scores, overdue flags). */
  derive?: (data: Record<string, unknown>) => Record<string, unknown>;
  /** Checks beyond the schema (dates in order...); throw an HttpError 400. */
  validate?: (data: Record<string, unknown>) => void;
}

export interface RegisterEntry {
  id: string;
  updated_at: string;
  [k: string]: unknown;
}

export function readRegister(
  store: Store,
  spec: Pick<RegisterSpec, 'collection' | 'derive'>,
  tenant: string | null,
): Promise<RegisterEntry[]> {
  return store
    .listRecords(spec.collection, tenant)
    .then((rows) => rows.map((r) => ({ ...r.data, ...(spec.derive?.(r.data) ?? {}), id: r.id, updated_at: r.updated_at })));
}

export function mountRegister(app: FastifyInstance, store: Store, audit: () => AuditSink | undefined, spec: RegisterSpec): void {
  const tags = [`compliance-${spec.module}`];
  const Params = Type.Object({ id: Type.String({ pattern: '^[A-Za-z0-9_.:-]{1,128}$' }) });
  const entry = async (tenant: string | null, id: string): Promise<RegisterEntry> => {
    const data = await store.getRecord(spec.collection, id, tenant);
    if (!data) throw new HttpError(404, 'not_found', `no ${spec.noun} ${id}`);
    const rows = await store.listRecords(spec.collection, tenant);
    const updated = rows.find((r) => r.id === id)?.updated_at ?? new Date().toISOString();
    return { ...data, ...(spec.derive?.(data) ?? {}), id, updated_at: updated };
  };
  const note = async (tenant: string | null, id: string, action: string) => {
    try {
      await audit()?.record({
        tenant,
        type: 'compliance.record',
        outcome: 'success',
        actor: tenant,
        severity: 3,
        detail: { module: spec.module, collection: spec.collection, id, action },
      });
    } catch {
      /* the change is stored; a failed audit write is counted by the audit plugin */
    }
  };
  const clean = (b: Record<string, unknown>) => {
    spec.validate?.(b);
    return b;
  };

  app.get(spec.base, { schema: { summary: `List ${spec.noun}s`, tags } }, async (req) => ({
    items: await readRegister(store, spec, req.tenant?.name ?? null),
  }));
  app.post(spec.base, { schema: { summary: `Record a ${spec.noun}`, tags, body: spec.body } }, async (req, reply) => {
    const tenant = req.tenant?.name ?? null;
    const id = randomUUID();
    await store.putRecord(spec.collection, id, clean(req.body as Record<string, unknown>), tenant);
    await note(tenant, id, 'create');
    return reply.code(201).send(await entry(tenant, id));
  });
  app.get(`${spec.base}/:id`, { schema: { summary: `One ${spec.noun}`, tags, params: Params } }, async (req) =>
    entry(req.tenant?.name ?? null, (req.params as { id: string }).id),
  );
  app.put(`${spec.base}/:id`, { schema: { summary: `Replace a ${spec.noun}`, tags, params: Params, body: spec.body } }, async (req) => {
    const tenant = req.tenant?.name ?? null;
    const { id } = req.params as { id: string };
    if (!(await store.getRecord(spec.collection, id, tenant))) throw new HttpError(404, 'not_found', `no ${spec.noun} ${id}`);
    await store.putRecord(spec.collection, id, clean(req.body as Record<string, unknown>), tenant);
    await note(tenant, id, 'update');
    return entry(tenant, id);
  });
  app.delete(`${spec.base}/:id`, { schema: { summary: `Delete a ${spec.noun}`, tags, params: Params } }, async (req, reply) => {
    const tenant = req.tenant?.name ?? null;
    const { id } = req.params as { id: string };
    if (!(await store.deleteRecord(spec.collection, id, tenant))) throw new HttpError(404, 'not_found', `no ${spec.noun} ${id}`);
    await note(tenant, id, 'delete');
    return reply.code(204).send();
  });
}

/** A YYYY-MM-DD (or full ISO) date string; the schema checks the shape, this the calendar. */
export const DateString = (description: string) =>
  Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}(T[0-9:.]+(Z|[+-]\\d{2}:\\d{2})?)?$', description });

export function checkDates(data: Record<string, unknown>, fields: string[]) {
  for (const f of fields) {
    const v = data[f];
    if (typeof v === 'string' && Number.isNaN(Date.parse(v)))
      throw new HttpError(400, 'invalid_request', `"${f}" is not a real date: "${v}"`, { field: f });
  }
}

/** Every tenant whose records a module should reduce over (local mode plus configured tenants). */
export async function knownTenants(get: <T>(name: string) => T | undefined): Promise<Array<string | null>> {
  const dir = get<{ list(): Promise<Array<{ name: string }>> }>('tenant-directory');
  return [null, ...(dir ? (await dir.list()).map((t) => t.name) : [])];
}
