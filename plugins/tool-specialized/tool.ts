// The vigil-specialized AnalysisTool (see index.ts for the rules).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnalysisInput, AnalysisTool, Finding, ToolRunOptions, ToolRunOutput, WorkerPool } from '../../kernel/index.ts';
import { SPECIALIZED_TOOL, specializedTask } from './worker.ts';

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'worker.ts');

export const SELF_TEST_SOURCE = `pragma solidity ^0.8.0;
contract SelfTest {
    address public owner;
    function initialize(address o) external {
        owner = o;
    }
    function sweep() external {
        require(msg.sender == owner);
        payable(owner).transfer(address(this).balance);
    }
}
`;

export function createSpecializedTool(opts: { pool: WorkerPool | null }): AnalysisTool {
  async function analyze(input: Pick<AnalysisInput, 'source' | 'file'>, run: ToolRunOptions): Promise<ToolRunOutput> {
    const args = { source: input.source, file: input.file };
    const r = opts.pool
      ? await opts.pool.run<{ findings: Finding[]; diagnostics: unknown[] }>(WORKER, 'specializedTask', args, { signal: run.signal, deadline: run.deadline })
      : await specializedTask(args);
    return { status: 'success', findings: r.findings, error: null, meta: { diagnostics: r.diagnostics } };
  }
  return {
    name: SPECIALIZED_TOOL,
    layer: 7,
    description: 'DeFi, upgradeability and gas checks: spot-price oracles, flash-loan-sensitive share prices, unprotected initializers, proxy storage collisions, silent privileged setters, unbounded loops',
    builtin: true,
    modes: ['quick', 'full'],
    async availability() {
      return { available: true, version: '1.0.0' };
    },
    async selfTest() {
      const out = await analyze({ source: SELF_TEST_SOURCE, file: 'SelfTest.sol' }, { signal: new AbortController().signal, deadline: Date.now() + 60_000 });
      if (!out.findings.some((f) => f.detector === 'unprotected-initializer' && f.location.line === 4)) {
        throw new Error(`vigil-specialized self-test: expected unprotected-initializer on line 4, got ${out.findings.map((f) => `${f.detector}@${f.location.line}`).join(', ') || 'none'}`);
      }
    },
    run: analyze,
  };
}
