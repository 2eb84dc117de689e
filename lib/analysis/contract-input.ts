// Turns the contract fields of a request into source text. contract_code is taken as is (size
// capped: 413 above the limit); contract_path is read only inside the allowed roots: any `..`
// segment, an absolute path outside every root, or a symlink anywhere on the path that resolves
// outside is refused with 403 path_not_allowed; a missing file is 400 contract_not_found.
//
// Only Solidity is ever read: the path must name a `.sol` file and so must the file it finally
// resolves to (a symlink `x.sol` -> `.env` is refused), else 400 not_solidity — the name is
// checked before the filesystem is touched, so the answer says nothing about which files exist. The
// remediation answer echoes the source it was given, so any file this reader accepted could be
// read back through it; that is why the rule lives here, where every route and MCP tool reads.
//
// Every source (inline or read) is scanned for shapes that make the parser pathological before
// it reaches a worker: bracket nesting deeper than MAX_NESTING (the parser's time grows steeply
// with depth and its AST builder overflows the stack near 2,000), one statement with more than
// MAX_STATEMENT_OPERATORS operators (every binary operator is one more level of AST), or more
// than MAX_TOKENS tokens. The scan is a single pass over the characters, not a parse.
import fs from 'node:fs/promises';
import path from 'node:path';
import { HttpError } from '../../kernel/index.ts';

export interface ContractSource {
  source: string;
  /** Display name used in finding locations. */
  file: string;
  absPath: string | null;
}

export interface SourceLimits {
  maxNesting: number;
  maxStatementOperators: number;
  maxTokens: number;
}

export const SOURCE_LIMITS: SourceLimits = { maxNesting: 128, maxStatementOperators: 512, maxTokens: 250_000 };

