// Loads solc-js compilers by version and keeps them for the life of the process (a pool worker):
// evaluating a soljson build takes 0.5-1 s, compiling a small contract far less.
import { createRequire } from 'node:module';
import semver from 'semver';
import { installedCompilers, refreshInstalledCompilers } from './versions.ts';

const require = createRequire(import.meta.url);

export type ImportCallback = (path: string) => { contents: string } | { error: string };

export interface LoadedCompiler {
  version: string;
  /** Full version string reported by the build, e.g. 0.4.26+commit.4563c3fc.Emscripten.clang */
  longVersion: string;
  /** Standard-JSON compile with an import callback, whatever the wrapper generation. */
  compileStandard(input: string, onImport: ImportCallback): string;
}

const cache = new Map<string, LoadedCompiler>();

export function loadCompiler(version: string): LoadedCompiler {
  const hit = cache.get(version);
  if (hit) return hit;
  // Another thread or process may have installed it since this thread listed the cache.
  const entry = installedCompilers().find((c) => c.version === version) ?? refreshInstalledCompilers().find((c) => c.version === version);
  if (!entry)
    throw new Error(
      `solc ${version} is not installed (run \`vigil solc install ${version}\`); installed: ${installedCompilers()
        .map((c) => c.version)
        .join(', ')}`,
    );
  // A cached release is a bare soljson.js: the bundled package's wrapper drives it (solc-js's
  // loadRemoteVersion does the same), whatever generation it is.
  const solc = (
    entry.soljson ? (require('solc/wrapper') as (s: unknown) => unknown)(require(entry.soljson)) : require(entry.pkg)
  ) as Record<string, any>;
  // Wrapper generations differ: <0.5 takes a bare read callback on compileStandardWrapper,
  // 0.5 accepts either, >=0.6 takes {import, smtSolver}. solc >=0.8 exposes compile(input, callbacks).
  const modern = Boolean(entry.soljson) || semver.gte(version, '0.6.0');
  const fn: (input: string, cb: unknown) => string =
    typeof solc.compileStandardWrapper === 'function' ? solc.compileStandardWrapper : solc.compile;
  const loaded: LoadedCompiler = {
    version,
    longVersion: typeof solc.version === 'function' ? String(solc.version()) : version,
    compileStandard(input, onImport) {
      return fn(input, modern ? { import: onImport } : onImport);
    },
  };
  cache.set(version, loaded);
  return loaded;
}

export function loadedVersions(): string[] {
  return [...cache.keys()];
}
