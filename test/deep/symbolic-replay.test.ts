// Layer 3 proofs are replayed: a symbolic counterexample becomes a finding only when its
// transaction sequence breaks the property on the fuzzer's EVM, and the evidence it carries is
// the fuzzer's transaction_sequence, which replaySequence() (what the benchmark runs) confirms.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSymbolicTool } from '../../plugins/tool-evm/symbolic/tool.ts';
import { compileProgram } from '../../plugins/tool-evm/evm/program.ts';
import { replaySequence } from '../../plugins/tool-evm/evm/replay.ts';
import { compileTask } from '../../lib/analysis/compiler/index.ts';
import { prepareReplay, validateCandidate, decodeArgs } from '../../plugins/tool-evm/symbolic/validate.ts';
import { encodeArgs } from '../../plugins/tool-evm/evm/abi.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = (n: string) => fs.readFileSync(path.join(here, 'fixtures', n), 'utf8');
const tool = createSymbolicTool({ pool: null, budgetMs: 120_000 });
const run = (source: string) =>
  tool.run({ source, file: 'C.sol', sha256: '' }, { signal: new AbortController().signal, deadline: Date.now() + 120_000, mode: 'full' });
type Sink = { kind: string; line: number; status: string; why?: string };

test('a symbolic proof is replayed: transaction_sequence evidence that replaySequence confirms on a fresh EVM', async () => {
  const src = fixture('symbolic-oracle-gate.sol');
  const r = await run(src);
  assert.equal(r.status, 'success', r.error ?? '');
  const f = r.findings.find((x) => x.detector === 'symbolic-ether' && x.location.function === 'open');
  assert.ok(f, `open() pays anyone: ${JSON.stringify((r.meta as any).sinks)}`);
  assert.equal(f.location.line, 21);
  assert.equal(f.confidence, 1);
  const ev = f.evidence as any;
  assert.equal(ev.kind, 'transaction_sequence');
  assert.equal(ev.property, 'ether_drained');
  assert.equal(ev.sequence.at(-1).function, 'open()');
  // Exactly what the benchmark does with every proof-carrying finding.
  const { program } = compileProgram({ source: src, file: 'C.sol' });
  const rep = await replaySequence(program!, ev, { deadline: Date.now() + 30_000 });
  assert.equal(rep.broken, true, rep.error ?? 'property holds on replay');
  assert.deepEqual((r.meta as any).replay.confirmed >= 1, true);
});

test('a counterexample that does not hold on the EVM is dropped, not reported', async () => {
  // The symbolic EVM lets oracle.approved() return true; on the EVM the oracle has no code.
  const r = await run(fixture('symbolic-oracle-gate.sol'));
  const sinks = (r.meta as any).sinks as Sink[];
  const gate = sinks.find((s) => s.kind === 'ether' && s.line === 17);
  assert.ok(gate, `the solver did produce a candidate in claim(): ${JSON.stringify(sinks)}`);
  assert.equal(gate.status, 'not_replayed');
  assert.match(gate.why ?? '', /holds when the sequence runs on the EVM/);
  assert.deepEqual(
    r.findings.filter((x) => x.location.function === 'claim'),
    [],
  );
  assert.ok((r.meta as any).replay.dropped >= 1);
});

test('model fix: the attacker cannot be an address hard-coded in the contract (honeypot backdoor owner)', async () => {
  const r = await run(fixture('symbolic-backdoor-owner.sol'));
  assert.equal(r.status, 'success', r.error ?? '');
  assert.deepEqual(
    r.findings.filter((x) => x.detector === 'symbolic-ether'),
    [],
  );
  // Not even a candidate: the path where msg.sender is 0x1Fb3... is infeasible for the attacker.
  const sinks = (r.meta as any).sinks as Sink[];
  assert.deepEqual(
    sinks.filter((s) => s.kind === 'ether'),
    [],
    JSON.stringify(sinks),
  );
});

test('validateCandidate: the guarded selfdestruct called by the attacker does not break the property', async () => {
  const src = fixture('selfdestruct-guarded.sol');
  const compiled = compileTask({ source: src, file: 'C.sol', outputs: 'full', ast: true });
  assert.ok(compiled.ok);
  const base = await prepareReplay(compiled, src, 'C.sol', Date.now() + 30_000);
  const wallet = base.targets.find((t) => t.name === 'Wallet')!;
  const kill = wallet.fns.find((f) => /selfdestruct|kill|close/i.test(f.name) && (f.entry.inputs ?? []).length <= 1)!;
  assert.ok(kill, wallet.fns.map((f) => f.signature).join(','));
  const args = encodeArgs(
    kill.entry.inputs ?? [],
    (kill.entry.inputs ?? []).map(() => '0x0000000000000000000000000000000000bad000'),
  );
  const calldata = new Uint8Array([...Buffer.from(kill.selector, 'hex'), ...args]);
  const v = await validateCandidate(
    base,
    'selfdestruct',
    'Wallet',
    [{ calldata, value: 0n, timestamp: 1_700_000_001n }],
    Date.now() + 30_000,
  );
  assert.equal(v.ok, false);
  assert.match((v as { why: string }).why, /holds/);
});

test('decodeArgs gives values that encode back to the same calldata; a garbage offset replays as empty', () => {
  const params = [{ type: 'address' }, { type: 'uint8' }, { type: 'bytes' }, { type: 'uint256[]' }, { type: 'string' }];
  const values = ['0x0000000000000000000000000000000000bad000', '300', '0xdeadbeef', ['1', '2'], 'hi'];
  const enc = encodeArgs(params, values);
  const dec = decodeArgs(params, enc);
  assert.deepEqual(dec, values);
  assert.deepEqual(Buffer.from(encodeArgs(params, dec)), Buffer.from(enc));
  const bad = new Uint8Array(enc);
  bad[2 * 32 + 31] = 0xff; // offset of the bytes argument past the end
  bad[2 * 32 + 30] = 0xff;
  assert.equal(decodeArgs(params, bad)[2], '0x');
});
