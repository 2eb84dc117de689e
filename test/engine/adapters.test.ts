// External-analyzer adapters: each runs a fake binary placed on a temporary PATH (a small script
// printing output in the tool's documented format, recorded in fixtures/), so availability,
// argv, deadline handling and the JSON->finding mapping are exercised for real.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnalysisTool, ToolRunOutput } from '../../kernel/index.ts';
import { createSlitherAdapter } from '../../plugins/adapter-slither/adapter.ts';
import { createAderynAdapter } from '../../plugins/adapter-aderyn/adapter.ts';
import { createMythrilAdapter } from '../../plugins/adapter-mythril/adapter.ts';
import { createEchidnaAdapter } from '../../plugins/adapter-echidna/adapter.ts';
import { createMedusaAdapter } from '../../plugins/adapter-medusa/adapter.ts';
import { createHalmosAdapter } from '../../plugins/adapter-halmos/adapter.ts';
import { createSemgrepAdapter } from '../../plugins/adapter-semgrep/adapter.ts';
import { parseJsonOutput } from '../../lib/analysis/external/process.ts';

const FIX = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const VAULT = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Vault {
    address owner;
    mapping(address => uint256) public balances;
    function withdraw(uint256 amount) public {
        require(tx.origin == owner);
        (bool ok, ) = msg.sender.call{value: amount}("");
        balances[msg.sender] -= amount;
        require(ok);
    }
    function deposit() public payable { balances[msg.sender] += msg.value; }
}
`;
const TESTS = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract VaultTest {
    function check_deposit() public {}
    function check_withdraw(uint256 amount) public {
        assert(amount != 13);
    }
}
`;

let bin: string;
let hang: string;
// The fake tools are shell scripts that need cat/cp/sleep, so system folders follow them.
const SYS = ['/usr/bin', '/bin'].join(path.delimiter);
const withSys = (d: string) => `${d}${path.delimiter}${SYS}`;
const script = (dir: string, name: string, body: string) => {
  const p = path.join(dir, name);
  fs.writeFileSync(p, `#!/bin/sh\n${body}\n`);
  fs.chmodSync(p, 0o755);
};
before(() => {
  bin = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-fakebin-'));
  hang = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-hangbin-'));
  const version = (v: string, flag = '--version') => `[ "$1" = "${flag}" ] && { echo "${v}"; exit 0; }`;
  const copyTo = (flag: string, fixture: string) =>
    `out=""; while [ $# -gt 0 ]; do [ "$1" = "${flag}" ] && out="$2"; shift; done; cp "${path.join(FIX, fixture)}" "$out"`;
  script(
    bin,
    'slither',
    `${version('0.10.4')}\n[ -f "$1" ] || { echo "target missing: $1" >&2; exit 3; }\ncat "${path.join(FIX, 'slither.json')}"\nexit 255`,
  );
  script(bin, 'aderyn', `${version('aderyn 0.5.2')}\n${copyTo('--output', 'aderyn.json')}`);
  script(
    bin,
    'myth',
    `${version('Mythril version v0.24.8', 'version')}\necho "mythril banner line"\ncat "${path.join(FIX, 'mythril.json')}"\nexit 1`,
  );
  script(bin, 'echidna', `${version('Echidna 2.2.4')}\ncat "${path.join(FIX, 'echidna.json')}"\nexit 1`);
  script(bin, 'medusa', `${version('medusa version 1.1.0')}\ncat "${path.join(FIX, 'medusa.txt')}"\nexit 7`);
  script(bin, 'halmos', `${version('halmos 0.2.4')}\n${copyTo('--json-output', 'halmos.json')}\nexit 1`);
  script(bin, 'forge', `echo "forge 1.0.0"`);
  script(bin, 'semgrep', `${version('1.90.0')}\ncat "${path.join(FIX, 'semgrep.json')}"`);
  script(hang, 'slither', `${version('0.10.4')}\nsleep 30`);
});
after(() => {
  fs.rmSync(bin, { recursive: true, force: true });
  fs.rmSync(hang, { recursive: true, force: true });
});

const run = (t: AnalysisTool, source = VAULT, contract = 'Vault', ms = 20_000): Promise<ToolRunOutput> =>
  t.run(
    { source, file: 'Vault.sol', sha256: '', contract },
    { signal: new AbortController().signal, deadline: Date.now() + ms, mode: 'full' },
  );

const ALL: Array<[string, (o: { envPath: string }) => AnalysisTool, RegExp]> = [
  ['slither', createSlitherAdapter, /pip install slither-analyzer/],
  ['aderyn', createAderynAdapter, /cyfrinup|cargo install aderyn/],
  ['mythril', createMythrilAdapter, /pip install mythril/],
  ['echidna', createEchidnaAdapter, /crytic\/echidna/],
  ['medusa', createMedusaAdapter, /crytic\/medusa/],
  ['halmos', createHalmosAdapter, /pip install halmos/],
  ['semgrep', createSemgrepAdapter, /pip install semgrep/],
];

for (const [name, make, hint] of ALL) {
  test(`${name}: not available with an install hint when its binary is not on PATH`, async () => {
    const t = make({ envPath: path.join(os.tmpdir(), 'vigil-no-such-dir') });
    const a = await t.availability();
    assert.equal(a.available, false);
    assert.match(a.reason!, /not found on PATH/);
    assert.match(a.install_hint!, hint);
    const r = await run(t);
    assert.equal(r.status, 'not_available');
  });
  test(`${name}: available with its version when the binary is on PATH`, async () => {
    const a = await make({ envPath: withSys(bin) }).availability();
    assert.equal(a.available, true);
    assert.match(String(a.version), /\d+\.\d+/);
  });
}

