// `vigil analyze` and `vigil solc`, contributed by the analysis engine (plugin.json `commands`).
// The kernel CLI imports this module only when one of them runs; analyze boots a headless kernel
// with just the plugins the requested mode, layer or tool uses.
import path from 'node:path';
import pino from 'pino';
import { defineCommand, type PluginManifest } from '../../kernel/index.ts';

export const command = defineCommand({
  register(program, host) {
    const io = host.io;
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
        const { runAnalyzeCommand } = await import('./cli-analyze.ts');
        const settings = host.resolveSettings({ logLevel: process.env.VIGIL_LOG_LEVEL ?? 'warn' });
        // The health self-tests are for a server; a one-shot run would only compete with itself.
        const plugins = (settings.file.plugins ?? {}) as Record<string, Record<string, unknown>>;
        settings.file.plugins = {
          ...plugins,
          'analysis-engine': { ...(plugins['analysis-engine'] ?? {}), self_test_on_start: false },
        };
        // Only the plugins this run uses: the tools of the mode/layer/tool asked for, the detectors
        // and the engine. Full mode and the AI layer need the LLM backends too: load everything.
        const layer = o.layer !== undefined ? Number(o.layer) : null;
        const everything = !o.tool && (layer === 5 || layer === 9 || (layer === null && o.mode === 'full'));
        const select = everything
          ? undefined
          : (m: PluginManifest) => {
              if (m.id === 'analysis-engine' || m.kind === 'detector') return true;
              if (m.kind !== 'tool') return false;
              const tools = m.tools ?? (m.tool ? [m.tool] : []);
              if (!tools.length || tools.some((t) => !t.name)) return true;
              if (o.tool) return tools.some((t) => t.name === o.tool);
              if (layer !== null) return tools.some((t) => t.layer === layer && (t.modes ?? []).length > 0);
              return tools.some((t) => (t.modes ?? []).includes('quick'));
            };
        // The pool starts now and gets the file's compile while the plugins load (warm-up.ts).
        const { startWarmUp } = await import('./warm-up.ts');
        startWarmUp(await host.startPool(), path.resolve(p), !o.tool && o.layer === undefined && (o.mode ?? 'quick') === 'quick');
        const kernel = await host.boot({
          settings,
          logger: pino({ level: settings.logLevel }, pino.destination(2)),
          headless: true,
          select,
        });
        try {
          host.setExitCode(await runAnalyzeCommand(kernel.services, p, o, io));
        } finally {
          await kernel.stop();
        }
      });

    const solc = program
      .command('solc')
      .description('Solidity compilers: the bundled releases and any other release from the npm registry');
    solc
      .command('list')
      .description('Installed compilers (bundled and cached); --remote lists every release on the npm registry')
      .option('--remote', 'also list the releases on the npm registry')
      .option('--json', 'print JSON')
      .action(async (o) => {
        const { bundledCompilers, refreshInstalledCompilers } = await import('../../lib/analysis/compiler/versions.ts');
        const { solcCacheDir } = await import('../../lib/analysis/compiler/solc-cache.ts');
        const { remoteVersions } = await import('./solc-install.ts');
        const all = refreshInstalledCompilers();
        const bundled = new Set(bundledCompilers().map((c) => c.version));
        const rows = all.map((c) => ({
          version: c.version,
          source: bundled.has(c.version) ? 'bundled' : 'cache',
          path: c.soljson ?? c.pkg,
        }));
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
        const { installSolc } = await import('./solc-install.ts');
        const { installedCompilers } = await import('../../lib/analysis/compiler/versions.ts');
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
            host.setExitCode(1);
          }
        }
      });
  },
});
