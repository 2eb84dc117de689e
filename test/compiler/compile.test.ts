// Offline compilation with the pragma-selected solc, in-thread and through the worker pool.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compileMemoStats, compileSolidity, compileTask } from '../../lib/analysis/compiler/index.ts';
import { TinyWorkerPool } from '../../kernel/pool.ts';
import { smtCompileTask } from '../../plugins/tool-smtchecker/solc-sidecar.ts';

const OLD = `pragma solidity ^0.4.19;
contract Bank {
    mapping(address => uint) public balances;
    function withdraw(uint amount) {
        if (!msg.sender.call.value(amount)()) throw;
        balances[msg.sender] -= amount;
    }
}
`;
const NEW = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Counter {
    uint256 public count;
    function inc(uint256 by) external { count += by; }
}
`;

test('compiles a 0.4 contract with solc 0.4.26: abi, bytecode, source maps', () => {
  const r = compileTask({ source: OLD, file: 'Bank.sol', outputs: 'full' });
  assert.equal(r.ok, true, JSON.stringify(r.errors));
  assert.equal(r.compiler, '0.4.26');
  assert.match(r.compilerLong!, /^0\.4\.26\+commit/);
  const c = r.contracts.Bank;
  assert.ok(c, 'contract Bank in output');
  assert.ok(c.abi.some((x: any) => x.name === 'withdraw'));
  assert.match(c.bytecode, /^[0-9a-f]{100,}$/);
  assert.match(c.deployedBytecode, /^[0-9a-f]{100,}$/);
  assert.match(c.deployedSourceMap, /^\d+:\d+:\d/);
  // 0.4 warnings come back with their line in the submitted source
  assert.ok(
    r.warnings.some((w) => w.line === 4 && /visibility/i.test(w.message)),
    JSON.stringify(r.warnings.map((w) => [w.line, w.message])),
  );
});

test('compiles a 0.8 contract with solc 0.8.30, with storage layout and AST', () => {
  const r = compileTask({ source: NEW, file: 'Counter.sol', outputs: 'full', ast: true });
  assert.equal(r.ok, true, JSON.stringify(r.errors));
  assert.equal(r.compiler, '0.8.30');
  assert.equal((r.contracts.Counter.storageLayout as any).storage[0].label, 'count');
  assert.equal((r.ast as any).nodeType, 'SourceUnit');
});

test('a syntax error is reported with its line, type and message', () => {
  const r = compileTask({ source: 'pragma solidity ^0.8.0;\ncontract C {\n  function f() public { uint x = ; }\n}\n', file: 'C.sol' });
  assert.equal(r.ok, false);
  assert.equal(r.errors[0].type, 'ParserError');
  assert.equal(r.errors[0].line, 3);
  assert.equal(r.errors[0].file, 'C.sol');
});

test('a pragma nothing satisfies gives a specific message listing installed compilers', () => {
  const r = compileTask({ source: 'pragma solidity ^0.3.0;\ncontract C {}', file: 'C.sol' });
  assert.equal(r.ok, false);
  assert.equal(r.compiler, null);
  // Every bundled release is listed; releases in the user's solc cache (shared by every run on
  // the machine) come in between, so the list is checked by membership, not as one string.
  const m = /^pragma \^0\.3\.0: no installed compiler satisfies it; installed: (.+)$/.exec(r.errors[0].message);
  assert.ok(m, r.errors[0].message);
  const listed = m[1].split(', ');
  for (const v of ['0.4.11', '0.4.18', '0.4.24', '0.4.26', '0.5.17', '0.6.12', '0.7.6', '0.8.30']) assert.ok(listed.includes(v), v);
});

test('empty source is refused with a clear message', () => {
  const r = compileTask({ source: '  \n ', file: 'E.sol' });
  assert.equal(r.ok, false);
  assert.match(r.errors[0].message, /source is empty/);
});

test('no pragma: falls back to an older series when the newest rejects the code', () => {
  const r = compileTask({ source: 'contract Old { function f() { throw; } }', file: 'Old.sol' });
  assert.equal(r.ok, true);
  assert.equal(r.compiler, '0.4.26');
  assert.match(r.reason, /used 0\.4\.26 after 0\.8\.30 failed/);
});

test('imports: text submissions report them missing; files resolve them inside the roots only', () => {
  const text = compileTask({ source: 'pragma solidity ^0.8.0;\nimport "./Lib.sol";\ncontract A {}', file: 'A.sol' });
  assert.equal(text.ok, false);
  assert.deepEqual(text.missingImports, ['Lib.sol']);
  assert.match(text.errors[0].message, /submitted as text/);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-imp-'));
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-out-'));
  try {
    fs.mkdirSync(path.join(dir, 'lib'));
    fs.writeFileSync(
      path.join(dir, 'lib', 'Lib.sol'),
      '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\nlibrary L { function one() internal pure returns (uint) { return 1; } }\n',
    );
    const main = path.join(dir, 'A.sol');
    fs.writeFileSync(
      main,
      '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\nimport "./lib/Lib.sol";\ncontract A { function f() external pure returns (uint) { return L.one(); } }\n',
    );
    const ok = compileTask({ source: fs.readFileSync(main, 'utf8'), file: 'A.sol', absPath: main, roots: [dir], outputs: 'full' });
    assert.equal(ok.ok, true, JSON.stringify(ok.errors));
    assert.ok(ok.contracts.A && ok.contracts.L);

    // ../ imports from a subfolder resolve against the root (solc drops the leading ..).
    fs.mkdirSync(path.join(dir, 'contracts'));
    const sub = path.join(dir, 'contracts', 'C.sol');
    fs.writeFileSync(
      sub,
      '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\nimport "../lib/Lib.sol";\ncontract C { function f() external pure returns (uint) { return L.one(); } }\n',
    );
    const up = compileTask({ source: fs.readFileSync(sub, 'utf8'), file: 'contracts/C.sol', absPath: sub, roots: [dir] });
    assert.equal(up.ok, true, JSON.stringify(up.errors));

    // A symlink inside the root that points outside is not followed.
    fs.writeFileSync(path.join(outside, 'Secret.sol'), 'pragma solidity ^0.8.0; contract S {}');
    fs.symlinkSync(path.join(outside, 'Secret.sol'), path.join(dir, 'link.sol'));
    const esc = path.join(dir, 'B.sol');
    fs.writeFileSync(esc, `pragma solidity ^0.8.0;\nimport "./link.sol";\ncontract B {}\n`);
    const denied = compileTask({ source: fs.readFileSync(esc, 'utf8'), file: 'B.sol', absPath: esc, roots: [dir] });
    assert.equal(denied.ok, false);
    assert.match(denied.errors.map((e) => e.message).join('\n'), /outside the allowed contract roots/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  }
});

test('a repeated compile is answered from the memo, as a copy, and never with a stale import', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-memo-'));
  try {
    const lib = path.join(dir, 'Lib.sol');
    fs.writeFileSync(
      lib,
      '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\nlibrary L { function one() internal pure returns (uint) { return 1; } }\n',
    );
    const main = path.join(dir, 'A.sol');
    const src =
      '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\nimport "./Lib.sol";\ncontract A { function f() external pure returns (uint) { return L.one(); } }\n';
    fs.writeFileSync(main, src);
    const req = { source: src, file: 'A.sol', absPath: main, roots: [dir], outputs: 'full' as const };
    const first = compileTask(req);
    assert.equal(first.ok, true, JSON.stringify(first.errors));
    first.contracts.A.bytecode = 'tampered';
    const again = compileTask(req);
    assert.notEqual(again.contracts.A.bytecode, 'tampered', 'each caller gets its own copy');
    assert.ok(compileTask({ ...req, outputs: 'check' }).contracts.A, 'a check request is answered by the full result');
    // The ML tool allows 2 compiler attempts, the other layers the default: one compile serves both.
    const before = compileMemoStats();
    assert.ok(compileTask({ ...req, maxAttempts: 2 }).contracts.A);
    assert.deepEqual(
      compileMemoStats(),
      { hits: before.hits + 1, misses: before.misses },
      'a build made in 1 attempt answers a 2-attempt request',
    );
    // The imported file changes between two runs: the memo must not answer with the old build.
    fs.writeFileSync(
      lib,
      '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\nlibrary L { function one() internal pure returns (uint) { return ; } }\n',
    );
    const edited = compileTask(req);
    assert.equal(edited.ok, false, 'the edited import is compiled, not served from memory');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

const pool = new TinyWorkerPool({ maxThreads: 1 });
after(() => pool.close());

test('compiles in the worker pool, and a deadline kills the task', async () => {
  const r = await compileSolidity({ source: NEW, file: 'Counter.sol' }, { pool, deadline: Date.now() + 60_000 });
  assert.equal(r.ok, true);
  assert.equal(r.compiler, '0.8.30');
  await assert.rejects(
    compileSolidity({ source: OLD, file: 'Bank.sol', compiler: '0.4.11' }, { pool, deadline: Date.now() + 5 }),
    (e: any) => e.code === 'task_timeout',
  );
});

test("isolate (the SMTChecker's runner): solc runs on a helper thread; its budget or deadline stops the helper, and the next run gets a new one", () => {
  const req = { source: NEW, file: 'Counter.sol', compiler: '0.8.30', outputs: 'check' as const };
  const ok = smtCompileTask({ ...req, isolate: { budgetMs: 60_000, deadline: Date.now() + 120_000 } });
  assert.equal(ok.ok, true, ok.errors[0]?.message);
  assert.equal(ok.stopped, undefined);
  assert.match(ok.compilerLong ?? '', /^0\.8\.30/);
  assert.ok(Array.isArray((ok.contracts.Counter as { abi: unknown[] }).abi));
  // A budget no model check fits in (the helper is polled every few ms, so a run that answers
  // within the first poll is not stopped): stopped, no output, said why, and this thread lives on.
  const cut = smtCompileTask({
    ...req,
    file: 'Counter2.sol',
    modelChecker: { engine: 'bmc', targets: ['overflow', 'underflow'] },
    isolate: { budgetMs: 1, deadline: Date.now() + 120_000 },
  });
  assert.equal(cut.ok, false);
  assert.equal(cut.stopped?.why, 'budget');
  assert.match(cut.errors[0].message, /stopped after \d+ ms of its 1 ms budget/);
  const late = smtCompileTask({ ...req, file: 'Counter3.sol', isolate: { budgetMs: 60_000, deadline: Date.now() - 1 } });
  assert.equal(late.stopped?.why, 'deadline');
  // A stopped run is not kept: the same request without a budget compiles.
  assert.equal(compileTask({ source: NEW, file: 'Counter2.sol', compiler: '0.8.30', outputs: 'check' }).ok, true);
  // The helper stopped above is replaced for the next run.
  const again = smtCompileTask({ ...req, file: 'Counter4.sol', isolate: { budgetMs: 60_000, deadline: Date.now() + 120_000 } });
  assert.equal(again.ok, true, again.errors[0]?.message);
});
