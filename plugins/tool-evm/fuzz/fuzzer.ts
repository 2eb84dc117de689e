// The coverage-guided sequence fuzzer. Every sequence starts from the same deployed world (state
// checkpoint), runs under the property monitor, and is kept as a seed when it executes code no
// earlier sequence reached. A property broken by a sequence becomes a proof: the sequence is
// shrunk, classified (re-running it without re-entry tells reentrancy from a plain missing
// check) and replayed on a fresh EVM; only sequences that still break the property on replay
// are reported.
import { Chain, GENESIS_BLOCK, GENESIS_TIME, type BlockEnv } from '../evm/chain.ts';
import { SequenceMonitor, tracerConfig, runTx, type OwnerCandidate, type TxSpec, type Violation } from '../evm/exec.ts';
import { Generator, Rng } from './gen.ts';
import type { Program } from '../evm/program.ts';
import { buildWorld, type World } from '../evm/world.ts';
import type { Site } from '../evm/trace.ts';
import { keyOf, replaySpecs, type Proof } from '../evm/replay.ts';

export interface FuzzOptions {
  /** Epoch ms by which fuzzing and proof checking must be done. */
  deadline: number;
  /** Function names earlier layers flagged (fuzzed more often). */
  priorFunctions?: string[];
  seed?: number;
  /** Stop early after this many sequences (tests). */
  maxSequences?: number;
}

export interface FuzzResult {
  world: World | null;
  proofs: Proof[];
  stats: {
    sequences: number;
    transactions: number;
    coverage: number;
    corpus: number;
    elapsed_ms: number;
    stopped: 'deadline' | 'plateau' | 'max_sequences';
    unconfirmed: number;
    /** When coverage last grew, ms after the campaign started (how early it saturated). */
    last_new_ms: number;
    /** Sequences run when coverage last grew, and when a property was last broken for the first time. */
    last_new_sequence: number;
    last_find_sequence: number;
  };
  /** Why nothing could be fuzzed (no deployable contract, every constructor failed, ...). */
  skipped: string | null;
}

function advance(b: BlockEnv, dt: number): BlockEnv {
  return { timestamp: b.timestamp + BigInt(Math.max(1, dt)), number: b.number + 1n };
}

/** Sequences are kept by value: mutation of a corpus entry must not rewrite a recorded proof. */
function copySpecs(specs: TxSpec[]): TxSpec[] {
  return specs.map((s) => ({ ...s, args: structuredClone(s.args) }));
}

export const siteKey = keyOf;

/** Fewest sequences without new coverage that make a plateau (see the saturation rule). */
const PLATEAU_SEQUENCES = 150;

