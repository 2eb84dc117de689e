// `vigil tenants ...`: manage tenants and their keys on the store (plugin.json `commands`).
import { defineCommand } from '../../kernel/index.ts';
import { NotFound, storeAction, type Opened } from '../../lib/gateway/governance/cli.ts';
import { createAuditLog } from '../../lib/gateway/governance/audit-log.ts';
import { parseConfigTenants } from '../../lib/gateway/governance/tenants.ts';
import { TenantDirectory } from './directory.ts';

const directory = (c: Opened) => new TenantDirectory(c.store, parseConfigTenants(c.settings.file.tenants), createAuditLog(c.store));

export const command = defineCommand({
  register(program, host) {
    const tenants = program
      .command('tenants')
      .description('Manage gateway tenants and their API keys (keys are shown once and stored hashed)')
      .option('--data-dir <dir>', 'data directory of the store (default ./data, or VIGIL_DATA_DIR)')
      .option('--config <file>', 'config file (tenants declared there are listed and protected from changes here)');

    tenants
      .command('add')
      .description('Create a tenant and print its API key once: {"tenant": ..., "api_key": ...}')
      .argument('<name>', 'tenant name (letters, digits, ".", "_", "-")')
      .option('--rate-limit <count/unit>', 'request rate limit for this tenant, e.g. 120/min (default: the serve flag)')
      .option('--token-quota-per-day <n>', 'daily LLM token quota (default: the serve flag)')
      .option('--max-concurrent-sessions <n>', 'concurrent session cap (default: the serve flag)')
      .option('--permissions <list>', 'comma-separated capabilities the agent may use for this tenant, e.g. file_read,web_fetch')
      .action(
        storeAction(host, async (c, name: string) =>
          directory(c).create({
            name,
            rateLimit: c.rateLimit,
            tokenQuotaPerDay: c.tokenQuotaPerDay,
            maxConcurrentSessions: c.maxConcurrentSessions,
            permissions: c.permissions,
          }),
        ),
      );

    tenants
      .command('list')
      .description('List tenants (key prefixes only, never keys)')
      .action(storeAction(host, async (c) => ({ tenants: await directory(c).list() })));

    tenants
      .command('add-key')
      .description('Issue another key for a tenant (e.g. an approver with --permissions approvals_decide) and print it once')
      .argument('<name>', 'tenant name')
      .requiredOption('--label <label>', 'name of the key, unique in the tenant (shown in the audit log as <tenant>/<label>)')
      .option(
        '--permissions <list>',
        "comma-separated permissions of this key (capabilities, approvals_decide); default: the agent's default set",
      )
      .action(storeAction(host, async (c, name: string) => directory(c).addKey(name, { label: c.label, permissions: c.permissions })));

    tenants
      .command('keys')
      .description("List a tenant's keys (labels, prefixes and permissions; never keys)")
      .argument('<name>')
      .action(
        storeAction(host, async (c, name: string) => {
          const dir = directory(c);
          if (!(await dir.get(name))) throw new NotFound(`no tenant named "${name}"`);
          return { keys: await dir.keys(name) };
        }),
      );

    tenants
      .command('remove-key')
      .description('Remove one additional key of a tenant; it stops working at once')
      .argument('<name>')
      .argument('<label>')
      .action(
        storeAction(host, async (c, name: string, label: string) => {
          if (!(await directory(c).removeKey(name, label))) throw new NotFound(`tenant "${name}" has no key labelled "${label}"`);
          return { removed: `${name}/${label}` };
        }),
      );

    tenants
      .command('rotate-key')
      .description('Issue a new API key for a tenant and print it once; the old key stops working at once')
      .argument('<name>')
      .action(
        storeAction(host, async (c, name: string) => {
          const dir = directory(c);
          if (!(await dir.get(name))) throw new NotFound(`no tenant named "${name}"`);
          return dir.rotate(name);
        }),
      );

    tenants
      .command('remove')
      .description('Remove a tenant; its key stops working at once (its sessions and audit trail are kept)')
      .argument('<name>')
      .action(
        storeAction(host, async (c, name: string) => {
          const dir = directory(c);
          if (!(await dir.get(name))) throw new NotFound(`no tenant named "${name}"`);
          await dir.remove(name);
          return { removed: name };
        }),
      );
  },
});
