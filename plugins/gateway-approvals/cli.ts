// `vigil approvals ...`: the operator decides, on the store, whether or not a server runs
// (plugin.json `commands`). A running server notices within its sweep interval and resumes the turn.
import os from 'node:os';
import { defineCommand } from '../../kernel/index.ts';
import { storeAction, type Opened } from '../../lib/gateway/governance/cli.ts';
import { parseConfigTenants } from '../../lib/gateway/governance/tenants.ts';
import { LimitError } from '../../lib/gateway/governance/limits.ts';
import { createAuditLog } from '../../lib/gateway/governance/audit-log.ts';
import { decideAsOperator } from './approval-gate.ts';

/** Local mode (null) and every tenant, store and config (a bad `tenants:` section throws), by name. */
async function allTenants(c: Opened): Promise<Array<string | null>> {
  const names = new Set([...(await c.store.listTenants()), ...parseConfigTenants(c.settings.file.tenants)].map((t) => t.name));
  return [null, ...[...names].sort((a, b) => a.localeCompare(b))];
}

export const command = defineCommand({
  register(program, host) {
    // `vigil approvals`: the operator decides, on the store, whether or not a server runs. A running
    // server notices within its sweep interval and resumes the paused turn.
    const approvals = program
      .command('approvals')
      .description(
        'List and decide pending approvals as the operator (the key that caused a request can never decide it; the audit log names the decider)',
      )
      .option('--data-dir <dir>', 'data directory of the store (default ./data, or VIGIL_DATA_DIR)')
      .option('--config <file>', 'config file (tenants declared there are included)');
    approvals
      .command('list')
      .description('Approvals of every tenant (newest first), pending ones by default')
      .option('--tenant <name>', 'only this tenant ("local" for single-tenant mode)')
      .option('--status <status>', 'pending (default), approved, denied, expired or all', 'pending')
      .action(
        storeAction(host, async (c) => {
          const statuses = ['pending', 'approved', 'denied', 'expired', 'all'];
          if (!statuses.includes(c.status)) throw new LimitError(`--status must be one of ${statuses.join(', ')}, got "${c.status}"`);
          const tenants = c.tenant ? [c.tenant === 'local' ? null : c.tenant] : await allTenants(c);
          const out = [];
          for (const t of tenants)
            out.push(...(await c.store.listApprovals({ tenant: t, status: c.status === 'all' ? undefined : c.status })));
          out.sort((a, b) => b.created_at.localeCompare(a.created_at));
          return { approvals: out };
        }),
      );
    for (const [verb, decision] of [
      ['approve', 'approve'],
      ['deny', 'deny'],
    ] as const) {
      approvals
        .command(verb)
        .description(
          `${verb === 'approve' ? 'Approve' : 'Deny'} a pending approval as the operator; a running server resumes the paused turn`,
        )
        .argument('<id>', 'approval id (from `vigil approvals list`)')
        .option('--reason <text>', 'why, for the audit trail and the agent')
        .option('--by <name>', 'operator name for the audit trail (default: the OS user)')
        .action(
          storeAction(host, async (c, id: string) => {
            const operator = String(
              c.by ??
                (() => {
                  try {
                    return os.userInfo().username;
                  } catch {
                    return 'cli';
                  }
                })(),
            );
            const done = await decideAsOperator({
              store: c.store,
              audit: createAuditLog(c.store),
              tenants: await allTenants(c),
              id,
              decision,
              reason: c.reason ?? null,
              operator,
            });
            return done;
          }),
        );
    }
  },
});
