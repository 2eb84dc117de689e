// The compiled program the fuzzer works on: deployable contracts of the submitted file with their
// ABI, bytecode and runtime source maps (program counter -> line of the submitted source), the
// hardfork their bytecode needs, and the constants their code pushes (a dictionary for inputs).
import semver from 'semver';
import { compileTask, LineIndex, oneLine, type CompileResult } from '../../../lib/analysis/compiler/index.ts';
import { outlineSource, locate, type Outline } from '../../../lib/analysis/outline.ts';
import { selectorOf, signatureOf, type AbiEntry } from './abi.ts';

export interface FnInfo {
  /** Canonical signature, e.g. "withdraw(uint256)"; "" for a plain ether transfer (fallback/receive). */
  signature: string;
  name: string;
  entry: AbiEntry;
  payable: boolean;
  /** view/pure: changes nothing, but can still fail an assert. */
  readOnly: boolean;
  selector: string;
}

export interface ProgramContract {
  name: string;
  kind: string;
  abi: AbiEntry[];
  bytecode: string;
  deployedBytecode: string;
  /** Per-instruction [start, length, fileIndex] of the runtime source map. */
  srcmap: Int32Array;
  fns: FnInfo[];
  invariants: FnInfo[];
  constructor: AbiEntry | null;
  payableFallback: boolean;
  /** Libraries whose address must be linked into the bytecode. */
  links: string[];
}

export interface SourceSite {
  line: number;
  end_line: number;
  contract: string | null;
  function: string | null;
  snippet: string;
}

export interface Program {
  file: string;
  source: string;
  compiler: string;
  fork: 'shanghai' | 'cancun';
  /** True for 0.4-0.7 bytecode, where arithmetic wraps silently. */
  uncheckedArithmetic: boolean;
  contracts: ProgramContract[];
  libraries: ProgramContract[];
  mainFileId: number;
  sourceKey: string;
  outline: Outline;
  dictionary: bigint[];
  lines: LineIndex;
}

function parseSourceMap(map: string, count: number): Int32Array {
  const out = new Int32Array(count * 3).fill(-1);
  let s = -1;
  let l = -1;
  let f = -1;
  const items = map ? map.split(';') : [];
  for (let i = 0; i < items.length && i < count; i++) {
    const parts = items[i].split(':');
    if (parts[0] !== undefined && parts[0] !== '') s = Number(parts[0]);
    if (parts[1] !== undefined && parts[1] !== '') l = Number(parts[1]);
    if (parts[2] !== undefined && parts[2] !== '') f = Number(parts[2]);
    out[i * 3] = s;
    out[i * 3 + 1] = l;
    out[i * 3 + 2] = f;
  }
  return out;
}

/** Instruction index of every byte offset of runtime code (PUSH immediates share their opcode's). */
export function pcToInstruction(code: Uint8Array): Int32Array {
  const map = new Int32Array(code.length + 1).fill(-1);
  let idx = 0;
  for (let pc = 0; pc < code.length; idx++) {
    const op = code[pc];
    const width = op >= 0x60 && op <= 0x7f ? op - 0x5e : 1;
    for (let k = 0; k < width && pc + k < map.length; k++) map[pc + k] = idx;
    pc += width;
  }
  return map;
}

function constantsOf(hex: string): bigint[] {
  const code = Buffer.from(hex.replace(/__[\s\S]{36}__/g, '0'.repeat(40)), 'hex');
  const out = new Set<bigint>();
  const dests = new Set<number>();
  for (let pc = 0; pc < code.length; pc += code[pc] >= 0x60 && code[pc] <= 0x7f ? code[pc] - 0x5e : 1) if (code[pc] === 0x5b) dests.add(pc);
  for (let pc = 0; pc < code.length;) {
    const op = code[pc];
    if (op >= 0x60 && op <= 0x7f) {
      const n = op - 0x5f;
      const v = code.subarray(pc + 1, pc + 1 + n);
      // Skip selectors (4 bytes), jump targets (1-2) and masks: keep values that look like data.
      if (n >= 1 && n !== 4 && n <= 32) {
        const x = BigInt('0x' + (Buffer.from(v).toString('hex') || '0'));
        const bin = x.toString(2);
        const mask = bin.length >= 8 && !bin.includes('0');
        // Jump targets are code offsets, not data.
        if (x > 2n && !mask && !(n <= 2 && dests.has(Number(x))) && out.size < 64) out.add(x);
      }
      pc += n + 1;
    } else pc++;
  }
  return [...out];
}

function isPayable(e: AbiEntry): boolean {
  return e.stateMutability === 'payable' || e.payable === true;
}

function isMutating(e: AbiEntry): boolean {
  if (e.stateMutability) return e.stateMutability !== 'view' && e.stateMutability !== 'pure';
  return e.constant !== true;
}

const INVARIANT = /^(echidna_|invariant_)/;

