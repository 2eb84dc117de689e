// Readiness checks of gateway-approvals (policy, separation of duties), computed live on every
// report:
// `active` = verified on this instance, `available` = built in but not wired for this
// deployment, `attention` = wiring missing or a runtime check failed. Each non-active check
// names the configuration that would change it.
import type { KernelServices } from '../../kernel/index.ts';
import type { ReadinessCheck } from '../../lib/gateway/contracts.ts';
import type { ApprovalPolicy } from '../../lib/gateway/contracts.ts';
import type { TenantDirectory } from '../../lib/gateway/contracts.ts';

export function approvalsCheck(policy: ApprovalPolicy | null, error: string | null, pending: number): ReadinessCheck {
  if (error)
    return {
      id: 'approvals',
      category: 'governance',
      title: 'Human approval gates',
      status: 'attention',
      detail: `approval policy is invalid (${error}); every gated skill call fails until it is fixed`,
      next_action: 'fix the "approvals" section of the config file',
    };
  if (!policy || (!policy.skills.length && !policy.capabilities.length)) {
    return {
      id: 'approvals',
      category: 'governance',
      title: 'Human approval gates',
      status: 'available',
      detail: 'no skill or capability needs a human decision',
      next_action: 'set approvals.skills / approvals.capabilities (e.g. [shell_exec, file_write]) in the config file',
    };
  }
  return {
    id: 'approvals',
    category: 'governance',
    title: 'Human approval gates',
    status: 'active',
    detail: `skills [${policy.skills.join(', ')}], capabilities [${policy.capabilities.join(', ')}] need approval; expire after ${policy.ttlSeconds} s; ${pending} pending now`,
  };
}

/** Separation of duties on approvals: who can decide, and whether anyone but the operator can. */
export async function separationCheck(services: KernelServices, policy: ApprovalPolicy | null): Promise<ReadinessCheck> {
  const title = 'Approval separation of duties';
  const dir = services.get<TenantDirectory>('tenant-directory');
  const tenants = dir ? await dir.list().catch(() => []) : [];
  if (!tenants.length) {
    return {
      id: 'approval_separation',
      category: 'governance',
      title,
      status: 'available',
      detail: 'single-tenant local mode: there are no keys to separate, so the local caller decides approvals',
      next_action:
        'create tenants (`vigil tenants add`) and approver keys (`vigil tenants add-key NAME --label approver --permissions approvals_decide`)',
    };
  }
  let approvers = 0;
  for (const t of tenants) approvers += (await dir!.keys(t.name)).filter((k) => (k.permissions ?? []).includes('approvals_decide')).length;
  const gated = !!policy && (policy.skills.length > 0 || policy.capabilities.length > 0);
  const detail = `the key that caused an approval request can never decide it; ${approvers} approver key(s) (permission approvals_decide) across ${tenants.length} tenant(s); the operator decides with \`vigil approvals list|approve|deny\`; the audit log names the decider`;
  return gated && approvers === 0
    ? {
        id: 'approval_separation',
        category: 'governance',
        title,
        status: 'attention',
        detail: `${detail}; only the operator can decide today`,
        next_action: 'issue approver keys: `vigil tenants add-key NAME --label approver --permissions approvals_decide`',
      }
    : { id: 'approval_separation', category: 'governance', title, status: 'active', detail };
}
