// The typed service map for the services plugins share (see `Services` in kernel/plugin-api.ts):
// services.get('analysis') is an AnalysisEngine wherever this file is part of the program. Which
// plugin provides and which requires each service is declared in the plugins' manifests.
import type { AnalysisEngine } from '../kernel/index.ts';
import type { AnalysisGate } from './analysis/admission.ts';
import type {
  AgentRuntime,
  ApprovalService,
  AuditSink,
  ReadinessRegistry,
  Tenancy,
  TenantDirectory,
  UsageMeter,
} from './gateway/contracts.ts';
import type { GuardrailChain } from './guardrails/chain.ts';

declare module '../kernel/plugin-api.ts' {
  interface Services {
    /** analysis-engine: the one engine behind REST, CLI, MCP and the contract_audit skill. */
    analysis: AnalysisEngine;
    /** analysis-api: the one admission gate for outside analyses (REST and MCP). */
    'analysis-admission': AnalysisGate;
    /** gateway-tenancy: the caller's tenant, sessions per tenant. */
    tenancy: Tenancy;
    /** gateway-tenancy: daily token quotas. */
    usage: UsageMeter;
    /** gateway-tenancy: tenants and their keys. */
    'tenant-directory': TenantDirectory;
    /** gateway-audit: the append-only audit log. */
    audit: AuditSink;
    /** gateway-approvals: the human approval gate, its policy and statistics. */
    approvals: ApprovalService;
    /** gateway-core: the agent runtime. */
    agent: AgentRuntime;
    /** gateway-core: the readiness report other plugins add checks to. */
    readiness: ReadinessRegistry;
    /** gateway-core: the guardrail chain as configured, counting hits. */
    guardrails: GuardrailChain;
  }
}
