// Gateway core: the agent loop as a service (`agent`), the readiness registry (`readiness`) and
// the gateway surface's own routes — chat, SSE stream, skills, sessions, health, metrics and the
// enterprise readiness report. Governance plugins (tenancy, usage, audit, approvals) are looked
// up per request; when one is absent the gateway runs in single-tenant local mode without it.
// Bad agent config (unknown permission set, out-of-range max_turns) fails this plugin at start
// with the config key in the message, rather than running with a policy nobody asked for.
// Turns paused on an approval resume when the approvals service announces the decision: the agent
// subscribes to it here, and gateway-approvals never looks up the agent (no service cycle).
import fs from 'node:fs';
import path from 'node:path';
import { definePlugin } from '../../kernel/index.ts';
import type { ApprovalService } from '../../lib/gateway/contracts.ts';
import { resolveAgentOptions } from './agent/config.ts';
import { loadGuardrails } from './agent/guard.ts';
import { resolvePermissionPolicy } from '../../lib/gateway/agent/permissions.ts';
import { complianceChecks, ReadinessRegistryImpl } from './agent/readiness.ts';
import { AgentRuntimeImpl } from './agent/runtime.ts';
import { builtinChecks } from './checks.ts';
import { gatewayRoutes, type CoreConfig, type Shared } from './routes.ts';

export default definePlugin<CoreConfig>({
  async setup(ctx) {
    const file = ctx.services.settings.file;
    const policy = resolvePermissionPolicy(file);
    const opts = resolveAgentOptions(file);
    const guardrails = loadGuardrails(ctx.services);
    const agent = new AgentRuntimeImpl(ctx.services, ctx.log, policy, guardrails, opts);
    const readiness = new ReadinessRegistryImpl();
    const startedAt = Date.now();
    let version = '0.0.0';
    try {
      version = JSON.parse(fs.readFileSync(path.join(ctx.services.settings.rootDir, 'package.json'), 'utf8')).version ?? version;
    } catch {
      // rootDir without a package.json (embedded use): the version stays unknown.
    }
    const shared: Shared = { agent, readiness, version, startedAt, config: ctx.config, services: ctx.services, log: ctx.log, routes: [] };
    readiness.addBuiltin(builtinChecks(shared));
    readiness.register(complianceChecks(ctx.services.registry));
    let subscribed = false;
    const subscribe = () => {
      const approvals = ctx.services.get<Pick<ApprovalService, 'onDecided'>>('approvals');
      if (subscribed || typeof approvals?.onDecided !== 'function') return;
      approvals.onDecided((rec) => agent.resumeAfterApproval(rec));
      subscribed = true;
    };
    // At start: approvals is a lazy service (it loads after this plugin, needing 'readiness'), and
    // start hooks run in load order, so the listener is in place before approvals' start hook
    // applies decisions the CLI stored while the server was down.
    ctx.onStart(subscribe);
    ctx.provide('agent', agent);
    ctx.provide('readiness', readiness);
    ctx.provide('guardrails', guardrails.chain);
    ctx.registerRoutes('gateway', gatewayRoutes(shared));
    ctx.onClose(() => agent.idle());
  },
});
