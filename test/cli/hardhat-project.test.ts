// A new user's Hardhat project, run the way they would run it: `vigil analyze .` from the project
// root with default options (quick mode, every quick tool), through the
// real CLI in its own process. The shape differs from the datasets: contracts/ beside test/ and
// hardhat.config.js, OpenZeppelin installed under node_modules and imported as
// `@openzeppelin/contracts/...`, an exact `pragma solidity 0.8.30;`, a Foundry-style `*.t.sol`
// next to the contracts. Every reported file must compile, the default exclusions must hold (the
// test folder and the .t.sol are compiled only when imported, never reported), and the run must
// complete: exit 1 with --fail-on high for the reentrant Vault, never 3.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const datasets = process.env.VIGIL_DATASETS ? path.resolve(process.env.VIGIL_DATASETS) : path.resolve(root, '../shared/datasets');
const oz = path.join(datasets, 'real-world/openzeppelin-contracts/contracts');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-hardhat-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

function write(rel: string, text: string) {
  const p = path.join(tmp, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, text);
}

const HEAD = '// SPDX-License-Identifier: MIT\npragma solidity 0.8.30;\n\n';
write(
  'package.json',
  '{ "name": "hh-demo", "private": true, "devDependencies": { "hardhat": "^2.22.0", "@openzeppelin/contracts": "^5.0.0" } }\n',
);
write('hardhat.config.js', 'module.exports = { solidity: "0.8.30" };\n');
write(
  'contracts/Token.sol',
  `${HEAD}import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

contract Token is ERC20, Ownable {
    constructor() ERC20("Demo", "DMO") Ownable(msg.sender) {}

    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }
}
`,
);
write(
  'contracts/interfaces/IVault.sol',
  `${HEAD}interface IVault {\n    function deposit() external payable;\n    function withdraw() external;\n}\n`,
);
write(
  'contracts/Vault.sol',
  `${HEAD}import {IVault} from "./interfaces/IVault.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

contract Vault is IVault {
    mapping(address => uint256) public balances;
    IERC20 public immutable token;

    constructor(IERC20 t) {
        token = t;
    }

    function deposit() external payable {
        balances[msg.sender] += msg.value;
    }

    function withdraw() external {
        uint256 amount = balances[msg.sender];
        (bool ok, ) = msg.sender.call{value: amount}("");
        require(ok, "send failed");
        balances[msg.sender] = 0;
    }
}
`,
);
// Both would be findings (tx.origin, selfdestruct) if they were reported.
write(
  'contracts/Vault.t.sol',
  `${HEAD}import {Vault} from "./Vault.sol";\n\ncontract VaultTest {\n    function testOrigin() external view returns (bool) {\n        return tx.origin == msg.sender;\n    }\n}\n`,
);
write(
  'test/Helper.sol',
  `${HEAD}import {Vault} from "../contracts/Vault.sol";\n\ncontract Helper {\n    function boom(address payable v) external {\n        selfdestruct(v);\n    }\n}\n`,
);

function vigil(args: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = { ...process.env, VIGIL_LOG_LEVEL: 'silent' };
    delete env.VIGIL_CONTRACT_ROOTS;
    const p = spawn(process.execPath, [path.join(root, 'bin/vigil.js'), ...args], { cwd, env });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('close', (code) => resolve({ code: code ?? -1, out, err }));
  });
}

test(
  'a Hardhat project with @openzeppelin imports: every file compiles, tests are not reported, every tool completes',
  { skip: !fs.existsSync(oz) && `OpenZeppelin is not at ${oz} (set VIGIL_DATASETS)` },
  async () => {
    // Installed the way npm installs it: the package folder holds the contracts folder's files.
    fs.cpSync(oz, path.join(tmp, 'node_modules/@openzeppelin/contracts'), { recursive: true });
    const r = await vigil(['analyze', '.', '--format', 'json', '--fail-on', 'high'], tmp);
    assert.equal(r.code, 1, r.err);
    const body = JSON.parse(r.out);
    assert.deepEqual(
      body.files.map((f: any) => f.file),
      ['contracts/Token.sol', 'contracts/Vault.sol', 'contracts/interfaces/IVault.sol'],
    );
    for (const f of body.files) assert.equal(f.compilation?.ok, true, `${f.file}: ${JSON.stringify(f.compilation)}`);
    assert.deepEqual(body.incomplete, [], r.err);
    assert.doesNotMatch(r.err, /incomplete/);
    assert.equal(body.project.config, 'hardhat.config.js');
    assert.equal(body.project.files_found, 5, 'node_modules is not walked for files to report');
    assert.equal(body.project.files_excluded, 2);
    assert.deepEqual(body.project.builds, [{ compiler: '0.8.30', files: 3, pinned_release_missing: false }]);
    // Quick mode is the pattern layers; the model checker is full mode's.
    assert.deepEqual(
      body.results
        .filter((t: any) => t.status !== 'not_available')
        .map((t: any) => t.tool)
        .sort(),
      ['solhint', 'vigil-signatures', 'vigil-specialized', 'vigil-static'],
    );
    for (const t of body.results) assert.ok(['success', 'not_available'].includes(t.status), JSON.stringify(t));
    assert.ok(
      body.findings.some((f: any) => f.category === 'reentrancy' && f.location.file === 'contracts/Vault.sol' && f.severity === 'HIGH'),
      JSON.stringify(body.findings.map((f: any) => [f.detector, f.location.file, f.location.line])),
    );
    const files = new Set(body.findings.map((f: any) => f.location.file));
    for (const f of files) assert.match(String(f), /^contracts\/(?!.*\.t\.sol$)/, `a finding in an excluded or library file: ${String(f)}`);
  },
);
