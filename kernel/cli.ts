// The `vigil` command line: serve, analyze, solc, plugin build, plugins (and the gateway's tenants).
// Heavy modules (the kernel, its plugins, compilers) are imported inside the command that needs
// them, so `vigil analyze one.sol` does not pay for the gateway, and `--help` pays for nothing.
import path from 'node:path';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import pino from 'pino';
import { ConfigError, resolveSettings, parseRateLimit, parsePositiveInt, parseHostPort, parseAllowedHosts, parseRole } from './config.ts';
import { VERSION } from './version.ts';

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

  const collect = (v: string, prev: string[] = []) => [...prev, v];
  program
    .command('analyze')
    .description(
      'Analyse a Solidity file, folder or project (imports, remappings, every solc release) and print the same body the REST API returns',
    )
    .argument('<path>', 'a .sol file, a folder of them, or a project root (foundry.toml, hardhat.config.*, package.json ...)')
    .option('--mode <mode>', 'quick or full', 'quick')
    .option('--layer <n>', 'run one layer (1-9)')
    .option('--tool <name>', 'run one tool')
    .option('--format <format>', 'text (default on a terminal), json (default otherwise), sarif or markdown')
    .option('--fail-on <severity>', 'exit 1 when a finding is at or above CRITICAL|HIGH|MEDIUM|LOW|INFO')
    .option('--timeout <seconds>', 'cap for the whole run (default: each file gets its own budget, 120 s quick, 600 s full)')
    .option('--allow-partial', 'exit 0/1 even when some file or tool did not complete (still named on stderr)')
    .option('--exclude <glob>', 'do not report on files matching GLOB (repeatable; relative to the project root or PATH)', collect)
    .option('--include <glob>', 'report only on files matching GLOB (repeatable; overrides the default exclusions)', collect)
    .option('--no-progress', 'no progress lines on stderr')
    .option('--baseline <file>', 'an earlier JSON or SARIF output: report and fail only on findings not in it')
    .action(async (p, o) => {
      // eslint-disable-next-line vigil/layers -- known debt (issue #16): becomes a plugin-contributed command/adapter
      const { runAnalyzeCommand } = await import('../lib/analysis/cli-analyze.ts');
      const { Kernel } = await import('./kernel.ts');
      const settings = resolveSettings({ logLevel: process.env.VIGIL_LOG_LEVEL ?? 'warn' });
      // The health self-tests are for a server; a one-shot run would only compete with itself.
      const plugins = (settings.file.plugins ?? {}) as Record<string, Record<string, unknown>>;
      settings.file.plugins = { ...plugins, 'analysis-engine': { ...(plugins['analysis-engine'] ?? {}), self_test_on_start: false } };
      // Only the plugins this run uses: the tools of the mode/layer/tool asked for, the detectors
      // and the engine. Full mode and the AI layer need the LLM backends too: load everything.
      const layer = o.layer !== undefined ? Number(o.layer) : null;
      const everything = !o.tool && (layer === 5 || layer === 9 || (layer === null && o.mode === 'full'));
      const select = everything
        ? undefined
        : (m: { id: string; kind: string; tool?: { name?: string; layer: number; modes?: string[] } }) => {
            if (m.id === 'analysis-engine' || m.kind === 'detector') return true;
            if (m.kind !== 'tool') return false;
            if (!m.tool || !m.tool.name) return true;
            if (o.tool) return m.tool.name === o.tool;
            if (layer !== null) return m.tool.layer === layer && (m.tool.modes ?? []).length > 0;
            return (m.tool.modes ?? []).includes('quick');
          };
      const kernel = new Kernel({ settings, logger: pino({ level: settings.logLevel }, pino.destination(2)), headless: true, select });
      await kernel.boot();
      try {
        exitCode = await runAnalyzeCommand(kernel.services, p, o, io);
      } finally {
        await kernel.stop();
      }
    });

  const solc = program.command('solc').description('Solidity compilers: the bundled releases and any other release from the npm registry');
  solc
    .command('list')
    .description('Installed compilers (bundled and cached); --remote lists every release on the npm registry')
    .option('--remote', 'also list the releases on the npm registry')
    .option('--json', 'print JSON')
    .action(async (o) => {
      // eslint-disable-next-line vigil/layers -- known debt (issue #16): becomes a plugin-contributed command/adapter
      const { bundledCompilers, refreshInstalledCompilers } = await import('../lib/analysis/compiler/versions.ts');
      // eslint-disable-next-line vigil/layers -- known debt (issue #16): becomes a plugin-contributed command/adapter
      const { solcCacheDir, remoteVersions } = await import('../lib/analysis/compiler/solc-cache.ts');
      const all = refreshInstalledCompilers();
      const bundled = new Set(bundledCompilers().map((c) => c.version));
      const rows = all.map((c) => ({ version: c.version, source: bundled.has(c.version) ? 'bundled' : 'cache', path: c.soljson ?? c.pkg }));
      let remote: string[] | null = null;
      if (o.remote) remote = await remoteVersions();
      if (o.json) {
        io.stdout.write(JSON.stringify({ cache_dir: solcCacheDir(), installed: rows, ...(remote ? { remote } : {}) }, null, 2) + '\n');
        return;
      }
      io.stdout.write(`${'VERSION'.padEnd(10)} ${'SOURCE'.padEnd(8)} PATH\n`);
      for (const r of rows) io.stdout.write(`${r.version.padEnd(10)} ${r.source.padEnd(8)} ${r.path}\n`);
      io.stdout.write(`cache: ${solcCacheDir()}\n`);
      if (remote) {
        const have = new Set(rows.map((r) => r.version));
        io.stdout.write(`\n${remote.length} releases on the npm registry (* installed):\n`);
        io.stdout.write(remote.map((v) => (have.has(v) ? `${v}*` : v)).join(' ') + '\n');
      }
    });
  solc
    .command('install')
    .description('Install solc releases from the npm registry into the cache (VIGIL_SOLC_CACHE, default ~/.cache/vigil/solc)')
    .argument('<versions...>', 'releases, e.g. 0.8.24 0.5.16')
    .action(async (versions: string[]) => {
      // eslint-disable-next-line vigil/layers -- known debt (issue #16): becomes a plugin-contributed command/adapter
      const { installSolc } = await import('../lib/analysis/compiler/solc-cache.ts');
      // eslint-disable-next-line vigil/layers -- known debt (issue #16): becomes a plugin-contributed command/adapter
      const { installedCompilers } = await import('../lib/analysis/compiler/versions.ts');
      for (const v of versions) {
        const bundled = installedCompilers().find((c) => c.version === v && !c.soljson);
        if (bundled) {
          io.stdout.write(`solc ${v} is bundled with vigil (${bundled.pkg})\n`);
          continue;
        }
        try {
          const c = await installSolc(v);
          io.stdout.write(`solc ${c.version} installed: ${c.soljson}\n`);
        } catch (e) {
          io.stderr.write(`vigil solc install: ${(e as Error).message}\n`);
          exitCode = 1;
        }
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
    // The gateway's commands (tenants, audit, ...) are not needed by the analysis ones.
    const own = ['analyze', 'solc', 'plugin', 'plugins', 'serve'];
    const extra = own.includes(argv[2] ?? '') ? null : await import('./cli-extensions.ts').catch(() => null);
    extra?.registerCommands?.(program, io, (c: number) => (exitCode = c));
    if (!own.includes(argv[2] ?? '')) (await import('./store/cli.ts')).registerStoreCommands(program, io, (c: number) => (exitCode = c));
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