const inside = (root: string, p: string) => {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

const isSol = (p: string) => /\.sol$/i.test(p);

/** Reads the contract a request names by `<name>_code` or `<name>_path` (e.g. contract_code,
 *  original_path); a field that is not a string counts as absent. */
export async function readContract(
  body: Readonly<Record<string, unknown>>,
  name: string,
  opts: { roots: string[]; maxBytes: number; limits?: SourceLimits },
): Promise<ContractSource> {
  const names = { code: `${name}_code`, path: `${name}_path` };
  const fields = { code: body[names.code], path: body[names.path] };
  const hasCode = typeof fields.code === 'string';
  const hasPath = typeof fields.path === 'string';
  if (hasCode === hasPath) {
    throw new HttpError(
      400,
      'invalid_request',
      hasCode ? `send either ${names.code} or ${names.path}, not both` : `one of ${names.code} or ${names.path} is required`,
    );
  }
  if (hasCode) {
    const code = fields.code as string;
    const bytes = Buffer.byteLength(code, 'utf8');
    if (bytes > opts.maxBytes) {
      throw new HttpError(413, 'payload_too_large', `${names.code} is ${bytes} bytes; the limit is ${opts.maxBytes} bytes (1 MiB)`, {
        limit: opts.maxBytes,
        size: bytes,
      });
    }
    if (code.trim() === '') throw new HttpError(400, 'invalid_request', `${names.code} is empty`);
    checkSourceShape(code, names.code, opts.limits);
    return { source: code, file: 'Contract.sol', absPath: null };
  }
  const read = await readPath(fields.path as string, names.path, opts);
  checkSourceShape(read.source, names.path, opts.limits);
  return read;
}

async function readPath(p: string, field: string, opts: { roots: string[]; maxBytes: number }): Promise<ContractSource> {
  if (p.includes('\0')) throw new HttpError(400, 'invalid_request', `${field} must not contain NUL bytes`);
  const roots = opts.roots.map((r) => path.resolve(r));
  if (p.split(/[\\/]+/).includes('..')) {
    throw new HttpError(403, 'path_not_allowed', `${field} must not contain ".." segments`, { allowed_roots: roots.length });
  }
  const candidates = path.isAbsolute(p) ? [path.resolve(p)] : roots.map((r) => path.resolve(r, p));
  const lexicalRoot = (abs: string) => roots.find((r) => inside(r, abs));
  const allowed = candidates.filter((c) => lexicalRoot(c));
  if (!allowed.length)
    throw new HttpError(403, 'path_not_allowed', `${field} "${p}" is outside the allowed contract roots (VIGIL_CONTRACT_ROOTS)`);
  if (!isSol(p)) {
    throw new HttpError(400, 'not_solidity', `${field} "${p}" is not a Solidity file: only .sol files are read`, { field });
  }
  for (const abs of allowed) {
    let real: string;
    try {
      real = await fs.realpath(abs);
    } catch {
      continue;
    }
    const realRoots = await Promise.all(roots.map((r) => fs.realpath(r).catch(() => r)));
    const root = realRoots.find((r) => inside(r, real));
    if (!root) throw new HttpError(403, 'path_not_allowed', `${field} "${p}" leads outside the allowed contract roots through a symlink`);
    if (!isSol(real))
      throw new HttpError(
        400,
        'not_solidity',
        `${field} "${p}" is a link to a file that is not a .sol file; only Solidity files are read`,
        { field },
      );
    const st = await fs.stat(real);
    if (!st.isFile()) throw new HttpError(400, 'contract_not_found', `${field} "${p}" is not a file`);
    if (st.size > opts.maxBytes)
      throw new HttpError(413, 'payload_too_large', `${field} "${p}" is ${st.size} bytes; the limit is ${opts.maxBytes} bytes (1 MiB)`);
    const raw = await fs.readFile(real);
    // Solidity is text: a NUL byte means a binary file with a .sol name, which is not echoed either.
    if (raw.includes(0)) throw new HttpError(400, 'not_solidity', `${field} "${p}" is a binary file, not Solidity source`, { field });
    const source = raw.toString('utf8');
    if (source.trim() === '') throw new HttpError(400, 'invalid_request', `${field} "${p}" is empty`);
    return { source, file: path.relative(root, real) || path.basename(real), absPath: real };
  }
  throw new HttpError(400, 'contract_not_found', `${field} "${p}" does not exist`);
}

const OPERATOR_CHARS = new Set('+-*/%&|^<>=!?:~'.split(''));
const isWord = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36;

/**
 * Refuses (400 source_too_complex, with line and column) source whose shape would make the
 * parser pathological. Comments and string literals are skipped; the limits are far above what
 * hand-written or generated Solidity contains (OpenZeppelin's deepest nesting is under 20).
 */
export function checkSourceShape(src: string, field: string, limits: SourceLimits = SOURCE_LIMITS): void {
  let depth = 0;
  let tokens = 0;
  let operators = 0;
  let line = 1;
  let lineStart = 0;
  let stmtLine = 1;
  let stmtCol = 1;
  const refuse = (what: string, limit: number, at: number, l = line, col = at - lineStart + 1): never => {
    throw new HttpError(
      400,
      'source_too_complex',
      `${field}: ${what} at line ${l}, column ${col} (the limit is ${limit}); such source is refused before analysis because parsing it would take minutes or exhaust the parser's stack`,
      {
        field,
        line: l,
        column: col,
        limit,
      },
    );
  };
  const n = src.length;
  let i = 0;
  while (i < n) {
    const ch = src.charCodeAt(i);
    if (ch === 10) {
      line++;
      lineStart = i + 1;
      i++;
      continue;
    }
    if (ch === 32 || ch === 9 || ch === 13) {
      i++;
      continue;
    }
    const c = src[i];
    if (c === '/' && src[i + 1] === '/') {
      while (i < n && src.charCodeAt(i) !== 10) i++;
      continue;
    }
    if (c === '/' && src[i + 1] === '*') {
      i += 2;
      while (i < n && !(src[i] === '*' && src[i + 1] === '/')) {
        if (src.charCodeAt(i) === 10) {
          line++;
          lineStart = i + 1;
        }
        i++;
      }
      i += 2;
      continue;
    }
    tokens++;
    if (tokens > limits.maxTokens) refuse(`more than ${limits.maxTokens} tokens`, limits.maxTokens, i);
    if (c === '"' || c === "'") {
      i++;
      while (i < n && src[i] !== c && src.charCodeAt(i) !== 10) i += src[i] === '\\' ? 2 : 1;
      i++;
      continue;
    }
    if (isWord(ch)) {
      while (i < n && isWord(src.charCodeAt(i))) i++;
      continue;
    }
    if (c === '(' || c === '[' || c === '{') {
      depth++;
      if (depth > limits.maxNesting) refuse(`brackets nested ${depth} deep`, limits.maxNesting, i);
    } else if (c === ')' || c === ']' || c === '}') {
      if (depth > 0) depth--;
    }
    if (c === ';' || c === '{' || c === '}') {
      operators = 0;
      stmtLine = line;
      stmtCol = i - lineStart + 2;
      i++;
      continue;
    }
    if (OPERATOR_CHARS.has(c)) {
      // One operator token: a run of operator characters (`>>=`, `==`, `&&`).
      while (i < n && OPERATOR_CHARS.has(src[i])) i++;
      operators++;
      if (operators > limits.maxStatementOperators)
        refuse(
          `one statement (starting at line ${stmtLine}, column ${stmtCol}) has more than ${limits.maxStatementOperators} operators`,
          limits.maxStatementOperators,
          i - 1,
        );
      continue;
    }
    i++;
  }
}
