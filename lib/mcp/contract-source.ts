// Contract input of the MCP analysis operations: Solidity given inline (`*_code`) or as a file
// (`*_path`) inside the allowed contract roots (VIGIL_CONTRACT_ROOTS) — the same roots and the
// same confinement rules as the REST API: `..` segments, absolute paths outside every root and
// symlinks that lead out are refused. Confinement reuses the gateway's realpath-checked resolver.
import fs from 'node:fs/promises';
import { PathError, realRoot, resolveExisting } from '../gateway/agent/workspace-path.ts';

export const MAX_CONTRACT_BYTES = 1024 * 1024;

export class ContractInputError extends Error {
  constructor(readonly code: 'invalid_request' | 'path_not_allowed' | 'contract_not_found' | 'payload_too_large', message: string) {
    super(message);
  }
}

export interface ContractText {
  source: string;
  /** Display name used in finding locations. */
  file: string;
  absPath: string | null;
}

export async function readContractInput(
  fields: { code?: unknown; path?: unknown },
  names: { code: string; path: string },
  roots: string[],
): Promise<ContractText> {
  const hasCode = typeof fields.code === 'string';
  const hasPath = typeof fields.path === 'string';
  if (hasCode === hasPath) {
    throw new ContractInputError('invalid_request', hasCode ? `send either ${names.code} or ${names.path}, not both` : `one of ${names.code} or ${names.path} is required`);
  }
  if (hasCode) {
    const code = fields.code as string;
    const bytes = Buffer.byteLength(code, 'utf8');
    if (bytes > MAX_CONTRACT_BYTES) throw new ContractInputError('payload_too_large', `${names.code} is ${bytes} bytes; the limit is 1 MiB`);
    if (!code.trim()) throw new ContractInputError('invalid_request', `${names.code} is empty`);
    return { source: code, file: 'Contract.sol', absPath: null };
  }
  const p = fields.path as string;
  if (p.split(/[\\/]+/).includes('..')) throw new ContractInputError('path_not_allowed', `${names.path} must not contain ".." segments`);
  let firstRefusal: PathError | null = null;
  for (const r of roots) {
    let root: string;
    try {
      root = await realRoot(r);
    } catch {
      continue; // a configured root that does not exist holds no contracts
    }
    let hit: { abs: string; rel: string };
    try {
      hit = await resolveExisting(root, p);
    } catch (e) {
      if (e instanceof PathError) {
        if (e.code !== 'not_found') firstRefusal ??= e;
        continue;
      }
      throw e;
    }
    const st = await fs.stat(hit.abs);
    if (!st.isFile()) throw new ContractInputError('contract_not_found', `${names.path} "${p}" is not a file`);
    if (st.size > MAX_CONTRACT_BYTES) throw new ContractInputError('payload_too_large', `${names.path} "${p}" is ${st.size} bytes; the limit is 1 MiB`);
    const source = await fs.readFile(hit.abs, 'utf8');
    if (!source.trim()) throw new ContractInputError('invalid_request', `${names.path} "${p}" is empty`);
    return { source, file: hit.rel, absPath: hit.abs };
  }
  if (firstRefusal && firstRefusal.code === 'path_outside_workspace') {
    throw new ContractInputError('path_not_allowed', `${names.path} "${p}" is outside the allowed contract roots (VIGIL_CONTRACT_ROOTS)`);
  }
  if (firstRefusal) throw new ContractInputError('invalid_request', `${names.path}: ${firstRefusal.message}`);
  throw new ContractInputError('contract_not_found', `${names.path} "${p}" does not exist in the allowed contract roots`);
}