/** Builds the program from a full compilation (outputs 'full', ast: true). */
export function buildProgram(r: CompileResult, source: string, file: string): Program {
  const outline = outlineSource(source);
  const kinds = new Map(outline.contracts.map((c) => [c.name, c]));
  const src = (r.ast as { src?: string } | undefined)?.src;
  const mainFileId = src ? Number(src.split(':')[2] ?? 0) : 0;
  const contracts: ProgramContract[] = [];
  const libraries: ProgramContract[] = [];
  const dict = new Set<bigint>();
  for (const [name, c] of Object.entries(r.contracts)) {
    if (c.file !== file) continue;
    const o = kinds.get(name);
    const kind = o?.kind ?? 'contract';
    if (!c.bytecode || kind === 'interface') continue;
    const abi = c.abi as AbiEntry[];
    const fns: FnInfo[] = [];
    const invariants: FnInfo[] = [];
    const seen = new Set<string>();
    for (const e of abi) {
      if (e.type !== 'function' && e.type !== undefined) continue;
      if (!e.name) continue;
      const sig = signatureOf(e);
      if (seen.has(sig)) continue;
      seen.add(sig);
      const info: FnInfo = {
        signature: sig,
        name: e.name,
        entry: e,
        payable: isPayable(e),
        readOnly: !isMutating(e),
        selector: Buffer.from(selectorOf(e)).toString('hex'),
      };
      if (INVARIANT.test(e.name) && !(e.inputs ?? []).length) invariants.push(info);
      else if (!info.readOnly || (e.inputs ?? []).length) fns.push(info);
    }
    const fb = abi.find((e) => (e.type === 'fallback' || e.type === 'receive') && (isPayable(e) || e.type === 'receive'));
    if (fb)
      fns.push({
        signature: '',
        name: fb.type === 'receive' ? 'receive' : 'fallback',
        entry: fb,
        payable: true,
        readOnly: false,
        selector: '',
      });
    const code = Buffer.from(c.deployedBytecode.replace(/__[\s\S]{36}__/g, '0'.repeat(40)), 'hex');
    const count = pcToInstruction(code).reduce((m, x) => Math.max(m, x), -1) + 1;
    const links = [...new Set([...c.bytecode.matchAll(/__([\s\S]{36})__/g)].map((m) => m[1]))];
    const pc: ProgramContract = {
      name,
      kind,
      abi,
      bytecode: c.bytecode,
      deployedBytecode: c.deployedBytecode,
      srcmap: parseSourceMap(c.deployedSourceMap, count),
      fns,
      invariants,
      constructor: abi.find((e) => e.type === 'constructor') ?? null,
      payableFallback: Boolean(fb),
      links,
    };
    for (const k of constantsOf(c.deployedBytecode)) dict.add(k);
    if (kind === 'library') libraries.push(pc);
    else if (!o?.abstract) contracts.push(pc);
  }
  const compiler = r.compiler ?? '0.0.0';
  return {
    file,
    source,
    compiler,
    fork: semver.valid(compiler) && semver.gte(compiler, '0.8.24') ? 'cancun' : 'shanghai',
    uncheckedArithmetic: Boolean(semver.valid(compiler) && semver.lt(compiler, '0.8.0')),
    contracts,
    libraries,
    mainFileId,
    sourceKey: r.sourceKey,
    outline,
    dictionary: [...dict].slice(0, 64),
    lines: new LineIndex(source),
  };
}

/** Runtime code site -> location in the submitted source (null when it maps elsewhere). */
export class SiteMapper {
  private byCode = new Map<string, { c: ProgramContract; pcs: Int32Array }>();
  private buf: Buffer;
  constructor(private p: Program) {
    this.buf = Buffer.from(p.source, 'utf8');
  }
  register(codeAddress: string, c: ProgramContract, runtime: Uint8Array): void {
    this.byCode.set(codeAddress, { c, pcs: pcToInstruction(runtime) });
  }
  contractAt(codeAddress: string): ProgramContract | null {
    return this.byCode.get(codeAddress)?.c ?? null;
  }
  resolve(codeAddress: string, pc: number): SourceSite | null {
    const e = this.byCode.get(codeAddress);
    if (!e) return null;
    const idx = e.pcs[pc];
    if (idx === undefined || idx < 0) return null;
    const s = e.c.srcmap[idx * 3];
    const l = e.c.srcmap[idx * 3 + 1];
    const f = e.c.srcmap[idx * 3 + 2];
    if (s < 0 || l < 0 || f !== this.p.mainFileId) return null;
    const line = this.p.lines.lineOf(s);
    const end = this.p.lines.lineOf(Math.max(s, s + l - 1));
    const where = locate(this.p.outline, line);
    return {
      line,
      end_line: end,
      contract: where.contract,
      function: where.function,
      snippet: this.buf.subarray(s, s + l).toString('utf8'),
    };
  }
}

type EvmCompileRequest = {
  source: string;
  file: string;
  absPath?: string | null;
  roots?: string[];
  /** The engine's compile of this very request (AnalysisInput.compiled), when it made one. */
  compiled?: CompileResult | null;
};

/** Compiles (in this thread) with everything the EVM tools need: bytecode, runtime source maps,
 *  the AST for the file id. The same request as the engine's full-mode compile: its result, when
 *  the engine handed it in, is used as is (else a worker that compiled it answers from its memo). */
export function compileForEvm(req: EvmCompileRequest): CompileResult {
  if (req.compiled?.ok && req.compiled.ast !== undefined) return req.compiled;
  return compileTask({ source: req.source, file: req.file, absPath: req.absPath ?? null, roots: req.roots, outputs: 'full', ast: true });
}

/** Compiles and builds the fuzzer's program (only the fuzzer needs one for every contract). */
export function compileProgram(req: EvmCompileRequest): {
  program: Program | null;
  result: CompileResult;
  error: string | null;
} {
  const result = compileForEvm(req);
  if (!result.ok)
    return {
      program: null,
      result,
      error: `the contract does not compile: ${result.errors[0] ? oneLine(result.errors[0]) : result.reason}`,
    };
  return { program: buildProgram(result, req.source, req.file), result, error: null };
}
