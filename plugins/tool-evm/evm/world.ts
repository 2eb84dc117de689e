// Deterministic set-up of the world a sequence runs in: the actor contracts, every deployable
// contract of the file deployed by the owner (libraries first, linked), and ether put where a
// thief could take it: constructor value and deposits by the owner and a user through payable
// functions. Contracts with no payable path get a balance written directly (ether can always
// arrive by selfdestruct or as a block reward), so "anyone can withdraw this.balance" still shows.
// Everything here is a pure function of the program, so a replay rebuilds the same addresses.
import { ACTORS, ETHER, GENESIS_BLOCK, GENESIS_TIME, type Chain, type BlockEnv } from './chain.ts';
import { ATTACKER_BYTECODE, REFUSER_BYTECODE } from './actors.ts';
import { encodeArgs, encodeCall, fromHex, keccak, toHex, type AbiParam, type AbiValue } from './abi.ts';
import { SiteMapper, type FnInfo, type Program, type ProgramContract } from './program.ts';

export const DEPLOY_GAS = 6_000_000n;
export const CALL_GAS = 3_000_000n;
const FUND = 5n * ETHER;
const FORCED = 10n * ETHER;

export interface Target {
  name: string;
  address: string;
  contract: ProgramContract;
  constructorArgs: AbiValue[];
  constructorValue: string;
}

export interface SetupStep {
  from: string;
  to: string;
  contract: string;
  function: string;
  args: AbiValue[];
  value: string;
  ok: boolean;
}

export interface World {
  program: Program;
  targets: Target[];
  attackerContract: string;
  refuser: string;
  libraries: Record<string, string>;
  mapper: SiteMapper;
  funding: SetupStep[];
  forcedBalance: string[];
  /** Contracts that could not be deployed, with why. */
  failed: Array<{ name: string; reason: string }>;
  block: BlockEnv;
}

/** Constructor/setup argument for a parameter: fixed choices, so a replay rebuilds the same world. */
export function setupValue(p: AbiParam, attempt: number, addresses: string[]): AbiValue {
  const t = p.type;
  const arr = /^(.*)\[(\d*)\]$/.exec(t);
  if (arr) {
    const n = arr[2] === '' ? 1 : Number(arr[2]);
    return Array.from({ length: n }, () => setupValue({ ...p, type: arr[1] }, attempt, addresses));
  }
  if (t === 'tuple') return (p.components ?? []).map((c) => setupValue(c, attempt, addresses));
  if (t === 'address') return addresses[0] ?? ACTORS.owner;
  if (t === 'bool') return attempt !== 1;
  if (t === 'string') return attempt === 1 ? '' : 'vigil';
  if (t === 'bytes') return attempt === 1 ? '0x' : '0x01';
  if (/^bytes\d+$/.test(t)) return '0x' + (attempt === 1 ? '00' : '01').padEnd(Number(t.slice(5)) * 2, '0');
  // The fourth set is all ones: thresholds like a multisig's `required` (<= its owner count).
  if (/^u?int/.test(t)) return ['100', '0', '1000000000000000000'][attempt] ?? '1';
  return '0';
}

function linkBytecode(hex: string, libs: Record<string, string>, sourceKey: string): string | null {
  let missing = false;
  const out = hex.replace(/__([\s\S]{36})__/g, (_m, inner: string) => {
    // 0.5+: __$<34 hex of keccak(file:Lib)>$__ ; 0.4: __<file>:<Lib>____ padded to 40 chars.
    for (const [name, a] of Object.entries(libs)) {
      const hash = Buffer.from(keccak(`${sourceKey}:${name}`))
        .toString('hex')
        .slice(0, 34);
      const old = inner.replace(/_+$/, '');
      if (inner === `$${hash}$` || old === name || old.endsWith(`:${name}`) || (name.startsWith(old) && old.length >= 30))
        return a.slice(2);
    }
    missing = true;
    return '0'.repeat(40);
  });
  return missing ? null : out;
}

/** Deploys with a time cap of its own, so one constructor that loops cannot eat the whole budget. */
async function deploy(
  chain: Chain,
  from: string,
  initcode: Uint8Array,
  value: bigint,
  block: BlockEnv,
  deadline = Number.POSITIVE_INFINITY,
) {
  const saved = chain.hardStop;
  const left = deadline - Date.now();
  chain.hardStop = Math.min(saved, Number.isFinite(left) ? Date.now() + Math.max(1500, left * 0.4) : saved);
  try {
    return await chain.call({ from, to: null, data: initcode, value, gasLimit: DEPLOY_GAS, block }, null);
  } finally {
    chain.hardStop = saved;
  }
}

function describeFailure(error: string | null, gasUsed: bigint, timedOut = false): string {
  if (timedOut)
    return `the constructor was still running when its time ran out (${gasUsed} gas used): it loops or does too much work to deploy`;
  if (!error) return 'unknown failure';
  if (/out of gas/i.test(error))
    return `the constructor ran out of gas (${gasUsed} of ${DEPLOY_GAS} gas used): it loops or does too much work to deploy`;
  if (/revert/i.test(error)) return 'the constructor reverted with every argument set and ether value tried';
  return `deployment failed: ${error}`;
}

