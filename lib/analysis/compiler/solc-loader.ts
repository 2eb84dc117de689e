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

/** Where a release's code is: what `require` loads (absolute paths, so another thread can load it
 *  too) and whether its wrapper takes `{ import }` callbacks (>= 0.6, or any cached soljson). */
export interface CompilerModule {
  version: string;
  /** A bundled release's package entry (solc-js with its own wrapper). */
  pkg?: string;
  /** A cached release's bare soljson.js, driven by the bundled package's wrapper. */
  soljson?: string;
  wrapper?: string;
  modern: boolean;
}

export function compilerModule(version: string): CompilerModule {
  // Another thread or process may have installed it since this thread listed the cache.
  const entry = installedCompilers().find((c) => c.version === version) ?? refreshInstalledCompilers().find((c) => c.version === version);
  if (!entry)
    throw new Error(
      `solc ${version} is not installed (run \`vigil solc install ${version}\`); installed: ${installedCompilers()
        .map((c) => c.version)
        .join(', ')}`,
    );
  // Wrapper generations differ: <0.5 takes a bare read callback on compileStandardWrapper,
  // 0.5 accepts either, >=0.6 takes {import, smtSolver}. solc >=0.8 exposes compile(input, callbacks).
  const modern = Boolean(entry.soljson) || semver.gte(version, '0.6.0');
  // A cached release is a bare soljson.js: the bundled package's wrapper drives it (solc-js's
  // loadRemoteVersion does the same), whatever generation it is.
  return entry.soljson
    ? { version, soljson: entry.soljson, wrapper: require.resolve('solc/wrapper'), modern }
    : { version, pkg: require.resolve(entry.pkg), modern };
}

export function loadCompiler(version: string): LoadedCompiler {
  const hit = cache.get(version);
  if (hit) return hit;
  const m = compilerModule(version);
  const solc = (m.soljson ? (require(m.wrapper!) as (s: unknown) => unknown)(require(m.soljson)) : require(m.pkg!)) as Record<string, any>;
  const fn: (input: string, cb: unknown) => string =
    typeof solc.compileStandardWrapper === 'function' ? solc.compileStandardWrapper : solc.compile;
  const loaded: LoadedCompiler = {
    version,
    longVersion: typeof solc.version === 'function' ? String(solc.version()) : version,
    compileStandard(input, onImport) {
      return fn(input, m.modern ? { import: onImport } : onImport);
    },
  };
  cache.set(version, loaded);
  return loaded;
}

export function loadedVersions(): string[] {
  return [...cache.keys()];
}
