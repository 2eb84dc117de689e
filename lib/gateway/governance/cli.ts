// What the gateway's operator commands (`vigil tenants`, `vigil approvals`, `vigil audit`, each
// contributed by its plugin) share: they open the store under --data-dir / VIGIL_DATA_DIR directly,
// so they work while a gateway is running on the same data directory (SQLite WAL; the gateway
// re-reads keys on every request), and map errors to exit codes the same way.
import type { Command } from 'commander';
import { HttpError, type CliHost, type Settings, type Store } from '../../../kernel/index.ts';
import { LimitError } from './limits.ts';

export class NotFound extends Error {}

export interface Opened {
  settings: Settings;
  store: Store;
}

/** Wraps a command body: the store is opened for it and always closed; bad input exits 2, an
 *  unknown tenant or key 1; a result is printed as JSON. */
export function storeAction(host: CliHost, fn: (o: any, ...args: any[]) => Promise<unknown>) {
  const { io } = host;
  return async (...args: any[]) => {
    const cmd = args[args.length - 1] as Command;
    const o = { ...cmd.optsWithGlobals() };
    let store: Store | null = null;
    try {
      const settings = host.resolveSettings({ dataDir: o.dataDir, config: o.config ?? null, logLevel: 'silent' });
      // The shared PostgreSQL store when VIGIL_DATABASE_URL is set, like `vigil serve`.
      store = await host.openStore(settings);
      const out = await fn({ ...o, settings, store }, ...args.slice(0, -2));
      if (out !== undefined) io.stdout.write(JSON.stringify(out, null, 2) + '\n');
    } catch (e) {
      if (e instanceof HttpError && (e.statusCode === 404 || e.statusCode === 409)) {
        io.stderr.write(`vigil: ${e.message}\n`);
        host.setExitCode(1);
      } else if (e instanceof LimitError || e instanceof HttpError) {
        io.stderr.write(`vigil: ${e.message}\n`);
        host.setExitCode(2);
      } else if (e instanceof NotFound) {
        io.stderr.write(`vigil: ${e.message}\n`);
        host.setExitCode(1);
      } else throw e;
    } finally {
      await store?.close();
    }
  };
}
