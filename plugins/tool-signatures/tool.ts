// The vigil-signatures AnalysisTool (see index.ts for the rules).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnalysisInput, AnalysisTool, Finding, ToolRunOptions, ToolRunOutput, WorkerPool } from '../../kernel/index.ts';
import { SIGNATURES_TOOL, signaturesTask } from './worker.ts';

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'worker.ts');

export const SELF_TEST_SOURCE = `pragma solidity ^0.8.0;
contract SelfTest {
    address public signer;
    function claim(uint256 amount, uint8 v, bytes32 r, bytes32 s) external {
        bytes32 h = keccak256(abi.encodePacked(msg.sender, amount));
        require(ecrecover(h, v, r, s) == signer);
    }
}
`;

export function createSignaturesTool(opts: { pool: WorkerPool | null }): AnalysisTool {
  async function analyze(input: Pick<AnalysisInput, 'source' | 'file'>, run: ToolRunOptions): Promise<ToolRunOutput> {
    const args = { source: input.source, file: input.file };
    const r = opts.pool
      ? await opts.pool.run<{ findings: Finding[]; diagnostics: unknown[] }>(WORKER, 'signaturesTask', args, { signal: run.signal, deadline: run.deadline })
      : await signaturesTask(args);
    return { status: 'success', findings: r.findings, error: null, meta: { diagnostics: r.diagnostics } };
  }
  return {
    name: SIGNATURES_TOOL,
    layer: 8,
    description: 'Signature and cross-chain checks: replayable signatures (nonce, chain id, domain), ecrecover malleability and address(0), permit deadlines, bridge message verification',
    builtin: true,
    modes: ['quick', 'full'],
    async availability() {
      return { available: true, version: '1.0.0' };
    },
    async selfTest() {
      const out = await analyze({ source: SELF_TEST_SOURCE, file: 'SelfTest.sol' }, { signal: new AbortController().signal, deadline: Date.now() + 60_000 });
      const got = out.findings.map((f) => `${f.detector}@${f.location.line}`).sort();
      if (!got.includes('signature-replay@6') || !got.includes('ecrecover-malleability@6')) throw new Error(`vigil-signatures self-test: expected signature-replay and ecrecover-malleability on line 6, got ${got.join(', ') || 'none'}`);
    },
    run: analyze,
  };
}