export function calldataFor(fn: FnInfo, args: AbiValue[]): Uint8Array {
  return fn.signature === '' ? new Uint8Array(0) : encodeCall(fn.entry, args);
}

export async function buildWorld(chain: Chain, program: Program, opts: { deadline: number }): Promise<World> {
  const block: BlockEnv = { timestamp: GENESIS_TIME, number: GENESIS_BLOCK };
  const mapper = new SiteMapper(program);
  const att = await deploy(chain, ACTORS.attacker, fromHex(ATTACKER_BYTECODE), 0n, block);
  const ref = await deploy(chain, ACTORS.attacker, fromHex(REFUSER_BYTECODE), 0n, block);
  if (!att.ok || !ref.ok || !att.createdAddress || !ref.createdAddress)
    throw new Error(`the fuzzer's actor contracts failed to deploy: ${att.error ?? ref.error}`);
  const world: World = {
    program,
    targets: [],
    attackerContract: att.createdAddress,
    refuser: ref.createdAddress,
    libraries: {},
    mapper,
    funding: [],
    forcedBalance: [],
    failed: [],
    block,
  };
  // Libraries: deploy each once it can be linked (a library may use another).
  let pendingLibs = [...program.libraries];
  for (let round = 0; round < 4 && pendingLibs.length; round++) {
    const left: ProgramContract[] = [];
    for (const lib of pendingLibs) {
      const linked = linkBytecode(lib.bytecode, world.libraries, program.sourceKey);
      if (linked === null) {
        left.push(lib);
        continue;
      }
      const r = await deploy(chain, ACTORS.owner, fromHex(linked), 0n, block, opts.deadline);
      if (r.ok && r.createdAddress) {
        world.libraries[lib.name] = r.createdAddress;
        mapper.register(r.createdAddress, lib, await chain.code(r.createdAddress));
      } else world.failed.push({ name: lib.name, reason: describeFailure(r.error, r.gasUsed) });
    }
    pendingLibs = left;
  }
  for (const lib of pendingLibs)
    world.failed.push({ name: lib.name, reason: 'its bytecode links a library that is not defined in this file' });

  for (const c of program.contracts) {
    if (Date.now() > opts.deadline) {
      world.failed.push({ name: c.name, reason: 'no time left to deploy it' });
      continue;
    }
    const linked = linkBytecode(c.bytecode, world.libraries, program.sourceKey);
    if (linked === null) {
      world.failed.push({ name: c.name, reason: 'its bytecode links a library that is not defined in this file (or failed to deploy)' });
      continue;
    }
    const inputs = c.constructor?.inputs ?? [];
    const payable = c.constructor ? c.constructor.stateMutability === 'payable' || c.constructor.payable === true : false;
    const earlier = world.targets.map((t) => t.address).reverse();
    let deployed = false;
    let lastErr: string | null = null;
    let lastGas = 0n;
    let lastTimedOut = false;
    // Argument sets x constructor values (payable constructors often insist on an exact amount).
    const values = payable ? [FUND, ETHER, 0n] : [0n];
    const tries: Array<[number, bigint]> = [];
    for (let attempt = 0; attempt < (inputs.length ? 4 : 1); attempt++) for (const v of values) tries.push([attempt, v]);
    for (const [attempt, value] of tries) {
      if (deployed) break;
      const args = inputs.map((p) => setupValue(p, attempt, [...earlier, ACTORS.user]));
      const init = new Uint8Array([...fromHex(linked), ...encodeArgs(inputs, args)]);
      const r = await deploy(chain, ACTORS.owner, init, value, block, opts.deadline);
      lastErr = r.error;
      lastGas = r.gasUsed;
      lastTimedOut = r.timedOut;
      if (r.ok && r.createdAddress) {
        deployed = true;
        world.targets.push({
          name: c.name,
          address: r.createdAddress,
          contract: c,
          constructorArgs: args,
          constructorValue: value.toString(),
        });
        mapper.register(r.createdAddress, c, await chain.code(r.createdAddress));
      } else if (r.timedOut || (r.error && /out of gas/i.test(r.error))) break; // other arguments will not make it terminate
    }
    if (!deployed) world.failed.push({ name: c.name, reason: describeFailure(lastErr, lastGas, lastTimedOut) });
  }

  // Deposits by the owner and by a user, so there is ether owed to others in the contract.
  for (const t of world.targets) {
    for (const fn of t.contract.fns.filter((f) => f.payable)) {
      for (const [from, amount] of [
        [ACTORS.owner, FUND],
        [ACTORS.user, 2n * ETHER],
      ] as const) {
        if (Date.now() > opts.deadline) break;
        const args = (fn.entry.inputs ?? []).map((p) => setupValue(p, 0, [from]));
        await chain.checkpoint();
        const r = await chain.call({ from, to: t.address, data: calldataFor(fn, args), value: amount, gasLimit: CALL_GAS, block }, null);
        if (r.ok) await chain.commit();
        else await chain.revert();
        world.funding.push({
          from,
          to: t.address,
          contract: t.name,
          function: fn.signature || '(ether transfer)',
          args,
          value: amount.toString(),
          ok: r.ok,
        });
      }
    }
    if ((await chain.balance(t.address)) === 0n) {
      await chain.setBalance(t.address, FORCED);
      world.forcedBalance.push(t.address);
    }
  }
  return world;
}

export { toHex };
