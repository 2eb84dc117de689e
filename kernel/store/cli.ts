// `vigil store …`: operator commands on the store itself (copying SQLite into PostgreSQL).
import type { Command } from 'commander';
import { resolveSettings } from '../config.ts';

type Io = { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream };

export function registerStoreCommands(program: Command, io: Io, setExit: (code: number) => void): void {
  const store = program.command('store').description('Operate on the store: copy the embedded SQLite store into PostgreSQL');
  store
    .command('migrate')
    .description('Copy the SQLite store under --data-dir into an empty PostgreSQL database (ids, cursors and timestamps kept)')
    .requiredOption('--to <url>', 'target: postgres://user[:password]@host:port/db[?schema=name]')
    .option('--data-dir <dir>', 'data directory holding vigil.db (default ./data, or VIGIL_DATA_DIR)')
    .action(async (o: { to: string; dataDir?: string }) => {
      const { migrateSqliteToPostgres, MigrateError } = await import('./migrate.ts');
      if (!/^postgres(ql)?:\/\//i.test(o.to)) {
        io.stderr.write(`vigil: --to must be a postgres:// URL, got "${o.to.split('://')[0]}://…"\n`);
        return setExit(2);
      }
      const settings = resolveSettings({ dataDir: o.dataDir, logLevel: 'silent', config: null });
      try {
        const r = await migrateSqliteToPostgres(settings.dataDir, o.to);
        io.stdout.write(JSON.stringify(r, null, 2) + '\n');
        const total = Object.values(r.copied).reduce((a, b) => a + b, 0);
        io.stderr.write(`copied ${total} rows from ${r.from} into ${r.to} (schema ${r.schema}); point VIGIL_DATABASE_URL at it\n`);
      } catch (e) {
        io.stderr.write(`vigil: store migrate failed, nothing was written: ${(e as Error).message}\n`);
        setExit(e instanceof MigrateError ? 2 : 1);
      }
    });
}
