// The built-in skills called directly through the registry (the agent path is covered in
// chat.test.ts): workspace confinement of files, the shell allow-list without a shell, git on a
// real repository, web search without and with a provider, and the crypto primitives.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { secp256k1 } from '@noble/curves/secp256k1';
import { keccak_256 } from '@noble/hashes/sha3';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';
import { bootGateway, tmpDir } from './helpers.ts';
import { summarise } from '../../plugins/skill-contract-audit/index.ts';

let g: Awaited<ReturnType<typeof bootGateway>>;
let outside: string;
let search: http.Server;
let searchUrl = '';

const call = (name: string, input: Record<string, unknown>) =>
  g.kernel.registry
    .skill(name)!
    .call(input, { sessionId: 's', tenant: null, signal: new AbortController().signal, workspace: g.workspace });

before(async () => {
  search = http.createServer((req, res) => {
    const q = new URL(req.url!, 'http://x').searchParams.get('q');
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({
        web: { results: [{ title: `About ${q}`, url: 'https://example.org/a', description: '<b>reentrancy</b> explained' }] },
      }),
    );
  });
  await new Promise<void>((r) => search.listen(0, '127.0.0.1', r));
  searchUrl = `http://127.0.0.1:${(search.address() as any).port}/search`;
  g = await bootGateway({ config: { plugins: { 'skill-web-search': { url: searchUrl } } } });
  outside = tmpDir('vigil-outside-');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'top secret');
  fs.mkdirSync(path.join(g.workspace, 'src'));
  fs.writeFileSync(path.join(g.workspace, 'src/Token.sol'), 'pragma solidity ^0.8.0;\ncontract Token {}\n');
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(g.workspace, 'link-out.txt'));
  fs.symlinkSync(outside, path.join(g.workspace, 'dir-out'));
});
after(async () => {
  await g.close();
  search.close();
});

describe('files', () => {
  test('lists and reads inside the workspace', async () => {
    const l = await call('files', { op: 'list', path: '.', depth: 2 });
    assert.ok(l.ok);
    const paths = (l.output as any).entries.map((e: any) => e.path);
    assert.ok(paths.includes('src/Token.sol'));
    assert.ok(!paths.some((p: string) => p.startsWith('dir-out/')), 'symlinked folders are not entered');
    const r = await call('files', { op: 'read', path: 'src/Token.sol' });
    assert.match((r.output as any).content, /contract Token/);
  });

  test('refuses .., absolute paths and symlinks that lead out', async () => {
    for (const p of [
      '../secret.txt',
      '../../etc/passwd',
      '/etc/passwd',
      path.join(outside, 'secret.txt'),
      'link-out.txt',
      'dir-out/secret.txt',
      'src/../../x',
    ]) {
      const r = await call('files', { op: 'read', path: p });
      assert.equal(r.ok, false, p);
      assert.match(r.error!, /path_outside_workspace|not_found/, p);
      assert.ok(!JSON.stringify(r).includes('top secret'), p);
    }
    const w = await call('write_file', { path: 'dir-out/new.txt', content: 'x' });
    assert.match(w.error!, /path_outside_workspace/);
    assert.ok(!fs.existsSync(path.join(outside, 'new.txt')));
    const w2 = await call('write_file', { path: 'link-out.txt', content: 'x', overwrite: true });
    assert.equal(w2.ok, false);
    assert.equal(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8'), 'top secret');
    const w3 = await call('write_file', { path: '../escape.txt', content: 'x' });
    assert.match(w3.error!, /path_outside_workspace/);
  });

  test('writes new files, refuses to overwrite unless asked', async () => {
    assert.ok((await call('write_file', { path: 'out/a.txt', content: 'one' })).ok);
    const again = await call('write_file', { path: 'out/a.txt', content: 'two' });
    assert.match(again.error!, /file_exists/);
    assert.ok((await call('write_file', { path: 'out/a.txt', content: 'two', overwrite: true })).ok);
    assert.equal(fs.readFileSync(path.join(g.workspace, 'out/a.txt'), 'utf8'), 'two');
  });
});

describe('shell', () => {
  test('runs allow-listed programs with arguments taken literally (no shell)', async () => {
    const r = await call('shell', { program: 'echo', args: ['a;', 'rm', '-rf', '$(whoami)', '|', 'cat'] });
    assert.ok(r.ok);
    assert.equal((r.output as any).stdout, 'a; rm -rf $(whoami) | cat\n');
    assert.equal((r.output as any).exit_code, 0);
  });

  test('refuses programs off the list and paths', async () => {
    assert.match((await call('shell', { program: 'bash', args: ['-c', 'id'] })).error!, /program_not_allowed/);
    assert.match((await call('shell', { program: '/bin/echo', args: [] })).error!, /program_not_allowed/);
  });

  test('kills a program that runs past the time limit', async () => {
    const g2 = await bootGateway({ only: ['skill-shell'], config: { plugins: { 'skill-shell': { timeout_ms: 200 } } } });
    try {
      const t0 = Date.now();
      const r = await g2.kernel.registry
        .skill('shell')!
        .call(
          { program: 'sleep', args: ['60'] },
          { sessionId: 's', tenant: null, signal: new AbortController().signal, workspace: g2.workspace },
        );
      assert.match(r.error!, /timeout/);
      // Killed, not left to finish: far sooner than the program's own minute, whatever the load
      // (how soon after the 200 ms limit is a timing, which tests do not assert).
      assert.ok(Date.now() - t0 < 30_000, `answered after ${Date.now() - t0} ms`);
    } finally {
      await g2.close();
    }
  });
});

describe('git', () => {
  test('status, log and diff on the workspace repository; option-like refs refused', async () => {
    const run = (...a: string[]) =>
      execFileSync('git', a, {
        cwd: g.workspace,
        env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@x', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@x' },
      });
    assert.match((await call('git', { op: 'status' })).error!, /not_a_repository/);
    run('init', '-q');
    run('add', 'src/Token.sol');
    run('commit', '-q', '-m', 'first commit');
    fs.appendFileSync(path.join(g.workspace, 'src/Token.sol'), '// changed\n');
    const st = await call('git', { op: 'status' });
    assert.ok((st.output as any).changes.some((c: any) => c.path === 'src/Token.sol' && c.status.trim() === 'M'));
    const log = await call('git', { op: 'log' });
    assert.equal((log.output as any).commits[0].subject, 'first commit');
    const diff = await call('git', { op: 'diff' });
    assert.match((diff.output as any).text, /\+\/\/ changed/);
    assert.match((await call('git', { op: 'show', ref: '--output=/tmp/x' })).error!, /invalid_ref/);
  });
});

