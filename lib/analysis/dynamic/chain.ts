// An in-process EVM chain for the fuzzer: fixed actor accounts, a block environment the fuzzer
// moves forward, state snapshots (checkpoint/revert) so every sequence starts from the same
// deployed state, and one step tracer per call that records what the property checks need.
// Calls go through evm.runCall (no signatures, no gas fees): an actor's balance only moves by
// the ether it sends and receives, so "the attacker's balance grew" means ether was taken.
import { createEVM, type EVM, type InterpreterStep } from '@ethereumjs/evm';
import { Common, Mainnet, Hardfork } from '@ethereumjs/common';
import { Account, Address, hexToBytes } from '@ethereumjs/util';
import { CallTrace, StepTracer } from './trace.ts';

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
}

/** Hard stop raised from inside the step hook when the task's time runs out mid-call. */
export class OutOfTimeError extends Error {
  code = 'out_of_time';
}

export class Chain {
  private constructor(
    readonly evm: EVM,
    readonly fork: string,
  ) {}

  private tracer: StepTracer | null = null;
  /** Epoch ms after which a running call is abandoned (checked every few thousand steps). */
  hardStop = Number.POSITIVE_INFINITY;
  private steps = 0;
  // Synchronous step listener, attached only while a traced call runs: with no listener the
  // interpreter skips building step events (about 4x faster), which untraced set-up calls use.
  private onStep = (s: InterpreterStep) => {
    if (++this.steps % 4096 === 0 && Date.now() > this.hardStop) throw new OutOfTimeError('time budget ran out during a call');
    this.tracer?.step(s);
  };

  static async create(fork: 'shanghai' | 'cancun'): Promise<Chain> {
    const common = new Common({ chain: Mainnet, hardfork: fork === 'cancun' ? Hardfork.Cancun : Hardfork.Shanghai });
    const evm = await createEVM({ common });
    const chain = new Chain(evm, fork);
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
    const from = addr(req.from);
    if (tracer) this.evm.events!.on('step', this.onStep);
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
      };
    } finally {
      if (tracer) this.evm.events!.off('step', this.onStep);
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
