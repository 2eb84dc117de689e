// Boots a real kernel (every analysis-side plugin under plugins/) on a temporary data dir for API tests.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kernel } from '../../kernel/kernel.ts';
import { resolveSettings } from '../../kernel/config.ts';
import { bootKernel } from '../helpers.ts';

export interface Booted {
  kernel: Kernel;
  dataDir: string;
  roots: string;
  stop(): Promise<void>;
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** `all`: every plugin, for a test that also drives the gateway (MCP, the agent's skills). */
export async function boot(opts: { dataDir?: string; roots?: string; listen?: boolean; all?: boolean } = {}): Promise<Booted> {
  const dataDir = opts.dataDir ?? tempDir('vigil-api-data-');
  const roots = opts.roots ?? tempDir('vigil-api-roots-');
  const settings = resolveSettings({
    dataDir,
    env: { VIGIL_CONTRACT_ROOTS: roots },
    logLevel: 'silent',
    ...(opts.listen ? { apiBind: '127.0.0.1:0', bind: '127.0.0.1:0' } : {}),
  });
  const kernel = await bootKernel({ resolved: settings, ...(opts.all ? {} : { side: 'analysis' }), kernel: { poolThreads: undefined } });
  return { kernel, dataDir, roots, stop: () => kernel.stop() };
}

/** A contract with a reentrancy, an unchecked call and a tx.origin check. */
export const VULNERABLE = `pragma solidity ^0.4.24;

contract Bank {
    mapping(address => uint256) public balances;
    address public owner;

    constructor() public {
        owner = msg.sender;
    }

    function deposit() public payable {
        balances[msg.sender] += msg.value;
    }

    function withdraw(uint256 amount) public {
        require(tx.origin == owner);
        require(balances[msg.sender] >= amount);
        msg.sender.call.value(amount)();
        balances[msg.sender] -= amount;
    }
}
`;

export const CLEAN = `// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

contract Counter {
    uint256 public count;

    function increment() external {
        count += 1;
    }
}
`;
