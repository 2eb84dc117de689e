// Structural outline of a source (contracts and their functions with line spans), so that every
// tool can name the contract and function around a line without re-walking the AST.
import { parseSolidityText } from './solidity-parser.ts';
import { fileURLToPath } from 'node:url';
import { sourceMemo } from './source-memo.ts';

export interface OutlineFunction {
  name: string;
  line: number;
  end_line: number;
}

export interface OutlineContract {
  name: string;
  kind: string;
  abstract: boolean;
  line: number;
  end_line: number;
  functions: OutlineFunction[];
}

export interface Outline {
  contracts: OutlineContract[];
  /** Parser error message when the source does not parse (outline then comes from a text scan). */
  parseError: string | null;
  parseErrorLine: number | null;
}

function fnName(node: any): string {
  if (node.type === 'ModifierDefinition') return node.name;
  if (node.isConstructor) return 'constructor';
  if (node.isReceiveEther) return 'receive';
  if (node.isFallback || node.name === '' || node.name == null) return node.name ? node.name : 'fallback';
  return node.name;
}

// The engine, solhint's and the SMTChecker's locators all outline the same source: parse it once.
const outlines = sourceMemo<Outline>({ max: 8 });

/** Pool task entry: `pool.run(OUTLINE_MODULE, 'outlineTask', {source})`. */
export const OUTLINE_MODULE = fileURLToPath(import.meta.url);

/** Outline of a source, memoised per thread (treat the result as read-only). */
export function outlineSource(source: string): Outline {
  return outlines.get(source, () => freezeOutline(buildOutline(source)));
}

/** Runs in a pool worker, so a 1 MiB source is parsed off the event loop both surfaces share. */
export function outlineTask(args: { source: string }): Outline {
  if (!args || typeof args.source !== 'string') throw new TypeError('outlineTask needs {source}');
  return outlineSource(args.source);
}

/** Hands this thread an outline computed elsewhere (in a worker), so locators here reuse it. */
export function primeOutline(source: string, outline: Outline): Outline {
  return outlines.get(source, () => freezeOutline(outline));
}

function freezeOutline(o: Outline): Outline {
  for (const c of o.contracts) {
    for (const f of c.functions) Object.freeze(f);
    Object.freeze(c.functions);
    Object.freeze(c);
  }
  Object.freeze(o.contracts);
  return Object.freeze(o);
}

function parseFailure(
  source: string,
  errors: Array<{ line?: number; column?: number; message?: string }> | null,
  fallback: string,
): Outline {
  const first = errors && errors.length ? errors[0] : null;
  const msg = first ? `line ${first.line}:${first.column}: ${first.message}` : fallback;
  return { contracts: scanContracts(source), parseError: msg, parseErrorLine: first?.line ?? null };
}

function buildOutline(source: string): Outline {
  let ast: any;
  try {
    // The static layer's options: in a worker, the tree it parses (or parsed) is reused.
    ast = parseSolidityText(source, { loc: true, range: true, tolerant: true });
  } catch {
    // Tolerant mode crashed on this input; a strict parse names the real syntax error.
    try {
      parseSolidityText(source, { loc: true });
      return parseFailure(source, null, 'the parser failed on this input');
    } catch (e: any) {
      return parseFailure(source, Array.isArray(e?.errors) ? e.errors : null, String(e?.message ?? e));
    }
  }
  if (Array.isArray(ast.errors) && ast.errors.length) return parseFailure(source, ast.errors, 'syntax error');
  const contracts: OutlineContract[] = [];
  for (const child of ast.children ?? []) {
    if (child.type !== 'ContractDefinition') continue;
    const functions: OutlineFunction[] = [];
    for (const sub of child.subNodes ?? []) {
      if (sub.type === 'FunctionDefinition' || sub.type === 'ModifierDefinition') {
        functions.push({ name: fnName(sub), line: sub.loc.start.line, end_line: sub.loc.end.line });
      }
    }
    contracts.push({
      name: child.name,
      kind: child.kind,
      abstract: child.kind === 'abstract' || Boolean(child.isAbstract),
      line: child.loc.start.line,
      end_line: child.loc.end.line,
      functions,
    });
  }
  return { contracts, parseError: null, parseErrorLine: null };
}

/** Contract names and spans from a text scan, without parsing (no function spans, no verdict on syntax). */
export function textOutline(source: string): Outline {
  return { contracts: scanContracts(source), parseError: null, parseErrorLine: null };
}

/** Text fallback for sources the parser rejects: names and start lines of contracts only. */
function scanContracts(source: string): OutlineContract[] {
  const out: OutlineContract[] = [];
  const lines = source.split(/\r?\n/);
  const re = /^\s*(abstract\s+)?(contract|library|interface)\s+([A-Za-z_$][\w$]*)/;
  lines.forEach((l, i) => {
    const m = re.exec(l);
    if (m) out.push({ name: m[3], kind: m[2], abstract: Boolean(m[1]), line: i + 1, end_line: i + 1, functions: [] });
  });
  for (let i = 0; i < out.length; i++) out[i].end_line = i + 1 < out.length ? out[i + 1].line - 1 : lines.length;
  return out;
}

/** The contract and function enclosing a line. */
export function locate(outline: Outline, line: number): { contract: string | null; function: string | null } {
  for (const c of outline.contracts) {
    if (line < c.line || line > c.end_line) continue;
    const f = c.functions.find((fn) => line >= fn.line && line <= fn.end_line);
    return { contract: c.name, function: f?.name ?? null };
  }
  return { contract: null, function: null };
}

/** The contract a user most likely means: the last deployable contract (main contracts come after their bases). */
export function mainContract(outline: Outline): string | null {
  const deployable = outline.contracts.filter((c) => c.kind === 'contract' && !c.abstract);
  const pick = deployable[deployable.length - 1] ?? outline.contracts[outline.contracts.length - 1];
  return pick?.name ?? null;
}

/** Line of a function by name in a contract (first match), for tools that only report names. */
export function functionLine(outline: Outline, contract: string | null, fn: string): OutlineFunction | null {
  for (const c of outline.contracts) {
    if (contract && c.name !== contract) continue;
    const f = c.functions.find((x) => x.name === fn);
    if (f) return f;
  }
  return null;
}
