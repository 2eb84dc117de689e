// Issue 14 item 5: the analysis API read any text file. `POST /api/v1/remediate/
// {"contract_path": ".env"}` answered the file's secrets in patched_code; .git/config and the
// YAML config came back too, over REST and MCP. The rule now: no route or MCP tool echoes the
// contents of a file that is not Solidity — the path must name a .sol file, the file it resolves
// to must be one (a symlink x.sol -> .env is refused), and imports are .sol only.
// End to end on a listening server (REST over HTTP, MCP through the SDK client).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { listen, textOf, type Listening } from '../mcp/helpers.ts';

const SECRET = 'sk-live-9f8e7d6c5b4a3210';
let s: Listening;
let api: string;

before(async () => {
  s = await listen();
  const a = s.kernel.api.server.address() as AddressInfo;
  api = `http://127.0.0.1:${a.port}`;
  const root = s.contracts;
  fs.writeFileSync(path.join(root, '.env'), `OPENAI_API_KEY=${SECRET}\n`);
  fs.mkdirSync(path.join(root, '.git'));
  fs.writeFileSync(path.join(root, '.git', 'config'), `[remote "origin"]\n\turl = https://user:${SECRET}@example.com/x.git\n`);
  fs.writeFileSync(path.join(root, 'vigil.config.yaml'), `llm:\n  api_key: ${SECRET}\n`);
  fs.symlinkSync(path.join(root, '.env'), path.join(root, 'x.sol'));
  fs.writeFileSync(
    path.join(root, 'A.sol'),
    'pragma solidity 0.8.30;\ncontract A { function f() external pure returns (uint) { return 1; } }\n',
  );
  // A .sol file that imports a secret: solc's parse errors quote what they read.
  fs.writeFileSync(path.join(root, '.env2'), `contract ${SECRET.replace(/-/g, '_')} {}\n`);
  fs.writeFileSync(path.join(root, 'Imp.sol'), 'pragma solidity 0.8.30;\nimport "./.env2";\ncontract B {}\n');
});
after(() => s.close());

const NOT_SOL = ['.env', '.git/config', 'vigil.config.yaml'];

async function post(url: string, body: unknown) {
  const r = await fetch(api + url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, text: await r.text() };
}

test('REST: remediate, analyze and validate-remediation refuse non-Solidity files with 400 not_solidity and never echo them', async () => {
  for (const p of [...NOT_SOL, 'x.sol', path.join(s.contracts, '.env')]) {
    const calls: Array<[string, unknown]> = [
      ['/api/v1/remediate/', { contract_path: p }],
      ['/api/v1/analyze/quick/', { contract_path: p }],
      ['/api/v1/analyze/full/', { contract_path: p }],
      ['/api/v1/analyze/layer/1/', { contract_path: p }],
      ['/api/v1/analyze/tool/solhint/', { contract_path: p }],
      ['/api/v1/validate-remediation/', { original_path: 'A.sol', patched_path: p }],
      ['/api/v1/validate-remediation/', { original_path: p, patched_code: 'contract A {}' }],
    ];
    for (const [url, body] of calls) {
      const r = await post(url, body);
      assert.equal(r.status, 400, `${url} ${p}: ${r.text}`);
      const j = JSON.parse(r.text);
      assert.equal(j.code, 'not_solidity', `${url} ${p}: ${r.text}`);
      assert.match(j.error, /\.sol/);
      assert.ok(!r.text.includes(SECRET), `${url} ${p} leaked the file: ${r.text}`);
    }
  }
});

test('REST: a symlink named x.sol pointing at .env is refused by what it resolves to', async () => {
  const r = await post('/api/v1/remediate/', { contract_path: 'x.sol' });
  assert.equal(r.status, 400);
  assert.match(JSON.parse(r.text).error, /not a \.sol file/);
});

test('REST: a .sol file importing a non-Solidity file gets no byte of it back', async () => {
  const r = await post('/api/v1/analyze/quick/', { contract_path: 'Imp.sol', timeout: 60 });
  assert.equal(r.status, 200, r.text);
  assert.ok(!r.text.includes(SECRET.replace(/-/g, '_')), `the imported file reached the answer: ${r.text}`);
  const j = JSON.parse(r.text);
  assert.equal(j.compilation?.ok, false);
  assert.match(j.compilation.errors.join(' '), /not a \.sol file/);
});

test('REST: a real .sol file is still read and remediated', async () => {
  const r = await post('/api/v1/remediate/', { contract_path: 'A.sol', timeout: 60 });
  assert.equal(r.status, 200, r.text);
  assert.match(JSON.parse(r.text).patched_code, /contract A/);
});

test('MCP: analysis tools and contract_audit refuse non-Solidity files and never echo them', async () => {
  const c = await s.connect();
  let notSolidity = 0;
  for (const p of [...NOT_SOL, 'x.sol']) {
    const calls: Array<[string, Record<string, unknown>]> = [
      ['remediate', { contract_path: p }],
      ['analyze_contract', { contract_path: p }],
      ['analyze_layer', { contract_path: p, layer: 1 }],
      ['analyze_tool', { contract_path: p, tool: 'solhint' }],
      ['validate_remediation', { original_path: 'A.sol', patched_path: p }],
      ['contract_audit', { path: p }],
    ];
    for (const [name, args] of calls) {
      const r: any = await c.callTool({ name, arguments: args });
      const text = textOf(r);
      assert.equal(r.isError, true, `${name} ${p}: ${text}`);
      // The shell-injection guardrail may stop a dot-file argument before the tool runs; either
      // way the call is refused, and when it does run the reader is what refuses it.
      assert.match(text, /not_solidity|guardrail_blocked/, `${name} ${p}: ${text}`);
      if (!/guardrail_blocked/.test(text)) notSolidity++;
      assert.ok(!JSON.stringify(r).includes(SECRET), `${name} ${p} leaked the file`);
    }
  }
  // x.sol and the YAML file pass the guardrail, so the reader itself is exercised on every tool.
  assert.ok(notSolidity >= 12, `only ${notSolidity} calls reached the reader`);
});
