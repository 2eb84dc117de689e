// The vigil-specialized AnalysisTool (see index.ts for the rules).
import type { AnalysisTool } from '../../kernel/index.ts';
import { createRuleTool, type ToolAnalyzer } from '../../lib/analysis/static/rule-tool.ts';

export const SPECIALIZED_TOOL = 'vigil-specialized';

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

export function createSpecializedTool(opts: { analyze: ToolAnalyzer }): AnalysisTool {
  return createRuleTool(
    {
      name: SPECIALIZED_TOOL,
      layer: 7,
      description:
        'DeFi, upgradeability and gas checks: spot-price oracles, flash-loan-sensitive share prices, unprotected initializers, proxy storage collisions, silent privileged setters, unbounded loops',
      selfTest: { source: SELF_TEST_SOURCE, expect: ['unprotected-initializer@4'] },
      // A privileged setter without an event is an auditing gap, not an exploitable bug.
      fullModeOnly: ['missing-event'],
    },
    opts,
  );
}
