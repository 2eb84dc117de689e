// `vigil analyze` implementation: file and folder input, formats, --fail-on and exit codes.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runAnalyzeCommand } from '../../plugins/analysis-engine/cli-analyze.ts';
import { createAnalysisEngine } from '../../plugins/analysis-engine/engine.ts';
import { createSolhintTool } from '../../plugins/tool-solhint/solhint.ts';
import { capture } from '../cli-ux/helpers.ts';

const engine = createAnalysisEngine({ registry: { tools: () => [createSolhintTool({ pool: null })] }, pool: null, version: '0.1.0' });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-cli-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const UNCHECKED_SEND = 'pragma solidity ^0.8.0;\ncontract A {\n  address payable owner;\n  function f() public { owner.send(1); }\n}\n';
fs.mkdirSync(path.join(dir, 'contracts', 'sub'), { recursive: true });
fs.mkdirSync(path.join(dir, 'node_modules', 'dep'), { recursive: true });
fs.writeFileSync(path.join(dir, 'contracts', 'A.sol'), UNCHECKED_SEND);
fs.writeFileSync(path.join(dir, 'contracts', 'sub', 'B.sol'), 'pragma solidity ^0.8.0;\ncontract B { uint x; }\n');
fs.writeFileSync(path.join(dir, 'node_modules', 'dep', 'C.sol'), UNCHECKED_SEND);
fs.writeFileSync(path.join(dir, 'Broken.sol'), 'contract {');
fs.mkdirSync(path.join(dir, 'empty', 'node_modules', 'x'), { recursive: true });
fs.writeFileSync(path.join(dir, 'empty', 'node_modules', 'x', 'D.sol'), UNCHECKED_SEND);

test('a file: prints the analysis body as JSON, exit 0', async () => {
  const c = capture();
  const code = await runAnalyzeCommand(engine, path.join(dir, 'contracts', 'A.sol'), { mode: 'quick', format: 'json' }, c.io);
  assert.equal(code, 0, c.err());
  const body = JSON.parse(c.out());
  assert.equal(body.audit_type, 'quick');
  assert.ok(
    body.findings.some((f: any) => f.detector === 'solhint-check-send-result'),
    JSON.stringify(body.findings.map((f: any) => f.detector)),
  );
});

test('--fail-on: exit 1 when a finding is at or above the threshold, 0 otherwise', async () => {
  const file = path.join(dir, 'contracts', 'A.sol');
  assert.equal(await runAnalyzeCommand(engine, file, { failOn: 'medium' }, capture().io), 1);
  assert.equal(await runAnalyzeCommand(engine, file, { failOn: 'HIGH' }, capture().io), 0);
});

test('a folder: one body, findings carry their relative file, node_modules skipped', async () => {
  const c = capture();
  const code = await runAnalyzeCommand(engine, path.join(dir, 'contracts'), { format: 'json' }, c.io);
  assert.equal(code, 0, c.err());
  const body = JSON.parse(c.out());
  // paths are relative to the folder given (or to the working directory when inside it)
  assert.deepEqual(
    body.files.map((f: any) => f.file),
    ['A.sol', 'sub/B.sol'],
  );
  const f = body.findings.find((x: any) => x.detector === 'solhint-check-send-result');
  assert.equal(f.location.file, 'A.sol');
  assert.ok(!f.location.file.startsWith('/'));
  assert.ok(!c.out().includes('node_modules'));
  assert.equal(body.results.length, 1);
});

test('SARIF and Markdown output', async () => {
  const s = capture();
  await runAnalyzeCommand(engine, path.join(dir, 'contracts', 'A.sol'), { format: 'sarif' }, s.io);
  const sarif = JSON.parse(s.out());
  assert.equal(sarif.version, '2.1.0');
  assert.match(sarif.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri, /A\.sol$/);
  const m = capture();
  await runAnalyzeCommand(engine, path.join(dir, 'contracts', 'A.sol'), { format: 'markdown' }, m.io);
  assert.match(m.out(), /^# vigil quick analysis: A/);
});

test('bad input exits 2 with a specific message', async () => {
  const cases: Array<[string, Record<string, string>, RegExp]> = [
    [path.join(dir, 'nope.sol'), {}, /path not found/],
    [path.join(dir, 'empty'), {}, /no \.sol files/],
    [path.join(dir, 'contracts', 'A.sol'), { mode: 'deep' }, /--mode must be quick or full/],
    [path.join(dir, 'contracts', 'A.sol'), { layer: '12' }, /--layer must be an integer from 1 to 9/],
    [path.join(dir, 'contracts', 'A.sol'), { format: 'xml' }, /--format must be/],
    [path.join(dir, 'contracts', 'A.sol'), { failOn: 'severe' }, /--fail-on must be one of/],
    [path.join(dir, 'contracts', 'A.sol'), { tool: 'mythx' }, /no analysis tool named "mythx"/],
  ];
  for (const [p, o, re] of cases) {
    const c = capture();
    assert.equal(await runAnalyzeCommand(engine, p, o, c.io), 2, `${p} ${JSON.stringify(o)} ${c.err()}`);
    assert.match(c.err(), re);
  }
  const big = path.join(dir, 'Big.sol');
  fs.writeFileSync(big, 'contract C {}\n' + '//'.padEnd(1024 * 1024 + 10, 'x'));
  const c = capture();
  assert.equal(await runAnalyzeCommand(engine, big, {}, c.io), 2);
  assert.match(c.err(), /limit is 1048576 bytes/);
  fs.rmSync(big);
});

test("a file that is not Solidity: solc's ParserError with its position on stderr, nothing on stdout, exit 2", async () => {
  const c = capture();
  const code = await runAnalyzeCommand(engine, path.join(dir, 'Broken.sol'), {}, c.io);
  assert.equal(code, 2);
  assert.match(c.err(), /Broken\.sol:1:10: ParserError: Expected identifier but got '\{'/);
  assert.doesNotMatch(c.err(), /Cannot read properties|TypeError/);
  assert.equal(c.out(), '');
});
