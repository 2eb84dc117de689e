// Picks the store: PostgreSQL when VIGIL_DATABASE_URL (or `database_url` in the config file) is
// a postgres:// URL, else the embedded SQLite file under the data directory.
import { SqliteStore } from './sqlite.ts';
import type { Store } from './types.ts';

export interface StoreLocation {
  dataDir: string;
  /** postgres://… ; empty or undefined = SQLite. */
  databaseUrl?: string | null;
}

/** The resolved setting (resolveSettings reads VIGIL_DATABASE_URL from its env, then the file). */
export function databaseUrlOf(settings: { databaseUrl?: string | null }): string | null {
  return settings.databaseUrl ?? null;
}

export async function openStore(loc: StoreLocation): Promise<Store> {
  const url = loc.databaseUrl;
  if (!url) return SqliteStore.open(loc.dataDir);
  if (!/^postgres(ql)?:\/\//i.test(url))
    throw new Error(`VIGIL_DATABASE_URL must be a postgres:// URL (or unset for the embedded SQLite store), got "${url.split(':')[0]}:…"`);
  const { PostgresStore, redact } = await import('./postgres.ts');
  try {
    return await PostgresStore.connect({ url });
  } catch (e) {
    throw new Error(`cannot open the PostgreSQL store at ${redact(url)}: ${(e as Error).message}`, { cause: e });
  }
}
