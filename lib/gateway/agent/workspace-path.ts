// Workspace confinement shared by the file and contract-audit skills. The lexical check rejects
// `..` and absolute paths that leave the root; the realpath check rejects symlinks (anywhere on
// the path) that point out of it. Writes check the nearest existing parent and refuse to write through a symlink.
import fs from 'node:fs/promises';
import path from 'node:path';

export class PathError extends Error {
  constructor(message: string, readonly code: 'path_outside_workspace' | 'not_found' | 'invalid_path') {
    super(message);
  }
}

const inside = (root: string, p: string) => {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

export async function realRoot(workspace: string): Promise<string> {
  return fs.realpath(workspace);
}

/** Resolves `p` for reading/listing; the target must exist and really be inside the root. */
export async function resolveExisting(root: string, p: string): Promise<{ abs: string; rel: string }> {
  if (p.includes('\0')) throw new PathError('path must not contain NUL bytes', 'invalid_path');
  const abs = path.resolve(root, p);
  if (!inside(root, abs)) throw new PathError(`path "${p}" is outside the workspace`, 'path_outside_workspace');
  let real: string;
  try {
    real = await fs.realpath(abs);
  } catch {
    throw new PathError(`path "${p}" does not exist in the workspace`, 'not_found');
  }
  if (!inside(root, real)) throw new PathError(`path "${p}" leads outside the workspace through a symlink`, 'path_outside_workspace');
  return { abs: real, rel: path.relative(root, real) || '.' };
}

/** Resolves `p` for writing: its nearest existing ancestor must really be inside the root. */
export async function resolveForWrite(root: string, p: string): Promise<{ abs: string; rel: string }> {
  if (p.includes('\0')) throw new PathError('path must not contain NUL bytes', 'invalid_path');
  const abs = path.resolve(root, p);
  if (!inside(root, abs) || abs === root) throw new PathError(`path "${p}" is outside the workspace`, 'path_outside_workspace');
  let probe = abs;
  for (;;) {
    try {
      const real = await fs.realpath(probe);
      if (!inside(root, real)) throw new PathError(`path "${p}" leads outside the workspace through a symlink`, 'path_outside_workspace');
      break;
    } catch (e) {
      if (e instanceof PathError) throw e;
      const up = path.dirname(probe);
      if (up === probe) throw new PathError(`path "${p}" has no existing parent in the workspace`, 'invalid_path');
      probe = up;
    }
  }
  const st = await fs.lstat(abs).catch(() => null);
  if (st?.isSymbolicLink()) throw new PathError(`path "${p}" is a symlink; writing through symlinks is not allowed`, 'path_outside_workspace');
  if (st?.isDirectory()) throw new PathError(`path "${p}" is a directory`, 'invalid_path');
  return { abs, rel: path.relative(root, abs) };
}
