// Commands contributed by the gateway side (tenants, audit) register here so kernel/cli.ts stays small.
// They open the store under --data-dir / VIGIL_DATA_DIR directly, so they work while a gateway is
// running on the same data directory (SQLite WAL; the gateway re-reads keys on every request).
import type { Command } from 'commander';
import { resolveSettings } from './config.ts';
import { databaseUrlOf, openStore } from './store/open.ts';
import type { Store } from './store/types.ts';
import { VERSION } from './version.ts';
import { HttpError } from './errors.ts';
// eslint-disable-next-line vigil/layers -- known debt (issue #16): becomes a plugin-contributed command/adapter
import { TenantDirectory, parseConfigTenants } from '../lib/gateway/governance/tenants.ts';
// eslint-disable-next-line vigil/layers -- known debt (issue #16): becomes a plugin-contributed command/adapter
import { LimitError } from '../lib/gateway/governance/limits.ts';
// eslint-disable-next-line vigil/layers -- known debt (issue #16): becomes a plugin-contributed command/adapter
import { createAuditLog, parseAuditFilters } from '../lib/gateway/governance/audit-log.ts';
// eslint-disable-next-line vigil/layers -- known debt (issue #16): becomes a plugin-contributed command/adapter
import { toCef } from '../lib/gateway/governance/cef.ts';
// eslint-disable-next-line vigil/layers -- known debt (issue #16): becomes a plugin-contributed command/adapter
import { decideAsOperator } from '../lib/gateway/governance/approval-gate.ts';
import os from 'node:os';

type Io = { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream };

class NotFound extends Error {}

