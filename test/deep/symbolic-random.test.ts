// Property test of the symbolic engine: random EVM programs (random opcodes with operands that
// make them reach memory, storage, calldata, hashing, calls and jumps) are deployed and attacked
// with Z3 behind them. Whatever the program, exploring it must not throw, must not build a term
// the typed builders refuse, and must not make Z3 fail; deep expressions must neither overflow
// the stack nor reach Z3 deeper than the bound.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadZ3, TermSolver } from '../../plugins/tool-evm/symbolic/solver.ts';
import { MAX_TERM_DEPTH, SortError, TermTable } from '../../plugins/tool-evm/symbolic/terms.ts';
import { TypedZ3 } from '../../plugins/tool-evm/symbolic/z3-typed.ts';
import { Explorer, disassemble } from '../../plugins/tool-evm/symbolic/evm.ts';
// A seeded generator, so a failing program can be rebuilt from its seed.
import { mulberry32 as rng } from '../../lib/random.ts';

let z: any;
before(async () => {
  z = await loadZ3();
});

// Opcodes the generator draws from (besides PUSH, DUP, SWAP and jumps, added separately).
const OPS = [
  0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a,
  0x1b, 0x1c, 0x1d, 0x20, 0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x3b, 0x3d, 0x3e, 0x3f, 0x40, 0x41, 0x42, 0x43,
  0x44, 0x45, 0x46, 0x47, 0x48, 0x50, 0x51, 0x52, 0x53, 0x54, 0x55, 0x58, 0x59, 0x5a, 0x5b, 0x5f, 0xf0, 0xf1, 0xf3, 0xf4, 0xfa, 0xfd, 0xfe,
  0xff, 0x0c,
];

/** A random runtime program: mostly small pushes (offsets, lengths, selectors) so that memory,
 *  calldata and storage are reached at concrete places, symbolic values flow everywhere, and
 *  jumps land on the program's own JUMPDESTs. */
