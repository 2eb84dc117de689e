// Every solc release, not only the bundled ones: a release fetched from the npm registry (by
// plugins/analysis-engine/solc-install.ts) keeps its soljson.js in a cache folder (VIGIL_SOLC_CACHE,
// else $XDG_CACHE_HOME/vigil/solc, else ~/.cache/vigil/solc). The bundled solc package's wrapper
// drives every cached build, old or new, the way solc-js's own loadRemoteVersion does.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import semver from 'semver';

export function solcCacheDir(): string {
  if (process.env.VIGIL_SOLC_CACHE) return path.resolve(process.env.VIGIL_SOLC_CACHE);
  const base = process.env.XDG_CACHE_HOME ? path.resolve(process.env.XDG_CACHE_HOME) : path.join(os.homedir(), '.cache');
  return path.join(base, 'vigil', 'solc');
}

export interface CachedCompiler {
  version: string;
  soljson: string;
}

/** Releases present in the cache folder (a folder per version holding soljson.js). */
export function cachedCompilers(dir: string = solcCacheDir()): CachedCompiler[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const out: CachedCompiler[] = [];
  for (const n of names) {
    if (!semver.valid(n)) continue;
    const soljson = path.join(dir, n, 'soljson.js');
    if (fs.existsSync(soljson)) out.push({ version: n, soljson });
  }
  return out.sort((a, b) => semver.compare(a.version, b.version));
}