export function registerCommands(program: Command, io: Io, setExit: (code: number) => void): void {
  const open = async (o: { dataDir?: string; config?: string }) => {
    const settings = resolveSettings({ dataDir: o.dataDir, config: o.config ?? null, logLevel: 'silent' });
    // The shared PostgreSQL store when VIGIL_DATABASE_URL is set, like `vigil serve`.
    const store = await openStore({ dataDir: settings.dataDir, databaseUrl: databaseUrlOf(settings) });
    return { settings, store };
  };
  // Runs a command body; bad input exits 2, an unknown tenant 1, and the store is always closed.
  const run =
    (fn: (o: any, ...args: any[]) => Promise<unknown>) =>
    async (...args: any[]) => {
      const cmd = args[args.length - 1] as Command;
      const o = { ...cmd.optsWithGlobals() };
      let store: Store | null = null;
      try {
        const opened = await open(o);
        store = opened.store;
        const out = await fn({ ...o, ...opened }, ...args.slice(0, -2));
        if (out !== undefined) io.stdout.write(JSON.stringify(out, null, 2) + '\n');
      } catch (e) {
        if (e instanceof HttpError && (e.statusCode === 404 || e.statusCode === 409)) {
          io.stderr.write(`vigil: ${e.message}\n`);
          setExit(1);
        } else if (e instanceof LimitError || e instanceof HttpError) {
          io.stderr.write(`vigil: ${e.message}\n`);
          setExit(2);
        } else if (e instanceof NotFound) {
          io.stderr.write(`vigil: ${e.message}\n`);
          setExit(1);
        } else throw e;
      } finally {
        await store?.close();
      }
    };
  const directory = (c: { settings: ReturnType<typeof resolveSettings>; store: Store }) =>
    new TenantDirectory(c.store, parseConfigTenants(c.settings.file.tenants), createAuditLog(c.store));

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
      run(async (c, name: string) =>
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
    .action(run(async (c) => ({ tenants: await directory(c).list() })));

  tenants
    .command('add-key')
    .description('Issue another key for a tenant (e.g. an approver with --permissions approvals_decide) and print it once')
    .argument('<name>', 'tenant name')
    .requiredOption('--label <label>', 'name of the key, unique in the tenant (shown in the audit log as <tenant>/<label>)')
    .option(
      '--permissions <list>',
      "comma-separated permissions of this key (capabilities, approvals_decide); default: the agent's default set",
    )
    .action(run(async (c, name: string) => directory(c).addKey(name, { label: c.label, permissions: c.permissions })));

  tenants
    .command('keys')
    .description("List a tenant's keys (labels, prefixes and permissions; never keys)")
    .argument('<name>')
    .action(
      run(async (c, name: string) => {
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
      run(async (c, name: string, label: string) => {
        if (!(await directory(c).removeKey(name, label))) throw new NotFound(`tenant "${name}" has no key labelled "${label}"`);
        return { removed: `${name}/${label}` };
      }),
    );

  tenants
    .command('rotate-key')
    .description('Issue a new API key for a tenant and print it once; the old key stops working at once')
    .argument('<name>')
    .action(
      run(async (c, name: string) => {
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
      run(async (c, name: string) => {
        const dir = directory(c);
        if (!(await dir.get(name))) throw new NotFound(`no tenant named "${name}"`);
        await dir.remove(name);
        return { removed: name };
      }),
    );

  // `vigil mcp`: an MCP server on stdio (owned by the MCP work; lib/mcp/stdio.ts). Boots the whole
  // kernel without listening, logs to stderr only, and returns when the client closes stdin.
  program
    .command('mcp')
    .description(
      'Serve MCP over stdio for editors and agents: analysis tools plus the skills your permission set allows (logs go to stderr)',
    )
    .option('--config <file>', 'config file (permission sets, guardrails, approvals, MCP servers to connect)')
    .option('--data-dir <dir>', 'data directory of the store (default ./data, or VIGIL_DATA_DIR)')
    .option('--api-key <key>', 'run as the tenant owning this key (default: VIGIL_API_KEY; without one, the local single-tenant caller)')
    .action(async (o: { config?: string; dataDir?: string; apiKey?: string }) => {
      const [{ default: pino }, { Kernel }, { serveStdio, stdioTenant, StdioSetupError }] = await Promise.all([
        import('pino'),
        import('./kernel.ts'),
        // eslint-disable-next-line vigil/layers -- known debt (issue #16): becomes a plugin-contributed command/adapter
        import('../lib/mcp/stdio.ts'),
      ]);
      // stdout is the protocol: anything printed there by accident goes to stderr instead.
      console.log = console.info = console.debug = (...a: unknown[]) => console.error(...a);
      const settings = resolveSettings({ config: o.config ?? null, dataDir: o.dataDir, logLevel: process.env.VIGIL_LOG_LEVEL ?? 'warn' });
      const kernel = new Kernel({
        settings,
        logger: pino({ level: settings.logLevel, base: { service: 'vigil-mcp' } }, pino.destination(2)),
      });
      try {
        await kernel.boot();
        const tenant = await stdioTenant(kernel.services, o.apiKey ?? process.env.VIGIL_API_KEY);
        await serveStdio({ services: kernel.services, log: kernel.log, version: VERSION, tenant });
      } catch (e) {
        if (!(e instanceof StdioSetupError)) throw e;
        io.stderr.write(`vigil: ${e.message}\n`);
        setExit(e.exitCode);
      } finally {
        await kernel.stop();
      }
    });

  // `vigil approvals`: the operator decides, on the store, whether or not a server runs. A running
  // server notices within its sweep interval and resumes the paused turn.
  const approvals = program
    .command('approvals')
    .description(
      'List and decide pending approvals as the operator (the key that caused a request can never decide it; the audit log names the decider)',
    )
    .option('--data-dir <dir>', 'data directory of the store (default ./data, or VIGIL_DATA_DIR)')
    .option('--config <file>', 'config file (tenants declared there are included)');
  const allTenants = async (c: { settings: ReturnType<typeof resolveSettings>; store: Store }) => [
    null,
    ...(await directory(c).list()).map((t) => t.name),
  ];
  approvals
    .command('list')
    .description('Approvals of every tenant (newest first), pending ones by default')
    .option('--tenant <name>', 'only this tenant ("local" for single-tenant mode)')
    .option('--status <status>', 'pending (default), approved, denied, expired or all', 'pending')
    .action(
      run(async (c) => {
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
        run(async (c, id: string) => {
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
      run(async (c) => {
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
          io.stdout.write((c.format === 'cef' ? toCef(e, VERSION) : JSON.stringify(e)) + '\n');
        }
        return undefined;
      }),
    );
}
