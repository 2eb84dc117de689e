// `vigil mcp`: an MCP server on stdio (plugin.json `commands`). Boots the whole kernel without
// listening, logs to stderr only, and returns when the client closes stdin.
import { defineCommand } from '../../kernel/index.ts';

export const command = defineCommand({
  register(program, host) {
    program
      .command('mcp')
      .description(
        'Serve MCP over stdio for editors and agents: analysis tools plus the skills your permission set allows (logs go to stderr)',
      )
      .option('--config <file>', 'config file (permission sets, guardrails, approvals, MCP servers to connect)')
      .option('--data-dir <dir>', 'data directory of the store (default ./data, or VIGIL_DATA_DIR)')
      .option('--api-key <key>', 'run as the tenant owning this key (default: VIGIL_API_KEY; without one, the local single-tenant caller)')
      .action(async (o: { config?: string; dataDir?: string; apiKey?: string }) => {
        const [{ default: pino }, { serveStdio, stdioTenant, StdioSetupError }] = await Promise.all([import('pino'), import('./stdio.ts')]);
        // stdout is the protocol: anything printed there by accident goes to stderr instead.
        console.log = console.info = console.debug = (...a: unknown[]) => console.error(...a);
        const settings = host.resolveSettings({
          config: o.config ?? null,
          dataDir: o.dataDir,
          logLevel: process.env.VIGIL_LOG_LEVEL ?? 'warn',
        });
        const kernel = await host.boot({
          settings,
          logger: pino({ level: settings.logLevel, base: { service: 'vigil-mcp' } }, pino.destination(2)),
        });
        try {
          const tenant = await stdioTenant(kernel.services, o.apiKey ?? process.env.VIGIL_API_KEY);
          await serveStdio({ services: kernel.services, log: kernel.log, version: host.version, tenant });
        } catch (e) {
          if (!(e instanceof StdioSetupError)) throw e;
          host.io.stderr.write(`vigil: ${e.message}\n`);
          host.setExitCode(e.exitCode);
        } finally {
          await kernel.stop();
        }
      });
  },
});
