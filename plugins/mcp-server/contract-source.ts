// Contract input of the MCP analysis operations: Solidity given inline (`*_code`) or as a file
// (`*_path`) inside the allowed contract roots (VIGIL_CONTRACT_ROOTS). The REST API's reader is
// used as is, so both surfaces confine paths (`..`, roots, symlinks that lead out) the same way;
// only the error type differs (MCP answers tool errors, not HTTP statuses). The same reader
// refuses non-.sol files (not_solidity) and pathological source (source_too_complex).
import { HttpError } from '../../kernel/index.ts';
import { readContract } from '../../lib/analysis/contract-input.ts';

export const MAX_CONTRACT_BYTES = 1024 * 1024;

export class ContractInputError extends Error {
  constructor(
    readonly code:
      'invalid_request' | 'path_not_allowed' | 'contract_not_found' | 'payload_too_large' | 'not_solidity' | 'source_too_complex',
    message: string,
  ) {
    super(message);
  }
}

export interface ContractText {
  source: string;
  /** Display name used in finding locations. */
  file: string;
  absPath: string | null;
}

export async function readContractInput(input: Record<string, unknown>, name: string, roots: string[]): Promise<ContractText> {
  try {
    return await readContract(input, name, { roots, maxBytes: MAX_CONTRACT_BYTES });
  } catch (e) {
    if (e instanceof HttpError) throw new ContractInputError(e.code as ContractInputError['code'], e.message);
    throw e;
  }
}
