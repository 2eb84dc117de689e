// `vigil audit export`: one tenant's audit events as JSON lines or CEF for a SIEM (plugin.json `commands`).
import { defineCommand } from '../../kernel/index.ts';
import { storeAction } from '../../lib/gateway/governance/cli.ts';
import { LimitError } from '../../lib/gateway/governance/limits.ts';
import { createAuditLog, parseAuditFilters } from '../../lib/gateway/governance/audit-log.ts';
import { toCef } from './cef.ts';

export const command = defineCommand({
  register(program, host) {
    program
      .command('audit')
      .description('Audit log tools')
      .command('export')
      .description(
        "Print one tenant's audit events as JSON lines or CEF (for a SIEM); --local for single-tenant mode and unauthenticated requests",
      )
      .option('--data-dir <dir>', 'data directory of the store (default ./data, or VIGIL_DATA_DIR)')
      .option('--config <file>', 'config file')
      .option('--tenant <name>', 'tenant whose events to export')
      .option('--local', 'export events with no tenant (single-tenant mode, rejected requests)')
      .option('--format <format>', 'jsonl or cef', 'jsonl')
      .option('--from <iso>', 'ISO 8601 start time')
      .option('--to <iso>', 'ISO 8601 end time')
      .option('--type <type>', 'event type, e.g. http.request')
      .option('--outcome <outcome>', 'success, failure, blocked, denied or info')
      .action(
        storeAction(host, async (c) => {
          if (!!c.tenant === !!c.local) throw new LimitError('give exactly one of --tenant NAME or --local');
          if (c.format !== 'jsonl' && c.format !== 'cef') throw new LimitError(`--format must be jsonl or cef, got "${c.format}"`);
          const {
            limit: _l,
            after: _a,
            before: _b,
            order: _o,
            ...f
          } = parseAuditFilters({ from: c.from, to: c.to, type: c.type, outcome: c.outcome });
          for await (const e of createAuditLog(c.store).stream(c.local ? null : c.tenant, f)) {
            host.io.stdout.write((c.format === 'cef' ? toCef(e, host.version) : JSON.stringify(e)) + '\n');
          }
          return undefined;
        }),
      );
  },
});
