/* eslint-disable no-control-regex -- the terminal output's colour escapes are what these assertions check */
// `vigil analyze` on projects: exit codes 0/1/2/3 and --allow-partial, what stderr names, the
// default exclusions and --include/--exclude, the terminal summary, and a real on-demand solc
// install from the npm registry for a pin no bundled release satisfies.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runAnalyzeCommand } from '../../plugins/analysis-engine/cli-analyze.ts';
import { createAnalysisEngine } from '../../plugins/analysis-engine/engine.ts';
import { createSolhintTool } from '../../plugins/tool-solhint/solhint.ts';
import { refreshInstalledCompilers } from '../../lib/analysis/compiler/versions.ts';

const engine = createAnalysisEngine({ registry: { tools: () => [createSolhintTool({ pool: null })] }, pool: null, version: '0.1.0' });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-cli-proj-'));
// A cache of our own: the install below really runs `npm pack` (npm's own cache keeps reruns cheap).
const cache = path.join(tmp, 'solc-cache');
const prevCache = process.env.VIGIL_SOLC_CACHE;
const prevAuto = process.env.VIGIL_SOLC_AUTO_INSTALL;
process.env.VIGIL_SOLC_CACHE = cache;
process.env.VIGIL_SOLC_AUTO_INSTALL = '1';
refreshInstalledCompilers();
after(() => {
  if (prevCache === undefined) delete process.env.VIGIL_SOLC_CACHE;
  else process.env.VIGIL_SOLC_CACHE = prevCache;
  if (prevAuto === undefined) delete process.env.VIGIL_SOLC_AUTO_INSTALL;
  else process.env.VIGIL_SOLC_AUTO_INSTALL = prevAuto;
  refreshInstalledCompilers();
  fs.rmSync(tmp, { recursive: true, force: true });
});

function write(rel: string, text: string) {
  const p = path.join(tmp, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, text);
  return p;
}
function io(tty = false) {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { stdout: { write: (s: string) => out.push(s), isTTY: tty }, stderr: { write: (s: string) => err.push(s), isTTY: false } },
    out: () => out.join(''),
    err: () => err.join(''),
  };
}
const SPDX = '// SPDX-License-Identifier: MIT\n';
const TX_ORIGIN = `${SPDX}pragma solidity ^0.8.0;\nimport "./Base.sol";\ncontract Wallet is Base {\n  function pay(address payable to) external { require(msg.sender == owner); to.send(1); }\n}\n`;

write('app/package.json', '{"name":"app","private":true}');
write('app/contracts/Base.sol', `${SPDX}pragma solidity ^0.8.0;\nabstract contract Base { address public owner; }\n`);
write('app/contracts/Wallet.sol', TX_ORIGIN);
write(
  'app/test/Wallet.t.sol',
  `${SPDX}pragma solidity ^0.8.0;\nimport "../contracts/Wallet.sol";\ncontract WalletTest { function testPay() public { require(tx.origin == address(0)); } }\n`,
);
write(
  'app/script/Deploy.s.sol',
  `${SPDX}pragma solidity ^0.8.0;\ncontract Deploy { function run() public { require(tx.origin != address(0)); } }\n`,
);

test('a project: every reported file compiles, tests and scripts are left out, exit 0 (1 with --fail-on)', async () => {
  const c = io();
  const code = await runAnalyzeCommand(engine, path.join(tmp, 'app'), { format: 'json', progress: false }, c.io);
  assert.equal(code, 0, c.err());
  const body = JSON.parse(c.out());
  assert.deepEqual(
    body.files.map((f: any) => f.file),
    ['contracts/Base.sol', 'contracts/Wallet.sol'],
  );
  assert.ok(
    body.files.every((f: any) => f.compilation.ok),
    JSON.stringify(body.files),
  );
  assert.deepEqual(body.incomplete, []);
  assert.equal(body.project.files_found, 4);
  assert.equal(body.project.files_excluded, 2);
  assert.deepEqual(body.project.builds, [{ compiler: '0.8.30', files: 2, pinned_release_missing: false }]);
  assert.ok(
    body.findings.some(
      (f: any) => f.detector === 'solhint-check-send-result' && f.location.file === 'contracts/Wallet.sol' && f.location.line === 5,
    ),
  );
  assert.equal(c.err(), '');
  assert.equal(await runAnalyzeCommand(engine, path.join(tmp, 'app'), { failOn: 'low', progress: false, format: 'json' }, io().io), 1);
});

