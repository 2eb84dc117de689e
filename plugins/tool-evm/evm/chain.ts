// An in-process EVM chain for the fuzzer: fixed actor accounts, a block environment the fuzzer
// moves forward, state snapshots (checkpoint/revert) so every sequence starts from the same
// deployed state, and one step tracer per call that records what the property checks need.
// Calls go through evm.runCall (no signatures, no gas fees): an actor's balance only moves by
// the ether it sends and receives, so "the attacker's balance grew" means ether was taken.
// The fuzzer (vigil-fuzz) fuzzes on it and the symbolic engine (vigil-symbolic) replays its
// candidates on it; both run inside pool workers, where no kernel service reaches, which is
// why one plugin (tool-evm) owns the EVM and both tools.
import { createEVM, type EVM } from '@ethereumjs/evm';
import { Common, Mainnet, Hardfork } from '@ethereumjs/common';
import { Account, Address, hexToBytes } from '@ethereumjs/util';
import type { CallTrace, RunStateLike, StepTracer } from './trace.ts';

export type Role = 'owner' | 'user' | 'attacker' | 'attacker_contract' | 'refuser_contract';
export const ATTACKER_ROLES: Role[] = ['attacker', 'attacker_contract', 'refuser_contract'];

export const ETHER = 10n ** 18n;
export const ACTOR_BALANCE = 1000n * ETHER;
export const GENESIS_TIME = 1_700_000_000n;
export const GENESIS_BLOCK = 18_000_000n;

/** Fixed actor addresses (the same in every run and every replay). */
export const ACTORS = {
  owner: '0x00000000000000000000000000000000000a11ce',
  user: '0x00000000000000000000000000000000000b0b00',
  attacker: '0x0000000000000000000000000000000000bad000',
} as const;

export function addr(h: string): Address {
  return new Address(hexToBytes(h as `0x${string}`));
}

export function hexAddr(a: Address | bigint): string {
  if (typeof a === 'bigint') return '0x' + (a & ((1n << 160n) - 1n)).toString(16).padStart(40, '0');
  return a.toString().toLowerCase();
}

export interface BlockEnv {
  timestamp: bigint;
  number: bigint;
}

export interface CallRequest {
  from: string;
  to: string | null;
  data: Uint8Array;
  value: bigint;
  gasLimit: bigint;
  block: BlockEnv;
}

export interface CallOutcome {
  ok: boolean;
  error: string | null;
  returnValue: Uint8Array;
  createdAddress: string | null;
  gasUsed: bigint;
  trace: CallTrace | null;
  /** The call was stopped at hardStop (its failure says nothing about the contract). */
  timedOut: boolean;
}

type JumpAnalysis = { jumps: Uint8Array; pushes: Record<number, bigint>; opcodesCached: unknown[] };

let jumpAnalysisCached = false;

/**
 * ethereumjs analyses a contract's code (valid JUMPDESTs, PUSH values as bigints, the opcode
 * entry of every byte) again for every message frame that jumps: for the 10-20 kB contracts of
 * real projects that was over half of the interpreter's time in a fuzzing campaign, as every
 * transaction and every internal call re-reads the same few contracts. The analysis depends only
 * on the code and the EVM's opcode table (and the interpreter only reads it), so it is memoised
 * per opcode table and code. The Interpreter class is not exported: its prototype is patched the
 * first time an instrumented opcode handler sees a run state.
 */
function cacheJumpAnalysis(proto: Record<string, unknown>): void {
  jumpAnalysisCached = true;
  const analyse = proto._getValidJumpDestinations as ((code: Uint8Array) => JumpAnalysis) | undefined;
  if (typeof analyse !== 'function') return;
  const byTable = new WeakMap<object, Map<string, JumpAnalysis>>();
  proto._getValidJumpDestinations = function (this: { _evm: { _opcodeMap: object } }, code: Uint8Array): JumpAnalysis {
    const table = this._evm?._opcodeMap;
    if (!table || code.length < 64) return analyse.call(this, code);
    let memo = byTable.get(table);
    if (!memo) byTable.set(table, (memo = new Map()));
    const key = Buffer.from(code.buffer, code.byteOffset, code.length).toString('base64');
    let hit = memo.get(key);
    if (!hit) {
      if (memo.size >= 64) memo.clear();
      memo.set(key, (hit = analyse.call(this, code)));
    }
    return hit;
  };
}

export class Chain {
  private constructor(
    readonly evm: EVM,
    readonly fork: string,
  ) {}

