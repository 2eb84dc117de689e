// Service contracts between the gateway core (agent loop, chat routes, readiness) and the
// governance plugins (tenants/auth, audit, approvals, quotas, compliance). Each is provided with
// ctx.provide(name, impl) and looked up with services.get(name); when a service is absent the
// gateway runs in single-tenant local mode without it.
import type { FastifyRequest } from 'fastify';
import type { ApprovalRecord, AuditEvent } from '../store/types.ts';
import type { Capability } from './skill.ts';

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