test('--include brings excluded files back, --exclude drops files', async () => {
  const c = io();
  assert.equal(
    await runAnalyzeCommand(engine, path.join(tmp, 'app'), { format: 'json', progress: false, include: ['test/**'] }, c.io),
    0,
    c.err(),
  );
  assert.deepEqual(
    JSON.parse(c.out()).files.map((f: any) => f.file),
    ['test/Wallet.t.sol'],
  );
  const d = io();
  assert.equal(
    await runAnalyzeCommand(engine, path.join(tmp, 'app'), { format: 'json', progress: false, exclude: ['**/Base.sol'] }, d.io),
    0,
    d.err(),
  );
  assert.deepEqual(
    JSON.parse(d.out()).files.map((f: any) => f.file),
    ['contracts/Wallet.sol'],
  );
  const e = io();
  assert.equal(await runAnalyzeCommand(engine, path.join(tmp, 'app'), { progress: false, exclude: ['contracts/**'] }, e.io), 2);
  assert.match(e.err(), /no \.sol files to analyse .* all 4 are excluded/);
});

test('a missing import: exit 3, stderr names the file and the import string; --allow-partial gives 0', async () => {
  write('broken/package.json', '{}');
  write('broken/src/Ok.sol', `${SPDX}pragma solidity ^0.8.0;\ncontract Ok { uint x; }\n`);
  write(
    'broken/src/Needs.sol',
    `${SPDX}pragma solidity ^0.8.0;\nimport "@openzeppelin/contracts/access/Ownable.sol";\ncontract Needs {}\n`,
  );
  const c = io();
  const code = await runAnalyzeCommand(engine, path.join(tmp, 'broken'), { format: 'json', progress: false }, c.io);
  assert.equal(code, 3, c.err());
  assert.match(c.err(), /incomplete/);
  assert.match(c.err(), /src\/Needs\.sol: compilation: .*"@openzeppelin\/contracts\/access\/Ownable\.sol"/);
  assert.doesNotMatch(c.err(), /src\/Ok\.sol/);
  const body = JSON.parse(c.out());
  assert.deepEqual(
    body.incomplete.map((i: any) => [i.file, i.what]),
    [['src/Needs.sol', 'compile']],
  );
  const p = io();
  assert.equal(await runAnalyzeCommand(engine, path.join(tmp, 'broken'), { format: 'json', progress: false, allowPartial: true }, p.io), 0);
  assert.match(p.err(), /src\/Needs\.sol/, 'still named with --allow-partial');
  // Exit 3 wins over --fail-on's 1 when something is incomplete, and --allow-partial turns it back into 1.
  write(
    'broken/src/Origin.sol',
    TX_ORIGIN.replace('import "./Base.sol";\ncontract Wallet is Base {', 'contract Wallet {\n  address owner;'),
  );
  assert.equal(await runAnalyzeCommand(engine, path.join(tmp, 'broken'), { progress: false, failOn: 'low', format: 'json' }, io().io), 3);
  assert.equal(
    await runAnalyzeCommand(
      engine,
      path.join(tmp, 'broken'),
      { progress: false, failOn: 'low', allowPartial: true, format: 'json' },
      io().io,
    ),
    1,
  );
});

test("a folder where one file is not Solidity: exit 3 naming it with solc's message; all invalid: exit 2", async () => {
  write('mixed/Good.sol', `${SPDX}pragma solidity ^0.8.0;\ncontract Good { uint x; }\n`);
  write('mixed/Notes.sol', 'hello world\n');
  const c = io();
  assert.equal(await runAnalyzeCommand(engine, path.join(tmp, 'mixed'), { format: 'json', progress: false }, c.io), 3);
  assert.match(c.err(), /Notes\.sol: not valid Solidity: line \d+:\d+: ParserError: Expected /);
  const d = io();
  assert.equal(await runAnalyzeCommand(engine, path.join(tmp, 'mixed', 'Notes.sol'), {}, d.io), 2);
  assert.match(d.err(), /Notes\.sol:\d+:\d+: ParserError: Expected /);
  assert.doesNotMatch(d.err(), /Cannot read properties/);
});

