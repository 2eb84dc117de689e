// Workspace confinement shared by the file and contract-audit skills. The lexical check rejects
// `..` and absolute paths that leave the root; the realpath check rejects symlinks (anywhere on
// the path) that point out of it. Writes check the nearest existing parent and refuse to write
// through a symlink, and never touch a `.git` folder (any case, also reached through a symlink):
// repository config, hooks and attributes there decide which programs git runs. Protected paths
// (the server's data dir and config file, when they lie inside the workspace) are neither read
// nor written.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

export class PathError extends Error {
  constructor(
    message: string,
    readonly code: 'path_outside_workspace' | 'not_found' | 'invalid_path' | 'path_protected',
  ) {
    super(message);
  }
}

export const inside = (root: string, p: string) => {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/** True when a path relative to the workspace root has a `.git` segment (case-insensitively, as
 *  case-insensitive file systems would resolve `.GIT` to the same folder). */
export function hasGitSegment(rel: string): boolean {
  return rel.split(/[\\/]+/).some((s) => s.toLowerCase() === '.git');
}

export async function realRoot(workspace: string): Promise<string> {
  return fsp.realpath(workspace);
}

/** Real paths of the server's own files that no skill may read or write, even when they lie
 *  inside the workspace (the default data dir ./data and ./vigil.config.* do when the workspace
 *  is the working directory). Missing paths are kept as given. */
export function protectedPaths(settings: { dataDir: string; configPath: string | null }): string[] {
  const real = (p: string) => {
    try {
      return fs.realpathSync(p);
    } catch {
      return path.resolve(p);
    }
  };
  return [settings.dataDir, ...(settings.configPath ? [settings.configPath] : [])].map(real);
}

export interface ConfineOptions {
  /** Absolute real paths (files or folders) that are off limits. */
  protect?: string[];
}

function checkProtected(p: string, real: string, opts: ConfineOptions) {
  for (const q of opts.protect ?? []) {
    if (inside(q, real))
      throw new PathError(`path "${p}" belongs to the server's own data or config and is not available to skills`, 'path_protected');
  }
}

/** Resolves `p` for reading/listing; the target must exist and really be inside the root. */
export async function resolveExisting(root: string, p: string, opts: ConfineOptions = {}): Promise<{ abs: string; rel: string }> {
  if (p.includes('\0')) throw new PathError('path must not contain NUL bytes', 'invalid_path');
  const abs = path.resolve(root, p);
  if (!inside(root, abs)) throw new PathError(`path "${p}" is outside the workspace`, 'path_outside_workspace');
  let real: string;
  try {
    real = await fsp.realpath(abs);
  } catch {
    throw new PathError(`path "${p}" does not exist in the workspace`, 'not_found');
  }
  if (!inside(root, real)) throw new PathError(`path "${p}" leads outside the workspace through a symlink`, 'path_outside_workspace');
  checkProtected(p, real, opts);
  return { abs: real, rel: path.relative(root, real) || '.' };
}

/** Resolves `p` for writing: its nearest existing ancestor must really be inside the root, and
 *  neither the path as given nor the path it really leads to may pass through a `.git` folder. */
export async function resolveForWrite(root: string, p: string, opts: ConfineOptions = {}): Promise<{ abs: string; rel: string }> {
  if (p.includes('\0')) throw new PathError('path must not contain NUL bytes', 'invalid_path');
  const abs = path.resolve(root, p);
  if (!inside(root, abs) || abs === root) throw new PathError(`path "${p}" is outside the workspace`, 'path_outside_workspace');
  const gitRefusal = () =>
    new PathError(
      `path "${p}" is inside a .git folder; repository internals (config, hooks) cannot be written by skills`,
      'path_protected',
    );
  if (hasGitSegment(path.relative(root, abs))) throw gitRefusal();
  let probe = abs;
  let real: string;
  for (;;) {
    try {
      real = await fsp.realpath(probe);
      if (!inside(root, real)) throw new PathError(`path "${p}" leads outside the workspace through a symlink`, 'path_outside_workspace');
      break;
    } catch (e) {
      if (e instanceof PathError) throw e;
      const up = path.dirname(probe);
      if (up === probe) throw new PathError(`path "${p}" has no existing parent in the workspace`, 'invalid_path');
      probe = up;
    }
  }
  // Where the write really lands: the real nearest ancestor plus the part still to be created.
  const landing = path.join(real, path.relative(probe, abs));
  if (hasGitSegment(path.relative(root, landing))) throw gitRefusal();
  checkProtected(p, landing, opts);
  const st = await fsp.lstat(abs).catch(() => null);
  if (st?.isSymbolicLink())
    throw new PathError(`path "${p}" is a symlink; writing through symlinks is not allowed`, 'path_outside_workspace');
  if (st?.isDirectory()) throw new PathError(`path "${p}" is a directory`, 'invalid_path');
  return { abs, rel: path.relative(root, abs) };
}