function randomProgram(seed: number, length: number): Uint8Array {
  const r = rng(seed);
  // A prelude of caller-chosen values on the stack, so most instructions have operands.
  const out: number[] = [0x34, 0x42, 0x33, 0x36];
  for (let k = 0; k < 8; k++) out.push(0x60, 4 + 32 * k, 0x35);
  const jumpFixups: number[] = [];
  for (let i = 0; i < length; i++) {
    const x = r();
    if (x < 0.3) {
      const small = r() < 0.8;
      const value = small ? Math.floor(r() * 100) : Math.floor(r() * 2 ** 32);
      if (small) out.push(0x60, value & 0xff);
      else out.push(0x63, (value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff);
    } else if (x < 0.4) out.push(0x80 + Math.floor(r() * 4));
    else if (x < 0.45) out.push(0x90 + Math.floor(r() * 3));
    else if (x < 0.5) {
      // PUSH2 <a jumpdest, fixed below>, then JUMPI (a condition is on the stack or the path halts).
      jumpFixups.push(out.length + 1);
      out.push(0x61, 0, 0, r() < 0.8 ? 0x57 : 0x56);
    } else if (x < 0.56)
      out.push(0x60, 4 + 32 * Math.floor(r() * 3), 0x35); // CALLDATALOAD of an argument word
    else out.push(OPS[Math.floor(r() * OPS.length)]);
  }
  out.push(0x00);
  const dests = out.flatMap((op, pc) => (op === 0x5b ? [pc] : []));
  for (const at of jumpFixups) {
    const to = dests.length && r() < 0.9 ? dests[Math.floor(r() * dests.length)] : Math.floor(r() * out.length);
    out[at] = (to >> 8) & 0xff;
    out[at + 1] = to & 0xff;
  }
  return Uint8Array.from(out);
}

/** Creation code that returns `runtime` (CODECOPY + RETURN), as solc's constructors end. */
function creationFor(runtime: Uint8Array): Uint8Array {
  const len = runtime.length;
  const prefix = [0x61, len >> 8, len & 0xff, 0x61, 0x00, 0x0f, 0x60, 0x00, 0x39, 0x61, len >> 8, len & 0xff, 0x60, 0x00, 0xf3];
  return Uint8Array.from([...prefix, ...runtime]);
}

// Bounded by paths and steps, not by time (a loaded machine explores the same programs).
async function explore(runtime: Uint8Array, ms: number, maxSteps = 2000) {
  const solver = new TermSolver(z, 1000, Date.now() + ms);
  const ex = new Explorer(solver, { maxTx: 2, loopBound: 2, maxSteps, maxPaths: 16, maxCarry: 3, deadline: Date.now() + ms }, () => true);
  const dep = await ex.deploy(disassemble(creationFor(runtime)), 0, { args: new Uint8Array(), value: 0n, balance: 10n ** 18n });
  assert.ok(dep, 'the wrapper constructor returns the runtime');
  assert.deepEqual(dep.runtime, runtime);
  const code = disassemble(runtime);
  let states = [dep.state];
  for (let t = 1; t <= 2 && states.length && !ex.timeUp(); t++) states = await ex.transact(code, states, t);
  return ex;
}

test('random EVM programs: exploration never throws, never builds an ill-sorted term, Z3 never fails', async () => {
  let paths = 0;
  let queries = 0;
  for (let seed = 1; seed <= 40; seed++) {
    const runtime = randomProgram(seed, 40 + (seed % 5) * 30);
    let ex: Explorer;
    try {
      ex = await explore(runtime, 20_000);
    } catch (e) {
      assert.fail(`seed ${seed}: ${(e as Error).stack}`);
    }
    assert.deepEqual(ex.stats.internal_errors, [], `seed ${seed}: terms refused by the builders`);
    paths += ex.stats.paths;
    queries += ex.stats.queries;
  }
  // The programs did exercise the solver (the property is not vacuous).
  assert.ok(paths > 40, `${paths} paths`);
  assert.ok(queries > 20, `${queries} solver queries`);
});

test('a value thousands of operations deep: bounded depth, no stack overflow, solvable', async () => {
  // x = calldata word; 3000 times x = x * 3 + x; stored; then branched on.
  const body: number[] = [0x60, 0x04, 0x35];
  for (let i = 0; i < 3000; i++) body.push(0x80, 0x60, 0x03, 0x02, 0x01);
  body.push(0x80, 0x60, 0x00, 0x55); // SSTORE(0, x)
  const dest = body.length + 4;
  body.push(0x61, dest >> 8, dest & 0xff, 0x57, 0x5b, 0x00);
  const ex = await explore(Uint8Array.from(body), 20_000, 40_000);
  assert.deepEqual(ex.stats.internal_errors, []);
  assert.ok(ex.stats.depth_cuts > 0, 'the chain was cut at the depth bound');
  assert.ok(ex.stats.paths >= 1);
  const T = new TermTable();
  let t = T.v('x');
  for (let i = 0; i < 5000; i++) t = T.op('add', T.op('mul', t, T.c(3)), T.v(`y${i % 7}`));
  assert.ok(t.depth <= MAX_TERM_DEPTH, `depth ${t.depth}`);
  const r = await new TermSolver(z, 2000).check([T.op('gt', t, T.c(5))]);
  assert.ok(r.result === 'sat' || r.result === 'unknown');
});

test('typed builders refuse ill-sorted and mis-aritied terms before Z3 sees them', () => {
  const T = new TermTable();
  const w = T.v('w');
  const cd = T.v('cd', 'cd');
  const st = T.zeroStorage();
  assert.throws(() => T.op('add', w), SortError);
  assert.throws(() => T.op('iszero', w, w), SortError);
  assert.throws(() => T.op('add', w, cd), SortError);
  assert.throws(() => T.op('sload', w, w), SortError);
  assert.throws(() => T.op('cdload', st, w), SortError);
  assert.throws(() => T.op('sstore', st, w), SortError);
  assert.throws(() => T.op('getbyte', w, w), SortError, 'a symbolic byte index');
  assert.throws(() => T.op('join', w, w), SortError, 'join takes 32 bytes');
  assert.throws(() => T.sha3(33, [w, w]), SortError, '33 bytes are neither 33 byte terms nor words');
  assert.equal(T.op('sstore', st, w, w).sort, 'st');
  const B = new TypedZ3(z);
  const byte = B.val(1n, 8);
  const word = B.val(2n, 256);
  assert.equal(B.concat(byte, word).width, 264);
  assert.equal(B.concatAll([byte, byte, byte]).width, 24);
  assert.throws(() => B.bin('add', byte, word), SortError);
  assert.throws(() => B.extract(256, 0, word), SortError);
  assert.throws(() => B.select(B.arrVar('a', 256, 8), byte), SortError);
  assert.throws(() => B.store(B.arrVar('s', 256, 256), word, byte), SortError);
  assert.throws(() => B.apply(B.fn('k', 512, 256), word), SortError);
  assert.throws(() => B.val(256n, 8), SortError);
});
