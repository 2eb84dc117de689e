// Dynamic testing layer: real compilation, real in-process EVM, real fuzzing. Each vulnerable
// fixture must produce a confirmed finding whose transaction sequence replays on a fresh EVM;
// the safe fixture must produce none; bad input must end with a status and a reason in time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileTask } from '../../lib/analysis/compiler/index.ts';
import { fuzzProgram, fuzzTask, proofsToFindings } from '../../plugins/tool-evm/fuzz/task.ts';
import { compileProgram } from '../../plugins/tool-evm/evm/program.ts';
import { replaySequence, type SequenceEvidence } from '../../plugins/tool-evm/evm/replay.ts';
import { ATTACKER_BYTECODE, REFUSER_BYTECODE } from '../../plugins/tool-evm/evm/actors.ts';
import { encodeCall, toHex } from '../../plugins/tool-evm/evm/abi.ts';
import type { Finding } from '../../schemas/finding.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = (name: string) => fs.readFileSync(path.join(here, 'fixtures', name), 'utf8');

async function fuzz(name: string, opts: { ms?: number; maxSequences?: number } = {}) {
  const source = fixture(name);
  const { program, error } = compileProgram({ source, file: name });
  assert.ok(program, error ?? 'compiles');
  const r = await fuzzProgram(program, { deadline: Date.now() + (opts.ms ?? 20_000), maxSequences: opts.maxSequences ?? 400 });
  assert.equal(r.skipped, null);
  const findings = proofsToFindings(r.world!, r.proofs);
  return { program, r, findings };
}

function evidence(f: Finding): SequenceEvidence {
  const e = f.evidence as SequenceEvidence;
  assert.equal(e.kind, 'transaction_sequence');
  assert.ok(e.sequence.length >= 1);
  for (const s of e.sequence) {
    for (const k of ['from', 'to', 'function', 'args', 'value', 'timestamp'] as const) assert.ok(k in s, `sequence step has ${k}`);
  }
  return e;
}

test('ABI encoding matches the standard selector and head/tail layout', () => {
  const data = encodeCall({ name: 'transfer', inputs: [{ type: 'address' }, { type: 'uint256' }] }, [
    '0x00000000000000000000000000000000000b0b00',
    '5',
  ]);
  assert.equal(toHex(data.slice(0, 4)), '0xa9059cbb');
  assert.equal(data.length, 4 + 64);
  const dyn = encodeCall({ name: 'f', inputs: [{ type: 'bytes' }, { type: 'uint8' }] }, ['0x0102', '1']);
  // offset of the bytes tail (0x40), the uint8, then length 2 and the padded bytes
  assert.equal(toHex(dyn.slice(4)), '0x' + '40'.padStart(64, '0') + '1'.padStart(64, '0') + '2'.padStart(64, '0') + '0102'.padEnd(64, '0'));
});

test('the embedded actor bytecode is exactly attacker.sol compiled with solc 0.4.26', () => {
  const source = fs.readFileSync(path.join(here, '../../plugins/tool-evm/evm/attacker.sol'), 'utf8');
  const r = compileTask({ source, file: 'attacker.sol', outputs: 'full' });
  assert.ok(r.ok, r.errors.map((e) => e.message).join('; '));
  assert.equal(r.compiler, '0.4.26');
  assert.equal(r.contracts.VigilAttacker.bytecode, ATTACKER_BYTECODE);
  assert.equal(r.contracts.VigilRefuser.bytecode, REFUSER_BYTECODE);
});