describe('web search', () => {
  test('without a provider it says so and returns no results', async () => {
    const g2 = await bootGateway({ only: ['skill-web-search'] });
    try {
      const r = await g2.kernel.registry
        .skill('web_search')!
        .call({ query: 'x' }, { sessionId: 's', tenant: null, signal: new AbortController().signal, workspace: g2.workspace });
      assert.equal(r.ok, false);
      assert.match(r.error!, /web search is not configured/);
      assert.equal(r.output, null);
    } finally {
      await g2.close();
    }
  });

  test('with a provider it returns its results', async () => {
    const r = await call('web_search', { query: 'reentrancy' });
    assert.ok(r.ok);
    assert.deepEqual((r.output as any).results, [
      { title: 'About reentrancy', url: 'https://example.org/a', snippet: 'reentrancy explained' },
    ]);
  });
});

describe('crypto', () => {
  test('hashes, selectors, EIP-55', async () => {
    assert.equal(
      ((await call('crypto', { op: 'keccak256', data: '' })).output as any).hash,
      '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470',
    );
    assert.equal(
      ((await call('crypto', { op: 'sha256', data: '0x616263', encoding: 'hex' })).output as any).hash,
      '0xba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    const cs = (await call('crypto', { op: 'checksum_address', address: '0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359' })).output as any;
    assert.equal(cs.address, '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359');
    const typo = (await call('crypto', { op: 'checksum_address', address: '0xFB6916095ca1df60bB79Ce92cE3Ea74c37c5d359' })).output as any;
    assert.equal(typo.valid, false);
  });

  test('ABI encode/decode round trip with static and dynamic types', async () => {
    const types = ['uint256', 'int8', 'bool', 'address', 'bytes2', 'string', 'uint16[]', 'bytes'];
    const values = [
      '123456789012345678901234567890',
      -5,
      true,
      '0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359',
      '0xbeef',
      'héllo',
      [1, 2, 65535],
      '0x',
    ];
    const enc = (await call('crypto', { op: 'abi_encode', types, values })).output as any;
    // uint256(1) in head position is the canonical example every ABI library agrees on.
    assert.equal(
      ((await call('crypto', { op: 'abi_encode', types: ['uint256'], values: [1] })).output as any).data,
      '0x' + '0'.repeat(63) + '1',
    );
    const dec = (await call('crypto', { op: 'abi_decode', types, data: enc.data })).output as any;
    assert.deepEqual(dec.values, [
      '123456789012345678901234567890',
      '-5',
      true,
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      '0xbeef',
      'héllo',
      ['1', '2', '65535'],
      '0x',
    ]);
    const over = await call('crypto', { op: 'abi_encode', types: ['uint8'], values: [256] });
    assert.match(over.error!, /out of range/);
    const short = await call('crypto', { op: 'abi_decode', types: ['uint256'], data: '0x01' });
    assert.match(short.error!, /too short/);
  });

  test('recovers the signer of a personal_sign signature', async () => {
    const priv = secp256k1.utils.randomPrivateKey();
    const pub = secp256k1.getPublicKey(priv, false);
    const addr = '0x' + bytesToHex(keccak_256(pub.subarray(1)).subarray(12));
    const msg = 'I own this address';
    const digest = keccak_256(utf8ToBytes(`\x19Ethereum Signed Message:\n${msg.length}${msg}`));
    const sig = secp256k1.sign(digest, priv);
    const hex = '0x' + sig.toCompactHex() + (27 + sig.recovery).toString(16);
    const r = (await call('crypto', { op: 'recover_signer', message: msg, signature: hex })).output as any;
    assert.equal(r.address.toLowerCase(), addr);
    // Published web3.js example: "Some data" signed by 0x2c7536E3605D9C16a7a3D7b1898e529396a65c23.
    const known = await call('crypto', {
      op: 'recover_signer',
      message: 'Some data',
      signature:
        '0xb91467e570a6466aa9e9876cbcd013baba02900b8979d43fe208a4a4f339f5fd6007e74cd82e037b800186422fc2da167c747ef045e5d18a5f5d4300f8e1a0291c',
    });
    assert.equal((known.output as any).address, '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23');
    assert.match((await call('crypto', { op: 'recover_signer', message: 'x', signature: '0x1234' })).error!, /65 bytes/);
  });
});

describe('contract_audit', () => {
  test('summary puts the most severe findings first', () => {
    const f = (id: string, severity: string, line: number) => ({
      id,
      title: `t${id}`,
      description: '',
      severity,
      confidence: 0.9,
      category: 'other',
      location: { file: 'a.sol', line, end_line: line, function: 'f' },
      tools: [],
      layers: [1],
      recommendation: 'r',
    });
    const out = summarise(
      {
        audit_id: 'a',
        audit_type: 'quick',
        contract: { name: 'C', sha256: '', pragma: null, compiler: null },
        layers: [1],
        tools: ['x'],
        results: [],
        findings: [f('1', 'LOW', 3), f('2', 'CRITICAL', 9), f('3', 'MEDIUM', 5)],
        summary: { CRITICAL: 1, HIGH: 0, MEDIUM: 1, LOW: 1, INFO: 0 },
        total_findings: 3,
        execution_time: 0,
        timestamp: '',
        version: '',
      } as any,
      2,
    );
    assert.deepEqual(
      out.findings.map((x) => x.severity),
      ['CRITICAL', 'MEDIUM'],
    );
    assert.equal(out.summary.split('\n')[0], 'C: 3 findings (1 CRITICAL, 1 MEDIUM, 1 LOW).');
    assert.match(out.summary, /CRITICAL t2 at line 9 in f\(\)/);
  });

  test('without the analysis service the call fails with that reason', async () => {
    const r = await call('contract_audit', { path: 'src/Token.sol' });
    assert.equal(r.ok, false);
    assert.match(r.error!, /analysis plugin is not loaded/);
  });

  test('with the analysis engine: audits inline code and workspace files, refuses paths outside', async () => {
    const g2 = await bootGateway({ only: ['skill-contract-audit', 'analysis-engine', 'detector-reentrancy'] });
    try {
      const c = (input: Record<string, unknown>) =>
        g2.kernel.registry
          .skill('contract_audit')!
          .call(input, { sessionId: 's', tenant: null, signal: new AbortController().signal, workspace: g2.workspace });
      const code = `pragma solidity ^0.8.0;
contract Bank {
  mapping(address => uint) public balances;
  function withdraw() public {
    uint amount = balances[msg.sender];
    (bool ok, ) = msg.sender.call{value: amount}("");
    require(ok);
    balances[msg.sender] = 0;
  }
}
`;
      const r = await c({ code });
      assert.ok(r.ok, r.error);
      const out = r.output as any;
      // Which findings appear is the analysis engine's business (tested there); this checks the
      // skill ran it and summarised what came back.
      assert.equal(typeof out.audit_id, 'string');
      assert.match(out.summary, /^Bank: /);
      assert.equal(out.findings.length, Math.min(out.total_findings, 20));
      fs.writeFileSync(path.join(g2.workspace, 'Bank.sol'), code);
      const byPath = await c({ path: 'Bank.sol' });
      assert.equal((byPath.output as any).total_findings, out.total_findings);
      const esc = await c({ path: '../Bank.sol' });
      assert.match(esc.error!, /path_outside_workspace/);
    } finally {
      await g2.close();
    }
  });
});
