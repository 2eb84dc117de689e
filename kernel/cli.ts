// The `vigil` command line. The kernel's own commands are serve, plugin build, plugins and store;
// every other command (analyze, solc, tenants, approvals, audit, mcp ...) is contributed by a plugin
// through its manifest's `commands`. `--help` lists them from the manifests without importing any
// plugin code; running one imports only that plugin's command module, which boots a kernel with
// just the plugins it needs.
import path from 'node:path';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import pino from 'pino';
import { ConfigError, resolveSettings, parseRateLimit, parsePositiveInt, parseHostPort, parseAllowedHosts, parseRole } from './config.ts';
import { VERSION, ROOT_DIR } from './version.ts';
import { discoverPlugins } from './loader.ts';
import type { CliCommand, CliHost } from './plugin-api.ts';
import type { WorkerPool } from './pool.ts';
import { importModule } from './compiled.js';

const wrap =
  <T>(fn: (v: string) => T) =>
  (v: string) => {
    try {
      return fn(v);
    } catch (e) {
      throw new InvalidArgumentError((e as Error).message);
    }
  };

export async function main(
  argv: string[],
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream } = process,
): Promise<number> {
  let exitCode = 0;
  const program = new Command()
    .name('vigil')
    .description('Solidity contract analysis API and governed LLM agent gateway on one plugin kernel')
    .version(VERSION)
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });

  program
    .command('serve')
    .description('Start both surfaces: the agent gateway (--bind) and the contract-analysis API (--api-bind)')
    .option(
      '--bind <host:port>',
      'agent gateway address (default 127.0.0.1:3000)',
      wrap((v) => (parseHostPort(v, '--bind'), v)),
    )
    .option(
      '--api-bind <host:port>',
      'contract-analysis API address (default 127.0.0.1:8000)',
      wrap((v) => (parseHostPort(v, '--api-bind'), v)),
    )
    .option(
      '--rate-limit-per-key <count/unit>',
      'default request rate per API key, e.g. 60/min (units s, min, h, day)',
      wrap((v) => (parseRateLimit(v), v)),
    )
    .option(
      '--max-concurrent-sessions <n>',
      'default cap on concurrent sessions per tenant',
      wrap((v) => String(parsePositiveInt(v, '--max-concurrent-sessions'))),
    )
    .option(
      '--token-quota-per-day <n>',
      'default LLM token quota per tenant per day',
      wrap((v) => String(parsePositiveInt(v, '--token-quota-per-day'))),
    )
    .option('--config <file>', 'config file (JSON or YAML): tenants, guardrail modes, permission sets, approval policy, MCP servers')
    .option('--data-dir <dir>', 'where the embedded SQLite store lives (default ./data, or VIGIL_DATA_DIR)')
    .option(
      '--allowed-hosts <names>',
      'comma-separated Host names served besides loopback names and the bind addresses (".example.com" allows subdomains); others get 421',
      wrap((v) => (parseAllowedHosts(v), v)),
    )
    .option('--api-open', 'keep the analysis API keyless even when tenants exist (flagged in the readiness report)')
    .option(
      '--role <role>',
      'all (default), gateway, api or worker: which part of vigil this process serves (docs/deploy.md)',
      wrap((v) => parseRole(v)),
    )
    .option(
      '--max-analysis-timeout <seconds>',
      'largest timeout an analysis request may ask for; larger ones are lowered (default 300)',
      wrap((v) => String(parsePositiveInt(v, '--max-analysis-timeout'))),
    )
    .action(async (o) => {
      const settings = resolveSettings({
        allowedHosts: o.allowedHosts,
        apiOpen: o.apiOpen === true ? true : undefined,
        config: o.config,
        bind: o.bind,
        apiBind: o.apiBind,
        rateLimitPerKey: o.rateLimitPerKey,
        maxConcurrentSessions: o.maxConcurrentSessions,
        tokenQuotaPerDay: o.tokenQuotaPerDay,
        maxAnalysisTimeout: o.maxAnalysisTimeout,
        dataDir: o.dataDir,
        role: o.role,
      });
      const { Kernel } = await import('./kernel.ts');
      const kernel = new Kernel({ settings });
      const addrs = await kernel.listen();
      const failed = kernel.registry.plugins().filter((p) => p.status === 'error');
      kernel.log.info(
        {
          role: settings.role,
          gateway: addrs.gateway,
          api: addrs.api,
          plugins: kernel.registry.plugins().length,
          failed: failed.map((f) => f.id),
        },
        `vigil ${VERSION} (${settings.role}) listening: gateway ${addrs.gateway || '-'}, api ${addrs.api || '-'}`,
      );
      await new Promise<void>((resolve) => {
        const onSignal = (sig: string) => {
          kernel.log.info({ signal: sig }, 'shutting down: draining in-flight requests');
          kernel.stop().then(resolve, resolve);
        };
        process.once('SIGINT', onSignal);
        process.once('SIGTERM', onSignal);
      });
      kernel.log.info({ steps: kernel.lifecycle.filter((s) => s.startsWith('stop:')) }, 'stopped');
    });

  const plugin = program.command('plugin').description('Build WASM plugins');
  plugin
    .command('build')
    .description('Compile a WASM plugin folder (AssemblyScript assembly/index.ts -> entry .wasm) and record its sha256')
    .argument('<dir>', 'plugin folder holding plugin.json and assembly/index.ts')
    .action(async (dir) => {
      const { buildPlugin } = await import('./wasm/build.ts');
      const r = await buildPlugin(path.resolve(dir));
      io.stdout.write(JSON.stringify(r, null, 2) + '\n');
    });
  plugin
    .command('build-all')
    .description('Build every WASM plugin under plugins/ and examples/')
    .action(async () => {
      const { buildAll, defaultPluginRoots, findWasmPluginDirs, stopCompiler } = await import('./wasm/build.ts');
      const r = await buildAll(await findWasmPluginDirs(defaultPluginRoots()));
      await stopCompiler();
      io.stdout.write(JSON.stringify(r, null, 2) + '\n');
      if (r.some((o) => !o.ok)) process.exitCode = 1;
    });

  program
    .command('plugins')
    .description('List discovered plugins with their status')
    .option('--json', 'print JSON')
    .action(async (o) => {
      const { Kernel } = await import('./kernel.ts');
      const settings = resolveSettings({ logLevel: 'silent' });
      const kernel = new Kernel({ settings, logger: pino({ level: 'silent' }) });
      await kernel.boot();
      const list = kernel.registry.plugins();
      await kernel.stop();
      if (o.json) io.stdout.write(JSON.stringify(list, null, 2) + '\n');
      else {
        const { formatPluginTable } = await import('./plugin-table.ts');
        io.stdout.write(formatPluginTable(list));
      }
      if (list.some((p) => p.status === 'error')) exitCode = 1;
    });

  try {
    const own = ['serve', 'plugin', 'plugins', 'store', 'help'];
    if (!own.includes(argv[2] ?? '') || argv[2] === 'help')
      await addPluginCommands(
        program,
        argv,
        host(io, (c) => (exitCode = c)),
      );
    if (!['serve', 'plugin', 'plugins'].includes(argv[2] ?? ''))
      (await import('./store/cli.ts')).registerStoreCommands(program, io, (c: number) => (exitCode = c));
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return 0;
      return 2;
    }
    if (e instanceof ConfigError) {
      io.stderr.write(`vigil: ${e.message}\n`);
      return 2;
    }
    io.stderr.write(`vigil: ${(e as Error).message}\n`);
    return (e as { exitCode?: number }).exitCode ?? 1;
  }
  return exitCode;
}