test('0.4.24 call.value before zeroing the balance: confirmed reentrancy whose sequence replays', async () => {
  const { program, findings } = await fuzz('reentrancy.sol');
  const f = findings.find((x) => x.category === 'reentrancy');
  assert.ok(f, `reentrancy proved; got ${findings.map((x) => x.category).join(', ')}`);
  assert.equal(f.confidence, 1);
  assert.equal(f.location.line, 13, 'the call.value line');
  assert.equal(f.location.function, 'withdraw');
  assert.equal(f.swc_id, 'SWC-107');
  assert.deepEqual(f.layers, [2]);
  const e = evidence(f);
  assert.equal(e.property, 'ether_drained');
  // deposit by the attacker's contract, then withdraw that re-enters
  assert.deepEqual(
    e.sequence.map((s) => s.function),
    ['deposit()', 'withdraw()'],
  );
  assert.equal(e.sequence[1].role, 'attacker_contract');
  assert.equal(e.sequence[1].reenter, 1);
  assert.equal((await replaySequence(program, e)).broken, true, 'replays on a fresh EVM');
  // Without the re-entry the same calls only return the attacker's own deposit.
  const noReentry: SequenceEvidence = { ...e, sequence: e.sequence.map((s) => ({ ...s, reenter: 0 })) };
  assert.equal((await replaySequence(program, noReentry)).broken, false);
  // A tampered sequence (no deposit) does not break the property: replay is a real check.
  const tampered: SequenceEvidence = { ...e, sequence: e.sequence.slice(1) };
  assert.equal((await replaySequence(program, tampered)).broken, false);
});

test('a balance that wraps only when the attacker re-enters is reported as reentrancy, not arithmetic', async () => {
  const { program, findings } = await fuzz('reentrancy-underflow.sol');
  const debit = findings.filter((x) => x.location.line === 15);
  assert.ok(debit.length, `the debit after the call is proved; got ${findings.map((x) => `${x.category}:${x.location.line}`).join(', ')}`);
  for (const f of debit) assert.equal(f.category, 'reentrancy', `${f.title} is caused by the re-entry`);
  const wrap = debit.find((x) => (x.evidence as SequenceEvidence).property === 'arithmetic_wrap');
  assert.ok(wrap, 'the wrap itself is the proof');
  assert.match(wrap.description, /without the attacker contract re-entering/);
  const e = evidence(wrap);
  assert.ok(e.sequence.some((s) => s.role === 'attacker_contract' && s.reenter === 1));
  assert.equal((await replaySequence(program, e)).broken, true, 'replays on a fresh EVM');
  const noReentry: SequenceEvidence = { ...e, sequence: e.sequence.map((s) => ({ ...s, reenter: 0 })) };
  assert.equal((await replaySequence(program, noReentry)).broken, false, 'no wrap without the re-entry');
  assert.ok(!findings.some((x) => x.category === 'arithmetic'), 'no wrap that happens without re-entry');
});

test('a "constructor" with the wrong name: a stranger takes ownership, then drains the contract', async () => {
  const { program, findings } = await fuzz('owner-takeover.sol');
  const owner = findings.find((x) => (x.evidence as SequenceEvidence).property === 'owner_changed');
  assert.ok(owner, `owner change proved; got ${findings.map((x) => (x.evidence as SequenceEvidence).property).join(', ')}`);
  assert.equal(owner.category, 'access_control');
  assert.equal(owner.location.line, 7, 'owner = msg.sender inside Vaults()');
  assert.equal(owner.location.function, 'Vaults');
  const e = evidence(owner);
  assert.notEqual(e.sequence[e.sequence.length - 1].role, 'owner');
  assert.equal((await replaySequence(program, e)).broken, true);
  const drain = findings.find((x) => (x.evidence as SequenceEvidence).property === 'ether_drained');
  assert.ok(drain, 'the takeover is then used to sweep the ether');
  assert.equal(drain.category, 'access_control');
  assert.equal((await replaySequence(program, evidence(drain))).broken, true);
});

test('first-come registration is not a takeover: filling an empty seat displaces nobody', async () => {
  const { findings, r } = await fuzz('seats.sol', { ms: 15_000, maxSequences: 400 });
  assert.ok(r.stats.transactions > 100, `fuzzed (${r.stats.transactions} transactions)`);
  assert.deepEqual(
    findings.map((f) => `${(f.evidence as SequenceEvidence).property}:${f.location.line}`),
    [],
  );
});