test('the terminal summary: one line per finding with severity, detector and file:line', async () => {
  const c = io(true);
  const code = await runAnalyzeCommand(engine, path.join(tmp, 'app'), { progress: false }, c.io);
  assert.equal(code, 0);
  const text = c.out();
  assert.match(text, /^\x1b\[1mvigil quick analysis\x1b\[0m — 2 files, 2 compiled \(solc 0\.8\.30\)/);
  assert.match(text, /\x1b\[[0-9;]+m(LOW|MEDIUM|HIGH)\s*\x1b\[0m\s+solhint-check-send-result\s+contracts\/Wallet\.sol:5\s+\S/);
  assert.match(text, /\d+ findings?: /);
  assert.doesNotThrow(() => text.split('\n'));
  assert.throws(() => JSON.parse(text));
  const plain = io(false);
  await runAnalyzeCommand(engine, path.join(tmp, 'app'), { progress: false, format: 'text' }, plain.io);
  assert.doesNotMatch(plain.out(), /\x1b\[/, 'no colour when stdout is not a terminal');
});

test('an exact pin no bundled release satisfies: solc is installed from the npm registry and honoured across imports', async () => {
  write('pinned/package.json', '{}');
  write(
    'pinned/contracts/Math.sol',
    'pragma solidity =0.5.16;\nlibrary Math { function min(uint x, uint y) internal pure returns (uint z) { z = x < y ? x : y; } }\n',
  );
  write(
    'pinned/contracts/Pair.sol',
    'pragma solidity >=0.5.0;\nimport "./Math.sol";\ncontract Pair { function f(uint a) external pure returns (uint) { return Math.min(a, 1); } }\n',
  );
  const c = io();
  const code = await runAnalyzeCommand(engine, path.join(tmp, 'pinned'), { format: 'json', progress: false }, c.io);
  assert.equal(code, 0, c.err());
  assert.match(c.err(), /installed solc 0\.5\.16 from the npm registry/);
  const body = JSON.parse(c.out());
  assert.deepEqual(body.project.builds, [{ compiler: '0.5.16', files: 2, pinned_release_missing: false }]);
  assert.ok(
    body.files.every((f: any) => f.compilation.ok && f.compilation.compiler === '0.5.16'),
    JSON.stringify(body.files),
  );
  assert.ok(fs.existsSync(path.join(cache, '0.5.16', 'soljson.js')));

  // `vigil solc list` shows it as cached; `vigil solc install` of a cached release is immediate.
  const env = { ...process.env, VIGIL_SOLC_CACHE: cache };
  const list = JSON.parse(execFileSync(process.execPath, ['bin/vigil.js', 'solc', 'list', '--json'], { env, encoding: 'utf8' }));
  assert.ok(list.installed.some((r: any) => r.version === '0.5.16' && r.source === 'cache'));
  assert.ok(list.installed.some((r: any) => r.version === '0.8.30' && r.source === 'bundled'));
  const again = spawnSync(process.execPath, ['bin/vigil.js', 'solc', 'install', '0.5.16'], { env, encoding: 'utf8' });
  assert.equal(again.status, 0, again.stderr);
  assert.match(again.stdout, /solc 0\.5\.16 installed: .*0\.5\.16\/soljson\.js/);
  const bad = spawnSync(process.execPath, ['bin/vigil.js', 'solc', 'install', 'latest'], { env, encoding: 'utf8' });
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /"latest" is not a solc release number/);
});

test('offline: a pin that cannot be installed says exactly which release to install', async () => {
  write('offline/package.json', '{}');
  write('offline/A.sol', 'pragma solidity =0.6.2;\ncontract A { uint x; }\n');
  const prev = process.env.npm_config_registry;
  process.env.npm_config_registry = 'http://127.0.0.1:9/';
  try {
    const c = io();
    const code = await runAnalyzeCommand(engine, path.join(tmp, 'offline'), { format: 'json', progress: false }, c.io);
    assert.match(c.err(), /solc 0\.6\.2 is not installed .*run `vigil solc install 0\.6\.2`/);
    // It still compiles with the nearest release of the same series, and says so.
    const body = JSON.parse(c.out());
    assert.equal(body.files[0].compilation.compiler, '0.6.12');
    assert.deepEqual(body.project.builds, [{ compiler: '0.6.12', files: 1, pinned_release_missing: true }]);
    assert.equal(code, 0);
  } finally {
    if (prev === undefined) delete process.env.npm_config_registry;
    else process.env.npm_config_registry = prev;
  }
});