interface ContributedCommand {
  name: string;
  description: string;
  plugin: string;
  entry: string;
}

/** The commands plugin manifests contribute (plugins/ and VIGIL_PLUGIN_DIRS / plugin_dirs). */
export function contributedCommands(): ContributedCommand[] {
  let extra: string[] = [];
  try {
    extra = resolveSettings({ logLevel: 'silent' }).pluginDirs;
  } catch {
    // A broken config file is reported by the command that reads it; listing commands goes on.
  }
  const out: ContributedCommand[] = [];
  for (const d of discoverPlugins([path.join(ROOT_DIR, 'plugins'), ...extra])) {
    for (const c of d.manifest?.commands ?? [])
      if (!out.some((o) => o.name === c.name)) out.push({ ...c, plugin: d.manifest!.id, entry: path.join(d.dir, c.entry) });
  }
  return out;
}

/** Registers the requested plugin command for real (its module is imported) and the others as
 *  names with a description, so `vigil --help` lists every command without loading any plugin. */
async function addPluginCommands(program: Command, argv: string[], h: CliHost): Promise<void> {
  const wanted = argv[2] === 'help' ? argv[3] : argv[2];
  const list = contributedCommands();
  const hit = list.find((c) => c.name === wanted);
  if (hit) {
    const mod = (await importModule(hit.entry)) as { command?: CliCommand };
    if (typeof mod.command?.register !== 'function')
      throw new Error(
        `plugin ${hit.plugin}: ${path.basename(hit.entry)} exports no command (export const command = defineCommand({ register }))`,
      );
    mod.command.register(program, h);
  }
  for (const c of list) if (!program.commands.some((x) => x.name() === c.name)) program.command(c.name).description(c.description);
}

function host(io: CliHost['io'], setExitCode: (c: number) => void): CliHost {
  let early: WorkerPool | undefined;
  return {
    io,
    version: VERSION,
    setExitCode,
    resolveSettings: (input) => resolveSettings(input),
    async startPool() {
      const { TinyWorkerPool } = await import('./pool.ts');
      early ??= new TinyWorkerPool();
      return early;
    },
    async boot(o) {
      const { Kernel } = await import('./kernel.ts');
      const pool = early;
      early = undefined;
      const kernel = new Kernel({ settings: o.settings, logger: o.logger, select: o.select, headless: o.headless, pool });
      try {
        await kernel.boot();
      } catch (e) {
        await kernel.stop();
        throw e;
      }
      return kernel;
    },
    async openStore(settings) {
      const { databaseUrlOf, openStore } = await import('./store/open.ts');
      return openStore({ dataDir: settings.dataDir, databaseUrl: databaseUrlOf(settings) });
    },
  };
}