test('an echidna_ invariant broken by a call sequence (0.8)', async () => {
  const { program, findings } = await fuzz('echidna.sol');
  const f = findings.find((x) => (x.evidence as SequenceEvidence).property === 'invariant_broken');
  assert.ok(f, 'invariant broken');
  const e = evidence(f);
  assert.equal(e.details?.invariant, 'Counter.echidna_total_small');
  assert.equal(f.location.function, 'add');
  assert.equal(e.sequence[e.sequence.length - 1].function, 'add(uint256)', 'add() raised total past the bound');
  assert.equal((await replaySequence(program, e)).broken, true);
});

test('safe contract (checks-effects-interactions, onlyOwner): no confirmed findings', async () => {
  const { findings, r } = await fuzz('safe.sol', { ms: 15_000, maxSequences: 500 });
  assert.ok(r.stats.transactions > 200, `fuzzed (${r.stats.transactions} transactions)`);
  assert.deepEqual(
    findings.map((f) => `${f.category}:${f.location.line}`),
    [],
  );
});

test('unprotected selfdestruct, push-payment denial of service, assert and wrap-around', async () => {
  const sd = await fuzz('selfdestruct.sol');
  const kill = sd.findings.find((f) => (f.evidence as SequenceEvidence).property === 'selfdestruct');
  assert.ok(kill);
  assert.equal(kill.location.line, 13);
  assert.equal(kill.category, 'access_control');

  const king = await fuzz('king.sol');
  const dos = king.findings.find((f) => f.category === 'denial_of_service');
  assert.ok(dos, 'denial of service proved');
  const e = evidence(dos);
  assert.equal(e.sequence[0].role, 'refuser_contract');
  assert.equal(e.sequence[e.sequence.length - 1].expect_revert, true);
  assert.equal(dos.location.line, 14, 'king.transfer(prize)');
  assert.equal((await replaySequence(king.program, e)).broken, true);

  const oa = await fuzz('overflow-assert.sol', { maxSequences: 1500 });
  const wrap = oa.findings.find((f) => f.category === 'arithmetic');
  assert.ok(wrap, `wrap-around proved (${JSON.stringify(oa.r.stats)})`);
  assert.ok([9, 10].includes(wrap.location.line), `on an unchecked += (line ${wrap.location.line})`);
  const as = oa.findings.find((f) => (f.evidence as SequenceEvidence).property === 'assertion_failure');
  assert.ok(as, 'assert(x != 7) fails for x = 7');
  assert.equal(as.location.line, 18);
  assert.deepEqual(evidence(as).sequence[0].args, ['7']);
});

test('bad input: a constructor that never ends is an error with the reason, inside the deadline', async () => {
  const t0 = Date.now();
  const r = await fuzzTask({ source: fixture('constructor-loop.sol'), file: 'constructor-loop.sol', deadline: Date.now() + 45_000 });
  assert.ok(Date.now() - t0 < 45_000);
  assert.equal(r.status, 'error');
  // Whichever cap comes first names the loop: the deployment's gas, or (on a machine too loaded to
  // burn that gas in time) the deployment's own share of the deadline. Both say why.
  assert.match(r.error ?? '', /constructor (ran out of gas|was still running when its time ran out).*: it loops/);
  assert.deepEqual(r.findings, []);
});

test('bad input: a contract that does not compile is skipped with the compiler message', async () => {
  const r = await fuzzTask({
    source: 'pragma solidity 0.4.24;\ncontract Broken { function f( public {} }\n',
    file: 'Broken.sol',
    deadline: Date.now() + 30_000,
  });
  assert.equal(r.status, 'skipped');
  assert.match(r.error ?? '', /does not compile/);
  const none = await fuzzTask({
    source: 'pragma solidity 0.4.24;\ninterface I { function f() external; }\n',
    file: 'I.sol',
    deadline: Date.now() + 30_000,
  });
  assert.equal(none.status, 'skipped');
  assert.match(none.error ?? '', /no deployable contract/);
});
