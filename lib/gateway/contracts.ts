// Service contracts between the gateway core (agent loop, chat routes, readiness) and the
// governance plugins (tenants/auth, audit, approvals, quotas). Each is provided with
// ctx.provide(name, impl) and looked up with services.get(name) (typed by lib/services.ts); when a
// service is absent the gateway runs in single-tenant local mode without it. Here, not in the
// kernel: the kernel knows no gateway domain.
import type { FastifyRequest } from 'fastify';
import type { ApprovalRecord, AuditEvent, Capability, TenantRecord } from '../../kernel/index.ts';
import type { KeyedTenant, PublicKey, PublicTenant, TenantInput } from './governance/tenants.ts';

/** The caller's tenant, set on the request by the auth hook ("tenancy" service). */
export interface TenantContext {
  /** null in single-tenant local mode. */
  name: string | null;
  /** Capabilities this tenant's agent may use; null = the configured default permission set. */
  permissions: Capability[] | null;
  /** Which of the tenant's keys made the request ("<tenant>/<label>"); null/absent for local
   *  callers. The key that caused an approval request may never decide it. */
  key?: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    tenant?: TenantContext;
  }
}

/** services.get<Tenancy>('tenancy') */
export interface Tenancy {
  enabled(): Promise<boolean>;
  /** Resolves the request's tenant (after the auth hook ran). */
  of(req: FastifyRequest): TenantContext;
  /** Called when a chat session starts/ends so the concurrent-session cap can be enforced. */
  sessionOpened(tenant: string | null, sessionId: string): Promise<void>;
  sessionClosed(tenant: string | null, sessionId: string): Promise<void>;
}

/** services.get<AuditSink>('audit') — append-only structured audit log. */
export interface AuditSink {
  record(e: AuditEvent): Promise<void>;
}

/** services.get<UsageMeter>('usage') — daily token quota per tenant. */
export interface UsageMeter {
  /** Throws an HttpError 429 quota_exceeded when the tenant has no tokens left today. */
  assertAvailable(tenant: string | null): Promise<void>;
  consume(tenant: string | null, tokens: number): Promise<void>;
}

export interface SkillCallRequest {
  tenant: string | null;
  sessionId: string;
  skill: string;
  capabilities: Capability[];
  input: Record<string, unknown>;
  toolCallId: string;
  /** The key whose request led to this call (TenantContext.key). */
  key?: string | null;
}

/** services.get<ApprovalGate>('approvals') — human approval policy. */
export interface ApprovalGate {
  /** 'allow' to run now; 'pending' when a human must decide first (the record is stored). */
  check(call: SkillCallRequest): Promise<{ decision: 'allow' } | { decision: 'pending'; approval: ApprovalRecord }>;
  /** Resolves when the approval is decided or expires. */
  waitFor(id: string, tenant: string | null, signal?: AbortSignal): Promise<ApprovalRecord>;
}

/** services.get<AgentRuntime>('agent') — provided by the gateway core. */
export interface AgentRuntime {
  /** Resumes a turn paused on an approval once it is decided (approve runs the call; deny tells the model). */
  resumeAfterApproval(approval: ApprovalRecord): Promise<void>;
  activeSessions(): number;
}

export interface ReadinessCheck {
  id: string;
  category: string;
  title: string;
  status: 'active' | 'available' | 'attention';
  detail: string;
  next_action?: string;
}

/** services.get<ReadinessRegistry>('readiness') — provided by the gateway core; others add checks. */
export interface ReadinessRegistry {
  /** `health: true`: the checks describe a live dependency (an external server) and are cheap, so
   *  the gateway's /health runs them too and reports `attention` ones as degraded. */
  register(provider: () => Promise<ReadinessCheck[]> | ReadinessCheck[], opts?: { health?: boolean }): void;
}

// ---- the `approvals` service as gateway-approvals provides it ----

/** Who decides. A key decides only approvals of its own tenant that another key caused, and only
 *  with the permission approvals_decide; the operator (the `vigil approvals` CLI, or in-process
 *  callers such as tests) decides any. In single-tenant local mode there are no keys to separate:
 *  the local caller is the operator. */
export type Decider =
  { kind: 'operator'; name: string } | { kind: 'key'; tenant: string | null; key: string | null; permissions: readonly string[] | null };

export interface ApprovalPolicy {
  skills: string[];
  capabilities: string[];
  ttlSeconds: number;
}

export interface ApprovalStats {
  pending: number;
  approved: number;
  denied: number;
  expired: number;
  /** Median seconds from request to decision over decided approvals. */
  median_decision_seconds: number | null;
}

export interface ApprovalService extends ApprovalGate {
  readonly policy: ApprovalPolicy;
  get(id: string, tenant: string | null): Promise<ApprovalRecord | null>;
  list(tenant: string | null, status?: string): Promise<ApprovalRecord[]>;
  /** `by` omitted = a trusted in-process caller (the operator). */
  decide(
    id: string,
    tenant: string | null,
    decision: 'approve' | 'deny',
    reason: string | null,
    actor: string | null,
    by?: Decider,
  ): Promise<ApprovalRecord>;
  /** Applies decisions another process (the `vigil approvals` CLI) stored: wakes waiters and
   *  resumes paused turns. Returns how many were applied. */
  applyExternalDecisions(): Promise<number>;
  /** Marks every overdue pending approval of these tenants expired; returns how many. */
  sweep(tenants: Array<string | null>): Promise<number>;
  stats(tenant: string | null): Promise<ApprovalStats>;
  /** Pending approvals this instance is timing (for the readiness report). */
  armed(): number;
  /** Calls `fn` with every decided approval whose paused turn should resume (a decision here, an
   *  expiry, or a decision the CLI stored). Returns the unsubscribe function. */
  onDecided(fn: DecidedListener): () => void;
  close(): void;
}

/** Resumes the turn paused on a decided approval (the agent runtime's resumeAfterApproval). */
export type DecidedListener = (rec: ApprovalRecord) => Promise<void> | void;

// ---- the `tenant-directory` service as gateway-tenancy provides it ----

/** Tenants and their keys, from the store and the config file. `actor` names who changed them in
 *  the audit log ('cli' unless given). */
export interface TenantDirectory {
  /** True when any tenant exists (then every protected route needs a key). */
  enabled(): Promise<boolean>;
  /** The tenant and key a presented API key belongs to (null when it is no valid key). */
  byKey(key: string): Promise<KeyedTenant | null>;
  resolveKey(key: string): Promise<KeyedTenant | null>;
  get(name: string): Promise<(TenantRecord & { source: 'store' | 'config' }) | null>;
  list(): Promise<PublicTenant[]>;
  /** Every key of a tenant (prefixes only, never keys). */
  keys(name: string): Promise<PublicKey[]>;
  create(input: TenantInput, actor?: string): Promise<{ tenant: PublicTenant; api_key: string }>;
  rotate(name: string, actor?: string): Promise<{ tenant: PublicTenant; api_key: string }>;
  remove(name: string, actor?: string): Promise<boolean>;
  addKey(
    name: string,
    input: { label: string; permissions?: string | string[] | null },
    actor?: string,
  ): Promise<{ tenant: string; label: string; key_prefix: string; permissions: string[] | null; api_key: string }>;
  removeKey(name: string, label: string, actor?: string): Promise<boolean>;
}
