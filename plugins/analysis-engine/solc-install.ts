// Installing solc releases into the cache folder (lib/analysis/compiler/solc-cache.ts) and listing
// the published ones, for `vigil solc install|list --remote` and acquire.ts. A release is fetched
// with `npm pack solc@X.Y.Z`, so the user's npm config (registry, proxy, auth) applies and npm
// checks the tarball's integrity.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { cachedCompilers, solcCacheDir, type CachedCompiler } from '../../lib/analysis/compiler/solc-cache.ts';
export class SolcInstallError extends Error {
  constructor(
    message: string,
    readonly offline: boolean,
  ) {
    super(message);
  }
}

function run(cmd: string, args: string[], opts: { cwd?: string; timeoutMs: number }): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      cmd,
      args,
      {
        cwd: opts.cwd,
        timeout: opts.timeoutMs,
        maxBuffer: 16 * 1024 * 1024,
        env: { ...process.env, npm_config_fund: 'false', npm_config_audit: 'false', npm_config_update_notifier: 'false' },
      },
      (err, stdout, stderr) => {
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- err is an Error; @types/node's Omit<>-based ExecFileException hides that
        if (err) reject(Object.assign(err, { stdout: String(stdout), stderr: String(stderr) }));
        else resolve({ stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

const npmCmd = () => (process.platform === 'win32' ? 'npm.cmd' : 'npm');

function looksOffline(text: string): boolean {
  return /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|network|offline|ETARGET.*cache/i.test(text);
}

/**
 * Fetches solc `version` from the npm registry into the cache. Resolves to the cached entry;
 * already-cached releases return at once. Rejects with SolcInstallError (offline = true when the
 * registry could not be reached).
 */
export async function installSolc(version: string, opts: { dir?: string; timeoutMs?: number } = {}): Promise<CachedCompiler> {
  const v = semver.valid(version);
  if (!v) throw new SolcInstallError(`"${version}" is not a solc release number (expected X.Y.Z, e.g. 0.8.24)`, false);
  const dir = opts.dir ?? solcCacheDir();
  const have = cachedCompilers(dir).find((c) => c.version === v);
  if (have) return have;
  fs.mkdirSync(dir, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(dir, `.install-${v}-`));
  try {
    let packed: string;
    try {
      const { stdout } = await run(npmCmd(), ['pack', `solc@${v}`, '--json', '--pack-destination', tmp], {
        cwd: tmp,
        timeoutMs: opts.timeoutMs ?? 180_000,
      });
      const info = JSON.parse(stdout) as Array<{ filename: string; version: string }>;
      packed = path.join(tmp, info[0].filename.replace(/^@/, '').replace(/\//g, '-'));
      if (!fs.existsSync(packed)) packed = path.join(tmp, fs.readdirSync(tmp).find((f) => f.endsWith('.tgz')) ?? '');
    } catch (e) {
      const text = `${(e as { stderr?: string }).stderr ?? ''} ${(e as Error).message}`;
      if (/E404|No matching version|ETARGET/i.test(text) && !looksOffline(text.replace(/ETARGET/g, ''))) {
        throw new SolcInstallError(`solc ${v} is not published on the npm registry (see \`vigil solc list --remote\`)`, false);
      }
      const offline = looksOffline(text) || (e as { killed?: boolean }).killed === true;
      throw new SolcInstallError(
        `could not download solc ${v} from the npm registry${offline ? ' (the registry is unreachable)' : ''}: ${text.trim().split('\n').slice(-3).join(' ').slice(0, 400)}`,
        offline,
      );
    }
    const tar = await import('tar');
    await tar.x({ file: packed, cwd: tmp, filter: (p) => p === 'package/soljson.js' || p === 'package/package.json' });
    const soljson = path.join(tmp, 'package', 'soljson.js');
    if (!fs.existsSync(soljson)) throw new SolcInstallError(`the npm package solc@${v} has no soljson.js`, false);
    const target = path.join(dir, v);
    fs.mkdirSync(target, { recursive: true });
    fs.copyFileSync(soljson, path.join(target, 'soljson.js.part'));
    // Rename last: a folder with soljson.js is a complete install, even if two processes race.
    fs.renameSync(path.join(target, 'soljson.js.part'), path.join(target, 'soljson.js'));
    fs.writeFileSync(
      path.join(target, 'meta.json'),
      JSON.stringify({ version: v, source: `npm:solc@${v}`, installed_at: new Date().toISOString() }, null, 2),
    );
    return { version: v, soljson: path.join(target, 'soljson.js') };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** Every solc release on the npm registry (cached in the cache folder for a day). */
export async function remoteVersions(opts: { dir?: string; maxAgeMs?: number; timeoutMs?: number } = {}): Promise<string[]> {
  const dir = opts.dir ?? solcCacheDir();
  const file = path.join(dir, 'registry-versions.json');
  try {
    const st = fs.statSync(file);
    if (Date.now() - st.mtimeMs < (opts.maxAgeMs ?? 24 * 3600_000)) return JSON.parse(fs.readFileSync(file, 'utf8')) as string[];
  } catch {
    /* not cached yet */
  }
  try {
    const { stdout } = await run(npmCmd(), ['view', 'solc', 'versions', '--json'], { timeoutMs: opts.timeoutMs ?? 30_000 });
    const list = (JSON.parse(stdout) as string[]).filter((v) => semver.valid(v) && !semver.prerelease(v)).sort(semver.compare);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(list));
    return list;
  } catch (e) {
    const text = `${(e as { stderr?: string }).stderr ?? ''} ${(e as Error).message}`;
    throw new SolcInstallError(
      `could not list solc releases on the npm registry: ${text.trim().split('\n').slice(-2).join(' ').slice(0, 300)}`,
      true,
    );
  }
}
