// The vigil-signatures AnalysisTool (see index.ts for the rules).
import type { AnalysisTool } from '../../kernel/index.ts';
import { createRuleTool, type ToolAnalyzer } from '../../lib/analysis/static/rule-tool.ts';

export const SIGNATURES_TOOL = 'vigil-signatures';

export const SELF_TEST_SOURCE = `pragma solidity ^0.8.0;
contract SelfTest {
    address public signer;
    function claim(uint256 amount, uint8 v, bytes32 r, bytes32 s) external {
        bytes32 h = keccak256(abi.encodePacked(msg.sender, amount));
        require(ecrecover(h, v, r, s) == signer);
    }
}
`;

export function createSignaturesTool(opts: { analyze: ToolAnalyzer }): AnalysisTool {
  return createRuleTool(
    {
      name: SIGNATURES_TOOL,
      layer: 8,
      description:
        'Signature and cross-chain checks: replayable signatures (nonce, chain id, domain), ecrecover malleability and address(0), permit deadlines, bridge message verification',
      selfTest: { source: SELF_TEST_SOURCE, expect: ['signature-replay@6', 'ecrecover-malleability@6'] },
    },
    opts,
  );
}