test('slither: detector results in the file become findings; results in other files are dropped', async () => {
  const r = await run(createSlitherAdapter({ envPath: withSys(bin) }));
  assert.equal(r.status, 'success', r.error ?? '');
  assert.equal(r.findings.length, 1);
  const f = r.findings[0];
  assert.equal(f.category, 'reentrancy');
  assert.equal(f.severity, 'HIGH');
  assert.equal(f.swc_id, 'SWC-107');
  assert.deepEqual([f.location.line, f.location.end_line, f.location.contract, f.location.function], [6, 10, 'Vault', 'withdraw']);
  assert.deepEqual(f.tools, ['slither']);
  assert.deepEqual(f.layers, [1]);
});

test('aderyn: report file read, section gives severity, other files dropped', async () => {
  const r = await run(createAderynAdapter({ envPath: withSys(bin) }));
  assert.equal(r.status, 'success', r.error ?? '');
  assert.deepEqual(
    r.findings.map((f) => [f.location.line, f.severity, f.category]),
    [
      [7, 'HIGH', 'access_control'],
      [2, 'LOW', 'other'],
    ],
  );
});

test('mythril: JSON after a banner line; SWC-101 -> arithmetic; tx sequence kept as evidence', async () => {
  const r = await run(createMythrilAdapter({ envPath: withSys(bin) }));
  assert.equal(r.status, 'success', r.error ?? '');
  const f = r.findings[0];
  assert.deepEqual(
    [f.category, f.swc_id, f.severity, f.location.line, f.location.function],
    ['arithmetic', 'SWC-101', 'HIGH', 9, 'withdraw'],
  );
  assert.equal((f.evidence as any).kind, 'transaction_sequence');
  assert.equal(f.layers[0], 3);
});

test('echidna: only solved tests are findings, located at the function, with the call sequence', async () => {
  const r = await run(createEchidnaAdapter({ envPath: withSys(bin) }));
  assert.equal(r.status, 'success', r.error ?? '');
  assert.equal(r.findings.length, 1);
  const f = r.findings[0];
  assert.deepEqual([f.location.line, f.location.function, f.layers[0]], [6, 'withdraw', 2]);
  assert.deepEqual((f.evidence as any).transactions[0].arguments, ['13']);
  const skipped = await createEchidnaAdapter({ envPath: withSys(bin) }).run(
    { source: 'library L {}', file: 'L.sol', sha256: '', contract: null },
    { signal: new AbortController().signal, deadline: Date.now() + 5000 },
  );
  assert.equal(skipped.status, 'skipped');
});

test('medusa: [FAILED] tests from the console report, with the call sequence', async () => {
  const r = await run(createMedusaAdapter({ envPath: withSys(bin) }));
  assert.equal(r.status, 'success', r.error ?? '');
  assert.equal(r.findings.length, 1);
  assert.deepEqual((r.findings[0].evidence as any).call_sequence, ['Vault.withdraw(uint256)(13)']);
  assert.equal(r.findings[0].location.line, 6);
});

test('halmos: refuted check_ functions become findings with the model; sources without check_ are skipped', async () => {
  const t = createHalmosAdapter({ envPath: withSys(bin) });
  const r = await run(t, TESTS, 'VaultTest');
  assert.equal(r.status, 'success', r.error ?? '');
  assert.equal(r.findings.length, 1);
  assert.deepEqual([r.findings[0].location.line, r.findings[0].location.function], [5, 'check_withdraw']);
  assert.deepEqual((r.findings[0].evidence as any).models, [{ p_amount_uint256: '0x0d' }]);
  assert.equal((await run(t)).status, 'skipped');
});

test('semgrep: results mapped with CWE and category', async () => {
  const r = await run(createSemgrepAdapter({ envPath: withSys(bin), rules: '/rules' }));
  assert.equal(r.status, 'success', r.error ?? '');
  const f = r.findings[0];
  assert.deepEqual([f.location.line, f.severity, f.category, f.cwe_id, f.location.column], [7, 'HIGH', 'access_control', 'CWE-477', 8]);
});

test('a binary that outlives the deadline is stopped and reported as timeout', async () => {
  const t0 = Date.now();
  const r = await run(createSlitherAdapter({ envPath: withSys(hang) }), VAULT, 'Vault', 1500);
  assert.equal(r.status, 'timeout');
  assert.ok(Date.now() - t0 < 6000);
});

test('a tool whose own report says it failed is an error naming the cause, never an empty success', async () => {
  const failing = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-failbin-'));
  try {
    const report = {
      success: false,
      error: 'Traceback (most recent call last):\n  File "x.py"\n  raise\nInvalid compilation: ParserError',
      results: {},
    };
    script(failing, 'slither', `[ "$1" = "--version" ] && { echo 0.10.4; exit 0; }\nprintf '%s\\n' '${JSON.stringify(report)}'\nexit 1`);
    const r = await run(createSlitherAdapter({ envPath: withSys(failing) }));
    assert.equal(r.status, 'error');
    assert.deepEqual(r.findings, []);
    assert.equal(r.error, 'slither failed: Traceback (most recent call last):   File "x.py"   raise Invalid compilation: ParserError');
  } finally {
    fs.rmSync(failing, { recursive: true, force: true });
  }
});

test('parseJsonOutput finds the document among log lines', () => {
  assert.deepEqual(parseJsonOutput('INFO: compiling\n{"a": 1}\n'), { a: 1 });
  assert.deepEqual(parseJsonOutput('{"a": [1, 2]}\ntrailing log'), { a: [1, 2] });
  assert.equal(parseJsonOutput('no json here'), null);
});