export async function fuzzProgram(program: Program, opts: FuzzOptions): Promise<FuzzResult> {
  const t0 = Date.now();
  const total = Math.max(0, opts.deadline - t0);
  // Time kept back for shrinking, classifying and replaying what was found.
  const reserve = Math.min(4000, Math.max(300, total * 0.25));
  const stopAt = opts.deadline - reserve;
  const chain = await Chain.create(program.fork);
  // A transaction still running when fuzzing time is up is starved of gas and its sequence dropped.
  chain.hardStop = stopAt + 100;
  const stats: FuzzResult['stats'] = {
    sequences: 0,
    transactions: 0,
    coverage: 0,
    corpus: 0,
    elapsed_ms: 0,
    stopped: 'deadline',
    unconfirmed: 0,
    last_new_ms: 0,
    last_new_sequence: 0,
    last_find_sequence: 0,
  };
  const world: World = await buildWorld(chain, program, { deadline: stopAt });
  if (!world.targets.length) {
    const why = world.failed.length
      ? world.failed.map((f) => `${f.name}: ${f.reason}`).join('; ')
      : 'the file defines no deployable contract';
    return { world, proofs: [], stats: { ...stats, elapsed_ms: Date.now() - t0 }, skipped: why };
  }
  const rng = new Rng(opts.seed ?? 0x5eed);
  const gen = new Generator(world, rng, new Set(opts.priorFunctions ?? []));
  if (gen.empty)
    return {
      world,
      proofs: [],
      stats: { ...stats, elapsed_ms: Date.now() - t0 },
      skipped: 'no contract of the file has a state-changing function to call',
    };

  const cfg = tracerConfig(world);
  const coverage = new Map<string, Set<number>>();
  let covered = 0;
  const corpus: TxSpec[][] = [];
  const seeds = gen.seeds();
  const found = new Map<string, { specs: TxSpec[]; v: Violation }>();
  const authSlots = new Set<string>();
  const candidates: Array<{ specs: TxSpec[]; c: OwnerCandidate }> = [];
  const candidateKeys = new Set<string>();
  let lastNew = Date.now();
  let sequencesAtLastNew = 0;
  await chain.checkpoint(); // the deployed state every sequence starts from

  outer: for (;;) {
    const now = Date.now();
    if (now > stopAt) break;
    if (opts.maxSequences && stats.sequences >= opts.maxSequences) {
      stats.stopped = 'max_sequences';
      break;
    }
    // Saturation: once the seeds have run, a campaign that has spent as many sequences without
    // new coverage as it took to reach its last new coverage (and at least PLATEAU_SEQUENCES) is
    // done; what is left of the budget goes to the other layers sharing the pool. Counted in
    // sequences, not seconds, so a loaded machine (few sequences a second) neither ends a search
    // early nor, on an idle one, keeps a saturated one running to its budget.
    if (seeds.length === 0 && stats.sequences - sequencesAtLastNew >= Math.max(PLATEAU_SEQUENCES, sequencesAtLastNew)) {
      stats.stopped = 'plateau';
      break;
    }
    const seq = seeds.length
      ? seeds.shift()!
      : corpus.length && rng.chance(0.75)
        ? gen.mutate(rng.pick(corpus), corpus)
        : gen.randomSequence();
    stats.sequences++;
    await chain.checkpoint();
    const monitor = new SequenceMonitor(chain, world);
    let block: BlockEnv = { timestamp: GENESIS_TIME, number: GENESIS_BLOCK };
    let newCov = false;
    let timedOut = false;
    try {
      for (let i = 0; i < seq.length; i++) {
        if (Date.now() > stopAt) break;
        block = advance(block, seq[i].dt);
        const { run, violations } = await monitor.step(seq[i], i, block, cfg);
        if (run.outcome.timedOut) {
          timedOut = true;
          break;
        }
        stats.transactions++;
        if (run.trace.cmpValues.size) gen.learn(run.trace.cmpValues);
        for (const [code, pcs] of run.trace.coverage) {
          let g = coverage.get(code);
          if (!g) coverage.set(code, (g = new Set()));
          for (const pc of pcs) {
            if (!g.has(pc)) {
              g.add(pc);
              covered++;
              newCov = true;
            }
          }
        }
        for (const v of violations) {
          const k = siteKey(v);
          const prev = found.get(k);
          if (!prev) stats.last_find_sequence = stats.sequences;
          if (!prev || prev.specs.length > i + 1) found.set(k, { specs: copySpecs(seq.slice(0, i + 1)), v });
        }
        // Denial of service: after a contract that refuses ether took part, does the same call by
        // a user (paying more) now revert because a payment to that contract fails?
        if (
          seq[i].role === 'refuser_contract' &&
          run.outcome.ok &&
          BigInt(seq[i].value) > 0n &&
          !found.has(`denial_of_service:${seq[i].target}:${seq[i].fn}`)
        ) {
          const probe: TxSpec = {
            ...seq[i],
            role: 'user',
            value: (BigInt(seq[i].value) * 2n + 10n ** 18n).toString(),
            dt: 12,
            expectRevert: true,
            args: seq[i].args.map((a) =>
              typeof a === 'string' && a.toLowerCase() === world.refuser ? '0x00000000000000000000000000000000000b0b00' : a,
            ),
          };
          await chain.checkpoint();
          const pr = await runTx(chain, world, probe, advance(block, 12), cfg);
          await chain.revert();
          if (!pr.outcome.ok && pr.trace.refuserCalls.length) {
            const site = pr.trace.refuserCalls[0];
            found.set(`denial_of_service:${seq[i].target}:${seq[i].fn}`, {
              specs: [...seq.slice(0, i + 1), probe],
              v: {
                property: 'denial_of_service',
                index: i + 1,
                site,
                observed: `after a contract that rejects ether took part, the same call by another user reverts: the payment back to the rejecting contract fails and takes the whole call down`,
                details: {},
              },
            });
          }
        }
      }
    } finally {
      if (timedOut) await chain.revert();
    }
    if (timedOut) break outer;
    for (const a of monitor.authFailures) authSlots.add(`${a.address}:${a.slot}`);
    for (const c of monitor.candidates) {
      // Writing one's own address again takes nothing from anybody.
      if (c.prev === c.caller) continue;
      const k = `${c.address}:${c.slot}:${c.site.code}:${c.site.pc}:${c.prev ? 'displaces' : 'first'}`;
      if (candidateKeys.has(k)) continue;
      candidateKeys.add(k);
      candidates.push({ specs: copySpecs(seq.slice(0, c.index + 1)), c });
    }
    await chain.revert();
    if (newCov) {
      lastNew = Date.now();
      sequencesAtLastNew = stats.sequences;
      if (corpus.length < 256) corpus.push(seq);
      else corpus[rng.int(corpus.length)] = seq;
    }
  }
  stats.coverage = covered;
  stats.corpus = corpus.length;
  stats.last_new_ms = lastNew - t0;
  stats.last_new_sequence = sequencesAtLastNew;

  // Writes of a stranger's address over another account's address in a slot that guards access
  // (a failed msg.sender == slot check was seen) are owner takeovers. Filling an empty slot is
  // not: first-come registration (a game's player seats) looks the same until someone is
  // displaced. The replay checks the value the slot held (the deployer's address counts); a
  // sequence where another account wrote the slot first is preferred, since it proves it.
  const preferred = candidates
    .filter(({ c }) => authSlots.has(`${c.address}:${c.slot}`))
    .sort((a, b) => Number(!a.c.prev) - Number(!b.c.prev) || a.specs.length - b.specs.length);
  for (const { specs, c } of preferred) {
    const v: Violation = {
      property: 'owner_changed',
      index: c.index,
      site: c.site,
      observed: `storage slot 0x${c.slot.toString(16)} of ${c.address}, which the contract compares with msg.sender to restrict access, was overwritten with the caller ${c.caller} (not the owner), replacing the address another account had put there`,
      details: { address: c.address, slot: '0x' + c.slot.toString(16), caller: c.caller },
    };
    const k = siteKey(v);
    if (!found.has(k)) found.set(k, { specs, v });
  }

  // Proofs: shrink, classify, replay on a fresh EVM.
  const proofs: Proof[] = [];
  const entries = [...found.values()].sort((a, b) => a.specs.length - b.specs.length);
  for (const { specs, v } of entries) {
    if (Date.now() > opts.deadline - 150) {
      stats.unconfirmed++;
      continue;
    }
    const key = siteKey(v);
    let best = specs;
    let replay = await replaySpecs(program, best, v, { deadline: opts.deadline });
    if (!replay.broken) {
      stats.unconfirmed++;
      continue;
    }
    // Shrink: drop transactions that the property does not need (one pass, time permitting).
    for (let i = best.length - 2; i >= 0 && Date.now() < opts.deadline - reserve / 2; i--) {
      const cand = best.filter((_, j) => j !== i);
      const r = await replaySpecs(program, cand, { ...v, index: cand.length - 1 }, { deadline: opts.deadline });
      if (r.broken && r.key === key) {
        best = cand;
        replay = r;
      }
    }
    let how: string | null = null;
    // Root cause: when the same sequence without re-entering no longer breaks the property, the
    // re-entrant call is what broke it (a drain, or the classic balance underflow of a withdraw
    // that updates the balance after paying).
    const byReentry = async (): Promise<boolean> => {
      if (!best.some((s) => s.role === 'attacker_contract' && s.reenter > 0) || Date.now() >= opts.deadline - 100) return false;
      const noReentry = best.map((s) => ({ ...s, reenter: 0 }));
      const r = await replaySpecs(program, noReentry, { ...v, index: best.length - 1 }, { deadline: opts.deadline });
      if (r.error) return false;
      return v.property === 'arithmetic_wrap' ? !(r.broken && r.key === key) : !r.broken;
    };
    if (v.property === 'arithmetic_wrap' && (await byReentry())) how = 'reentrancy';
    if (v.property === 'ether_drained') {
      how = (await byReentry()) ? 'reentrancy' : 'access_control';
      if (how === 'access_control') {
        const env = String(replay.violation?.details.env_reads ?? '');
        if (/BLOCKHASH|NUMBER|PREVRANDAO|COINBASE/.test(env)) how = 'bad_randomness';
        else if (/TIMESTAMP/.test(env)) how = 'time_manipulation';
      }
    }
    proofs.push({ property: v.property, specs: best, violation: replay.violation ?? v, how, replay });
  }
  stats.elapsed_ms = Date.now() - t0;
  return { world, proofs, stats, skipped: null };
}

export type { Site };
