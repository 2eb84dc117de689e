// The `vigil` command line: serve, analyze, plugin build, plugins (and the gateway's tenants).
import path from 'node:path';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import pino from 'pino';
import { Kernel } from './kernel.ts';
import { ConfigError, resolveSettings, parseRateLimit, parsePositiveInt, parseHostPort } from './config.ts';
import { VERSION } from './version.ts';

const wrap = <T>(fn: (v: string) => T) => (v: string) => {
  try {
    return fn(v);
  } catch (e) {
    throw new InvalidArgumentError((e as Error).message);
  }
};

export async function main(argv: string[], io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream } = process): Promise<number> {
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
    .option('--bind <host:port>', 'agent gateway address (default 127.0.0.1:3000)', wrap((v) => (parseHostPort(v, '--bind'), v)))
    .option('--api-bind <host:port>', 'contract-analysis API address (default 127.0.0.1:8000)', wrap((v) => (parseHostPort(v, '--api-bind'), v)))
    .option('--rate-limit-per-key <count/unit>', 'default request rate per API key, e.g. 60/min (units s, min, h, day)', wrap((v) => (parseRateLimit(v), v)))
    .option('--max-concurrent-sessions <n>', 'default cap on concurrent sessions per tenant', wrap((v) => String(parsePositiveInt(v, '--max-concurrent-sessions'))))
    .option('--token-quota-per-day <n>', 'default LLM token quota per tenant per day', wrap((v) => String(parsePositiveInt(v, '--token-quota-per-day'))))
    .option('--config <file>', 'config file (JSON or YAML): tenants, guardrail modes, permission sets, approval policy, MCP servers')
    .option('--data-dir <dir>', 'where the embedded SQLite store lives (default ./data, or VIGIL_DATA_DIR)')
    .action(async (o) => {
      const settings = resolveSettings({
        config: o.config,
        bind: o.bind,
        apiBind: o.apiBind,
        rateLimitPerKey: o.rateLimitPerKey,
        maxConcurrentSessions: o.maxConcurrentSessions,
        tokenQuotaPerDay: o.tokenQuotaPerDay,
        dataDir: o.dataDir,
      });
      const kernel = new Kernel({ settings });
      const addrs = await kernel.listen();
      const failed = kernel.registry.plugins().filter((p) => p.status === 'error');
      kernel.log.info({ gateway: addrs.gateway, api: addrs.api, plugins: kernel.registry.plugins().length, failed: failed.map((f) => f.id) }, `vigil ${VERSION} listening: gateway ${addrs.gateway}, api ${addrs.api}`);
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

  program
    .command('analyze')
    .description('Analyse a Solidity file or folder and print the same body the REST API returns')
    .argument('<path>', 'a .sol file or a folder of them')
    .option('--mode <mode>', 'quick or full', 'quick')
    .option('--layer <n>', 'run one layer (1-9)')
    .option('--tool <name>', 'run one tool')
    .option('--format <format>', 'json, sarif or markdown', 'json')
    .option('--fail-on <severity>', 'exit 1 when a finding is at or above CRITICAL|HIGH|MEDIUM|LOW|INFO')
    .option('--timeout <seconds>', 'time budget for the whole run in seconds', '300')
    .option('--baseline <file>', 'an earlier JSON or SARIF output: report and fail only on findings not in it')
    .action(async (p, o) => {
      const { runAnalyzeCommand } = await import('../lib/analysis/cli-analyze.ts');
      const settings = resolveSettings({ logLevel: process.env.VIGIL_LOG_LEVEL ?? 'warn' });
      const kernel = new Kernel({ settings, logger: pino({ level: settings.logLevel }, pino.destination(2)) });
      await kernel.boot();
      try {
        exitCode = await runAnalyzeCommand(kernel.services, p, o, io);
      } finally {
        await kernel.stop();
      }
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
    const extra = await import('./cli-extensions.ts').catch(() => null);
    extra?.registerCommands?.(program, io, (c: number) => (exitCode = c));
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