  private tracer: StepTracer | null = null;
  /**
   * Epoch ms after which a running call is stopped (checked every few thousand instructions).
   * The call is starved of gas rather than interrupted, so it unwinds through the EVM's normal
   * out-of-gas path and the state journal stays consistent for the calls that follow.
   */
  hardStop = Number.POSITIVE_INFINITY;
  private steps = 0;
  private expired = false;
  // INVALID throws before any opcode handler runs, so it is seen when its frame ends.
  private onAfterMessage = (res: {
    execResult: { exceptionError?: { error?: string }; runState?: { programCounter: number; env: { codeAddress: object } } };
  }) => {
    const ex = res.execResult.exceptionError;
    const rs = res.execResult.runState;
    if (ex && ex.error === 'invalid opcode' && rs && this.tracer && rs.env.codeAddress)
      this.tracer.invalid(rs.env.codeAddress, rs.programCounter);
  };

  /**
   * Wraps every opcode handler of this EVM's opcode table so the tracer sees each instruction
   * with the interpreter's own run state. Much cheaper than the 'step' event, which copies the
   * stack and memory for every instruction.
   */
  private instrument(): void {
    const map = (this.evm as unknown as { _opcodeMap: Array<{ opcodeInfo: { code: number }; opHandler?: (rs: any, common: any) => any }> })
      ._opcodeMap;
    const done = new Set<object>();
    for (const entry of map) {
      if (!entry || done.has(entry) || typeof entry.opHandler !== 'function') continue;
      done.add(entry);
      const orig = entry.opHandler;
      const code = entry.opcodeInfo.code;
      entry.opHandler = (rs: RunStateLike & { gasLeft: bigint; interpreter?: object }, common: unknown) => {
        if (!jumpAnalysisCached && rs.interpreter) cacheJumpAnalysis(Object.getPrototypeOf(rs.interpreter));
        if (this.expired || ((++this.steps & 4095) === 0 && Date.now() > this.hardStop && (this.expired = true))) rs.gasLeft = 0n;
        if (this.tracer) this.tracer.op(rs, code);
        return orig(rs, common);
      };
    }
    this.evm.events.on('afterMessage', this.onAfterMessage as never);
  }

  static async create(fork: 'shanghai' | 'cancun'): Promise<Chain> {
    const common = new Common({ chain: Mainnet, hardfork: fork === 'cancun' ? Hardfork.Cancun : Hardfork.Shanghai });
    const evm = await createEVM({ common });
    const chain = new Chain(evm, fork);
    chain.instrument();
    for (const a of Object.values(ACTORS)) await evm.stateManager.putAccount(addr(a), new Account(0n, ACTOR_BALANCE));
    return chain;
  }

  private blockOf(env: BlockEnv) {
    return {
      header: {
        number: env.number,
        timestamp: env.timestamp,
        coinbase: addr('0x00000000000000000000000000000000c0ffee00'),
        difficulty: 0n,
        prevRandao: new Uint8Array(32).fill(7),
        gasLimit: 30_000_000n,
        baseFeePerGas: 0n,
        getBlobGasPrice: () => 1n,
      },
    } as any;
  }

  async call(req: CallRequest, tracer: StepTracer | null): Promise<CallOutcome> {
    this.tracer = tracer;
    this.expired = Date.now() > this.hardStop;
    const from = addr(req.from);
    try {
      const r = await this.evm.runCall({
        caller: from,
        origin: from,
        ...(req.to ? { to: addr(req.to) } : {}),
        data: req.data,
        value: req.value,
        gasLimit: req.gasLimit,
        block: this.blockOf(req.block),
      });
      const ex = r.execResult.exceptionError;
      return {
        ok: !ex,
        error: ex ? String(ex.error ?? ex) : null,
        returnValue: r.execResult.returnValue,
        createdAddress: r.createdAddress ? hexAddr(r.createdAddress) : null,
        gasUsed: r.execResult.executionGasUsed,
        trace: tracer ? tracer.finish(!ex) : null,
        timedOut: this.expired,
      };
    } finally {
      this.tracer = null;
    }
  }

  async balance(a: string): Promise<bigint> {
    return (await this.evm.stateManager.getAccount(addr(a)))?.balance ?? 0n;
  }

  async setBalance(a: string, wei: bigint): Promise<void> {
    const acc = (await this.evm.stateManager.getAccount(addr(a))) ?? new Account();
    acc.balance = wei;
    await this.evm.stateManager.putAccount(addr(a), acc);
  }

  async code(a: string): Promise<Uint8Array> {
    return this.evm.stateManager.getCode(addr(a));
  }

  async storage(a: string, slot: bigint): Promise<bigint> {
    const key = hexToBytes(('0x' + slot.toString(16).padStart(64, '0')) as `0x${string}`);
    const v = await this.evm.stateManager.getStorage(addr(a), key);
    return v.length ? BigInt('0x' + Buffer.from(v).toString('hex')) : 0n;
  }

  async checkpoint(): Promise<void> {
    await this.evm.stateManager.checkpoint();
  }

  async revert(): Promise<void> {
    await this.evm.stateManager.revert();
  }

  async commit(): Promise<void> {
    await this.evm.stateManager.commit();
  }
}
