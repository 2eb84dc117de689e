// Input that is not Solidity is a 400 invalid_solidity carrying the compiler's messages and
// positions (before: 200, 0 findings, "vigil-static: success"); source that parses but does not
// compile is analysed on the AST and says so; contract_path imports resolve through the project.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { boot, type Booted } from '../api/helpers.ts';

let b: Booted;
before(async () => {
  b = await boot();
  fs.mkdirSync(path.join(b.roots, 'proj', 'src'), { recursive: true });
  fs.mkdirSync(path.join(b.roots, 'proj', 'vendor', 'oz'), { recursive: true });
  fs.writeFileSync(path.join(b.roots, 'proj', 'remappings.txt'), '@oz/=vendor/oz/\n');
  fs.writeFileSync(
    path.join(b.roots, 'proj', 'vendor', 'oz', 'Ownable.sol'),
    '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\nabstract contract Ownable { address public owner; }\n',
  );
  fs.writeFileSync(
    path.join(b.roots, 'proj', 'src', 'Vault.sol'),
    '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\nimport "@oz/Ownable.sol";\ncontract Vault is Ownable { function f() external view returns (address) { return owner; } }\n',
  );
});
after(async () => {
  await b.stop();
});

const post = (url: string, payload: unknown) =>
  b.kernel.api.inject({ method: 'POST', url, payload: JSON.stringify(payload), headers: { 'content-type': 'application/json' } });

test('"hello world" and a syntax error: 400 invalid_solidity with solc\'s messages, file, line and column', async () => {
  for (const url of ['/api/v1/analyze/quick/', '/api/v1/analyze/tool/solhint/']) {
    const r = await post(url, { contract_code: 'hello world' });
    assert.equal(r.statusCode, 400, r.body);
    const j = r.json();
    assert.equal(j.code, 'invalid_solidity');
    assert.match(j.error, /not valid Solidity: ParserError: /);
    assert.ok(Array.isArray(j.details.errors) && j.details.errors.length >= 1);
    const e = j.details.errors[0];
    assert.match(e.message, /^ParserError: Expected /);
    assert.equal(e.file, 'Contract.sol');
    assert.equal(typeof e.line, 'number');
    assert.equal(typeof e.column, 'number');
  }
  const r = await post('/api/v1/analyze/quick/', {
    contract_code: 'pragma solidity ^0.8.0;\ncontract C {\n  function f() public { uint x = ; }\n}\n',
  });
  assert.equal(r.statusCode, 400, r.body);
  const e = r.json().details.errors[0];
  assert.equal(e.line, 3);
  assert.match(e.message, /ParserError: Expected primary expression/);
  assert.doesNotMatch(r.body, /Cannot read properties/);
});

test('source that parses but does not compile: 200, analysed on the AST, compilation says why', async () => {
  const r = await post('/api/v1/analyze/quick/', {
    contract_code: 'pragma solidity ^0.8.0;\ncontract C { function f() public { undefinedThing(); } }\n',
  });
  assert.equal(r.statusCode, 200, r.body);
  const j = r.json();
  assert.equal(j.compilation.ok, false);
  assert.match(j.compilation.errors[0], /DeclarationError: Undeclared identifier/);
  assert.match(j.compilation.note, /parser AST/);
});

test('contract_path compiles with its project: remappings resolve inside the allowed roots', async () => {
  const r = await post('/api/v1/analyze/quick/', { contract_path: 'proj/src/Vault.sol' });
  assert.equal(r.statusCode, 200, r.body);
  const j = r.json();
  assert.equal(j.compilation.ok, true, JSON.stringify(j.compilation));
  assert.equal(j.contract.compiler, '0.8.30');
});

test('the solhint tool endpoint reports the tx.origin hit quick mode reports (a single tool shows its lint hits)', async () => {
  const code =
    'pragma solidity ^0.8.0;\ncontract T {\n  address owner;\n  function f() public view {\n    require(tx.origin == owner);\n  }\n}\n';
  const tool = (await post('/api/v1/analyze/tool/solhint/', { contract_code: code })).json();
  assert.ok(
    tool.findings.some((f: any) => f.detector === 'solhint-avoid-tx-origin' && f.location.line === 5),
    JSON.stringify(tool.findings),
  );
  const quick = (await post('/api/v1/analyze/quick/', { contract_code: code })).json();
  assert.ok(quick.findings.some((f: any) => f.tools.includes('solhint') && f.location.line === 5));
});
