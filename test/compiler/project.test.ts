// Projects as the frameworks see them: the root, remappings (remappings.txt, foundry.toml, lib/),
// node_modules walking up, missing imports named per file, pins across imports, one solc run per
// compiler group.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compileTask } from '../../lib/analysis/compiler/index.ts';
import { collectClosure, findProjectRoot, importsOf, loadProject } from '../../lib/analysis/compiler/project.ts';
import { compileGroupTask, groupByCompiler, scanProject } from '../../plugins/analysis-engine/build.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-proj-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

function write(rel: string, text: string) {
  const p = path.join(tmp, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, text);
  return p;
}
const SPDX = '// SPDX-License-Identifier: MIT\n';

// A Foundry project inside a monorepo whose node_modules sits one level up.
write(
  'repo/node_modules/@acme/token/contracts/Token.sol',
  `${SPDX}pragma solidity ^0.8.0;\nimport "./Base.sol";\ncontract Token is Base {}\n`,
);
write(
  'repo/node_modules/@acme/token/contracts/Base.sol',
  `${SPDX}pragma solidity ^0.8.0;\nabstract contract Base { uint256 public supply; }\n`,
);
write('repo/proj/foundry.toml', `[profile.default]\nsrc = "src"\nremappings = ["@oz/=vendor/oz/"]\n`);
write('repo/proj/remappings.txt', 'solmate/=lib/solmate/src/\n');
write('repo/proj/vendor/oz/Ownable.sol', `${SPDX}pragma solidity ^0.8.0;\nabstract contract Ownable { address public owner; }\n`);
write('repo/proj/lib/solmate/src/auth/Auth.sol', `${SPDX}pragma solidity ^0.8.0;\nabstract contract Auth { address public authority; }\n`);
write('repo/proj/lib/forge-std/src/Test.sol', `${SPDX}pragma solidity ^0.8.0;\nabstract contract Test { bool public IS_TEST = true; }\n`);
const MAIN = write(
  'repo/proj/src/Vault.sol',
  `${SPDX}pragma solidity ^0.8.20;\nimport {Ownable} from "@oz/Ownable.sol";\nimport {Auth} from "solmate/auth/Auth.sol";\nimport "forge-std/Test.sol";\nimport { Token } from '@acme/token/contracts/Token.sol';\ncontract Vault is Ownable, Auth { Token t; }\n`,
);

test('the project root is the nearest framework config; a bare package.json below it does not win', () => {
  assert.equal(findProjectRoot(MAIN).root, path.join(tmp, 'repo/proj'));
  write('repo/proj/src/package.json', '{"name":"published-sources"}');
  assert.equal(findProjectRoot(MAIN).root, path.join(tmp, 'repo/proj'));
  assert.equal(findProjectRoot(MAIN).marker, 'foundry.toml');
  fs.rmSync(path.join(tmp, 'repo/proj/src/package.json'));
});

test('imports are read with comments and strings aside', () => {
  assert.deepEqual(
    importsOf(
      '// import "a.sol";\nimport "b.sol";\nimport {X as Y} from \'./c.sol\';\n/* import "d.sol"; */ string constant s = "import \\"e.sol\\";";\nimport * as Z from "f.sol";',
    ),
    ['b.sol', './c.sol', 'f.sol'],
  );
});

test('remappings.txt, foundry.toml, lib/ auto-remappings and node_modules up the tree resolve', () => {
  const project = loadProject(MAIN, [tmp]);
  const closure = collectClosure(project, MAIN);
  assert.deepEqual(closure.missing, []);
  assert.deepEqual([...closure.units.keys()].sort(), [
    '@acme/token/contracts/Base.sol',
    '@acme/token/contracts/Token.sol',
    'lib/forge-std/src/Test.sol',
    'lib/solmate/src/auth/Auth.sol',
    'src/Vault.sol',
    'vendor/oz/Ownable.sol',
  ]);
  const r = compileTask({ source: fs.readFileSync(MAIN, 'utf8'), file: 'src/Vault.sol', absPath: MAIN, roots: [tmp], outputs: 'check' });
  assert.equal(r.ok, true, JSON.stringify(r.errors));
  assert.equal(r.sourceKey, 'src/Vault.sol');
  assert.ok(r.contracts.Vault && r.contracts.Token && r.contracts.Auth);
});

