// Informational notes stay few: floating-pragma says nothing about implementation-free files
// (interfaces with `>=0.4.16` are meant to be imported by any version), and over a run that
// covers several files one note per project stands for all, with INFO notes capped per file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeSource, groupProjectNotes } from '../../lib/analysis/static/index.ts';
import { floatingPragmaDetector } from '../../plugins/detector-floating-pragma/index.ts';
import type { Finding } from '../../schemas/finding.ts';

const iface = `pragma solidity >=0.4.16;\ninterface IERC20 {\n    function transfer(address to, uint256 v) external returns (bool);\n}\n`;
const impl = `pragma solidity >=0.4.16;\ncontract Vault {\n    uint256 total;\n    function add(uint256 v) public { total = total + v; }\n}\n`;

test('floating-pragma: silent on an interface-only file, reported where code executes', async () => {
  const a = await analyzeSource(iface, 'IERC20.sol', [floatingPragmaDetector]);
  assert.deepEqual(a.findings, []);
  const b = await analyzeSource(impl, 'Vault.sol', [floatingPragmaDetector]);
  assert.deepEqual(
    b.findings.map((f) => [f.detector, f.location.line]),
    [['floating-pragma', 1]],
  );
});

test('groupProjectNotes: one floating-pragma note per run, INFO capped per file, nothing lost', async () => {
  const files = ['A.sol', 'B.sol', 'C.sol'];
  const notes: Finding[] = [];
  for (const f of files) notes.push(...(await analyzeSource(impl, f, [floatingPragmaDetector])).findings);
  assert.equal(notes.length, 3);
  const info = (line: number): Finding => ({
    ...notes[0],
    id: `x${line}`,
    detector: 'missing-event',
    location: { ...notes[0].location, file: 'A.sol', line, end_line: line },
  });
  const high: Finding = { ...notes[0], id: 'h', detector: 'reentrancy', severity: 'HIGH', category: 'reentrancy' };
  const out = groupProjectNotes([...notes, info(3), info(4), info(5), info(6), info(7), high], { perFileCap: 3 });
  const pragma = out.filter((f) => f.detector === 'floating-pragma');
  assert.equal(pragma.length, 1);
  assert.deepEqual((pragma[0].evidence as { files: string[] }).files, files);
  assert.match(pragma[0].description, /2 more file/);
  const kept = out.filter((f) => f.detector === 'missing-event');
  assert.deepEqual(
    kept.map((f) => f.location.line),
    [3, 4, 5],
  );
  assert.deepEqual((kept[2].evidence as { folded_lines: number[] }).folded_lines, [6, 7]);
  assert.ok(out.includes(high), 'findings above INFO are never grouped');
});

test('layer 7 in full mode: INFO notes of one rule are capped at 3 per file, the rest named in evidence', async () => {
  const { createSpecializedTool } = await import('../../plugins/tool-specialized/tool.ts');
  const { inProcessAnalyzer } = await import('../../lib/analysis/static/rule-tool.ts');
  const { discoverDetectorPlugins } = await import('../../lib/analysis/static/index.ts');
  const plugins = new URL('../../plugins', import.meta.url).pathname;
  const setters = ['a', 'b', 'c', 'd', 'e']
    .map((v) => `    function set_${v}(address x) external { require(msg.sender == owner); ${v} = x; }`)
    .join('\n');
  const src = `pragma solidity ^0.8.0;\ncontract Config {\n    address owner = msg.sender;\n    address a; address b; address c; address d; address e;\n${setters}\n}\n`;
  const tool = createSpecializedTool({ analyze: inProcessAnalyzer(discoverDetectorPlugins(plugins)) });
  const out = await tool.run({ source: src, file: 'Config.sol', sha256: '' }, {
    signal: new AbortController().signal,
    deadline: Date.now() + 60_000,
    mode: 'full',
  } as any);
  const notes = out.findings.filter((f) => f.detector === 'missing-event');
  assert.equal(notes.length, 3, JSON.stringify(out.findings.map((f) => [f.detector, f.location.line])));
  assert.deepEqual((notes[2].evidence as { folded_lines: number[] }).folded_lines, [8, 9]);
});
