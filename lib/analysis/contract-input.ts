// Turns the contract fields of a request into source text. contract_code is taken as is (size
// capped: 413 above the limit); contract_path is read only inside the allowed roots: any `..`
// segment, an absolute path outside every root, or a symlink anywhere on the path that resolves
// outside is refused with 403 path_not_allowed; a missing file is 400 contract_not_found.
import fs from 'node:fs/promises';
import path from 'node:path';
import { HttpError } from '../../kernel/index.ts';

export interface ContractSource {
  source: string;
  /** Display name used in finding locations. */
  file: string;
  absPath: string | null;
}

const inside = (root: string, p: string) => {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

export async function readContract(
  fields: { code?: string; path?: string },
  names: { code: string; path: string },
  opts: { roots: string[]; maxBytes: number },
): Promise<ContractSource> {
  const hasCode = typeof fields.code === 'string';
  const hasPath = typeof fields.path === 'string';
  if (hasCode === hasPath) {
    throw new HttpError(400, 'invalid_request', hasCode ? `send either ${names.code} or ${names.path}, not both` : `one of ${names.code} or ${names.path} is required`);
  }
  if (hasCode) {
    const code = fields.code!;
    const bytes = Buffer.byteLength(code, 'utf8');
    if (bytes > opts.maxBytes) {
      throw new HttpError(413, 'payload_too_large', `${names.code} is ${bytes} bytes; the limit is ${opts.maxBytes} bytes (1 MiB)`, { limit: opts.maxBytes, size: bytes });
    }
    if (code.trim() === '') throw new HttpError(400, 'invalid_request', `${names.code} is empty`);
    return { source: code, file: 'Contract.sol', absPath: null };
  }
  return readPath(fields.path!, names.path, opts);
}

async function readPath(p: string, field: string, opts: { roots: string[]; maxBytes: number }): Promise<ContractSource> {
  if (p.includes('\0')) throw new HttpError(400, 'invalid_request', `${field} must not contain NUL bytes`);
  const roots = opts.roots.map((r) => path.resolve(r));
  if (p.split(/[\\/]+/).includes('..')) {
    throw new HttpError(403, 'path_not_allowed', `${field} must not contain ".." segments`, { allowed_roots: roots.length });
  }
  const candidates = path.isAbsolute(p) ? [path.resolve(p)] : roots.map((r) => path.resolve(r, p));
  const lexicalRoot = (abs: string) => roots.find((r) => inside(r, abs));
  const allowed = candidates.filter((c) => lexicalRoot(c));
  if (!allowed.length) throw new HttpError(403, 'path_not_allowed', `${field} "${p}" is outside the allowed contract roots (VIGIL_CONTRACT_ROOTS)`);
  let lastMissing: string | null = null;
  for (const abs of allowed) {
    let real: string;
    try {
      real = await fs.realpath(abs);
    } catch {
      lastMissing = abs;
      continue;
    }
    const realRoots = await Promise.all(roots.map((r) => fs.realpath(r).catch(() => r)));
    const root = realRoots.find((r) => inside(r, real));
    if (!root) throw new HttpError(403, 'path_not_allowed', `${field} "${p}" leads outside the allowed contract roots through a symlink`);
    const st = await fs.stat(real);
    if (!st.isFile()) throw new HttpError(400, 'contract_not_found', `${field} "${p}" is not a file`);
    if (st.size > opts.maxBytes) throw new HttpError(413, 'payload_too_large', `${field} "${p}" is ${st.size} bytes; the limit is ${opts.maxBytes} bytes (1 MiB)`);
    const source = await fs.readFile(real, 'utf8');
    if (source.trim() === '') throw new HttpError(400, 'invalid_request', `${field} "${p}" is empty`);
    return { source, file: path.relative(root, real) || path.basename(real), absPath: real };
  }
  throw new HttpError(400, 'contract_not_found', `${field} "${p}" does not exist${lastMissing ? '' : ''}`);
}