test('a missing import is reported with the importing file and the import string, without running solc', () => {
  write('repo/proj/src/Broken.sol', `${SPDX}pragma solidity ^0.8.0;\nimport "./Helper.sol";\ncontract Broken {}\n`);
  write('repo/proj/src/Helper.sol', `${SPDX}pragma solidity ^0.8.0;\nimport "@missing/pkg/X.sol";\ncontract Helper {}\n`);
  const abs = path.join(tmp, 'repo/proj/src/Broken.sol');
  const r = compileTask({ source: fs.readFileSync(abs, 'utf8'), file: 'src/Broken.sol', absPath: abs, roots: [tmp] });
  assert.equal(r.ok, false);
  assert.deepEqual(r.missingImports, ['@missing/pkg/X.sol']);
  assert.equal(r.errors[0].type, 'ImportError');
  assert.equal(r.errors[0].file, 'src/Helper.sol');
  assert.equal(r.errors[0].line, 3);
  assert.match(r.errors[0].message, /import "@missing\/pkg\/X\.sol" not found/);
  assert.equal(r.compiler, null);
});

test('an import outside the allowed roots is refused', () => {
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-outside-'));
  try {
    fs.writeFileSync(path.join(outside, 'Secret.sol'), 'pragma solidity ^0.8.0; contract S {}');
    fs.symlinkSync(path.join(outside, 'Secret.sol'), path.join(tmp, 'repo/proj/src/Link.sol'));
    const abs = write('repo/proj/src/Uses.sol', `pragma solidity ^0.8.0;\nimport "./Link.sol";\ncontract U {}\n`);
    const r = compileTask({
      source: fs.readFileSync(abs, 'utf8'),
      file: 'src/Uses.sol',
      absPath: abs,
      roots: [path.join(tmp, 'repo/proj')],
    });
    assert.equal(r.ok, false);
    assert.match(r.errors.map((e) => e.message).join('\n'), /outside the allowed contract roots/);
  } finally {
    fs.rmSync(outside, { recursive: true, force: true });
    fs.rmSync(path.join(tmp, 'repo/proj/src/Link.sol'), { force: true });
    fs.rmSync(path.join(tmp, 'repo/proj/src/Uses.sol'), { force: true });
  }
});

test('invalid foundry.toml is a clear error, not a crash', () => {
  const dir = path.join(tmp, 'badtoml');
  write('badtoml/foundry.toml', '[profile.default\nsrc = ');
  assert.throws(() => loadProject(path.join(dir, 'A.sol'), [dir]), /foundry\.toml .* is not valid TOML/);
});

test('a folder of mixed pragmas is grouped by compiler and each group compiled once', () => {
  const dir = path.join(tmp, 'mixed');
  const files = [
    write('mixed/Old.sol', 'pragma solidity ^0.4.24;\ncontract Old { function f() public {} }\n'),
    write('mixed/Old2.sol', 'pragma solidity >=0.4.22 <0.5.0;\ncontract Old2 { uint x; }\n'),
    write(
      'mixed/New.sol',
      `${SPDX}pragma solidity ^0.8.0;\nimport "./Lib.sol";\ncontract New { function f() external pure returns (uint) { return L.one(); } }\n`,
    ),
    write('mixed/Lib.sol', `${SPDX}pragma solidity >=0.6.0;\nlibrary L { function one() internal pure returns (uint) { return 1; } }\n`),
    write('mixed/Bad.sol', `${SPDX}pragma solidity ^0.8.0;\ncontract Bad { function f() public { undefinedThing(); } }\n`),
  ];
  const project = loadProject(dir, [dir]);
  const plan = groupByCompiler(
    project.root,
    scanProject(
      project,
      files.map((abs) => ({ abs, file: path.basename(abs) })),
    ),
    null,
  );
  const byVersion = Object.fromEntries(plan.groups.map((g) => [g.version, g.entries.map((e) => e.file).sort()]));
  assert.deepEqual(byVersion['0.4.26'], ['Old.sol', 'Old2.sol']);
  assert.deepEqual(byVersion['0.8.30'], ['Bad.sol', 'Lib.sol', 'New.sol']);
  const g8 = compileGroupTask({ start: dir, roots: [dir], group: plan.groups.find((g) => g.version === '0.8.30')! });
  // The broken file is handed back for a compile of its own; the rest built again without it.
  assert.equal(g8.runs, 2);
  assert.equal(g8.results['Bad.sol'], null);
  assert.equal(g8.results['New.sol']!.ok, true);
  assert.deepEqual(Object.keys(g8.results['New.sol']!.contracts), ['New']);
  const g4 = compileGroupTask({ start: dir, roots: [dir], group: plan.groups.find((g) => g.version === '0.4.26')! });
  assert.equal(g4.runs, 1);
  assert.equal(g4.results['Old.sol']!.compiler, '0.4.26');
});
