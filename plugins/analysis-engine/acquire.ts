// Makes sure the compiler a build needs is there before it runs: an exact pin needs that very
// release, a range no installed release satisfies needs the newest published one that does.
// Missing releases are installed from the npm registry (once per process, whoever asks first);
// when the registry cannot be reached the answer says exactly which release to install.
import semver from 'semver';
import { exactPin, installedCompilers, refreshInstalledCompilers } from '../../lib/analysis/compiler/versions.ts';
import { installSolc, remoteVersions, SolcInstallError } from './solc-install.ts';

export interface Acquired {
  /** Release installed by this call, if any. */
  installed: string | null;
  /** What the user should know (a release that could not be installed, and how to install it). */
  note: string | null;
}

const inflight = new Map<string, Promise<unknown>>();

/** VIGIL_SOLC_AUTO_INSTALL=0 turns downloads off (air-gapped CI); `vigil solc install` still works. */
export function autoInstallEnabled(): boolean {
  return !['0', 'false', 'no', 'off'].includes(String(process.env.VIGIL_SOLC_AUTO_INSTALL ?? '').toLowerCase());
}

function installOnce(version: string): Promise<unknown> {
  let p = inflight.get(version);
  if (!p) {
    p = installSolc(version).finally(() => refreshInstalledCompilers());
    inflight.set(version, p);
    p.catch(() => inflight.delete(version));
  }
  return p;
}

/** The release a set of pragma ranges needs that is not installed, or null when one installed fits. */
export async function missingReleaseFor(ranges: string[]): Promise<{ version: string | null; why: string } | null> {
  const valid = ranges.filter((r) => semver.validRange(r));
  if (valid.length !== ranges.length) return null; // an invalid range is reported by the compile itself
  const installed = installedCompilers();
  const pin = exactPin(valid);
  if (pin) return installed.some((c) => c.version === pin) ? null : { version: pin, why: `pragma pins ${pin}` };
  if (!valid.length || installed.some((c) => valid.every((r) => semver.satisfies(c.version, r)))) return null;
  const text = valid.join(' ');
  try {
    const remote = await remoteVersions();
    const best = [...remote].reverse().find((v) => valid.every((r) => semver.satisfies(v, r)));
    return best
      ? { version: best, why: `pragma ${text}: no installed release satisfies it; ${best} is the newest published one that does` }
      : { version: null, why: `pragma ${text}: no published solc release satisfies it` };
  } catch {
    const lowest = semver.minVersion(valid.join(' '))?.version ?? null;
    return { version: lowest, why: `pragma ${text}: no installed release satisfies it` };
  }
}

/** Installs what `ranges` need (when allowed and reachable); never throws. */
export async function acquireCompilerFor(ranges: string[]): Promise<Acquired> {
  const need = await missingReleaseFor(ranges);
  if (!need) return { installed: null, note: null };
  if (!need.version) return { installed: null, note: need.why };
  if (!autoInstallEnabled()) {
    return {
      installed: null,
      note: `${need.why}; solc ${need.version} is not installed and automatic installation is off (VIGIL_SOLC_AUTO_INSTALL=0): run \`vigil solc install ${need.version}\``,
    };
  }
  try {
    await installOnce(need.version);
    return { installed: need.version, note: null };
  } catch (e) {
    const offline = e instanceof SolcInstallError && e.offline;
    return {
      installed: null,
      note: `${need.why}; solc ${need.version} is not installed and ${offline ? 'the npm registry is unreachable' : `installing it failed (${(e as Error).message})`}: run \`vigil solc install ${need.version}\``,
    };
  }
}
