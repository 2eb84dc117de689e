// Running external analyzers (slither, mythril, echidna, ...): find the binary on PATH, run it
// with a fixed argument vector (never a shell, so nothing in a contract or file name can become
// a command), stop it at the deadline, and parse its JSON. One helper for every adapter.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
  /** True when stdout or stderr hit the size cap and was cut. */
  truncated: boolean;
}

export interface RunBinaryOptions {
  cwd?: string;
  signal?: AbortSignal;
  /** Epoch ms: the process (and its process group) is stopped when it passes. */
  deadline: number;
  env?: NodeJS.ProcessEnv;
  /** Cap on captured stdout and stderr each (default 32 MiB). */
  maxOutputBytes?: number;
}

/** Absolute path of an executable found on PATH (or null). */
export function findBinary(name: string, envPath: string | undefined = process.env.PATH): string | null {
  if (!name || name.includes('/') || name.includes('\\')) return null;
  const exts = process.platform === 'win32' ? (process.env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  for (const dir of (envPath ?? '').split(path.delimiter)) {
    if (!dir) continue;
    for (const ext of exts) {
      const p = path.join(dir, name + ext);
      try {
        const st = fs.statSync(p);
        if (!st.isFile()) continue;
        fs.accessSync(p, fs.constants.X_OK);
        return p;
      } catch {
        /* not here */
      }
    }
  }
  return null;
}

/** Runs a binary with a fixed argv and no shell; resolves (never rejects) with what happened. */
export function runBinary(bin: string, args: string[], opts: RunBinaryOptions): Promise<RunResult> {
  const cap = opts.maxOutputBytes ?? 32 * 1024 * 1024;
  const t0 = Date.now();
  return new Promise((resolve) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(bin, args, {
        cwd: opts.cwd,
        env: opts.env ?? process.env,
        shell: false,
        stdio: ['ignore', 'pipe', 'pipe'],
        // Own process group, so a tool that forks solvers/workers is stopped as a whole.
        detached: process.platform !== 'win32',
      });
    } catch (e) {
      resolve({
        code: null,
        signal: null,
        stdout: '',
        stderr: String((e as Error).message),
        timedOut: false,
        aborted: false,
        durationMs: 0,
        truncated: false,
      });
      return;
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outLen = 0;
    let errLen = 0;
    let truncated = false;
    let timedOut = false;
    let aborted = false;
    let settled = false;
    child.stdout!.on('data', (b: Buffer) => {
      if (outLen < cap) out.push(b.subarray(0, cap - outLen));
      else truncated = true;
      outLen += b.length;
    });
    child.stderr!.on('data', (b: Buffer) => {
      if (errLen < cap) err.push(b.subarray(0, cap - errLen));
      else truncated = true;
      errLen += b.length;
    });
    const kill = (sig: NodeJS.Signals) => {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
      try {
        if (process.platform !== 'win32') process.kill(-child.pid, sig);
        else child.kill(sig);
      } catch {
        try {
          child.kill(sig);
        } catch {
          /* already gone */
        }
      }
    };
    const stop = () => {
      kill('SIGTERM');
      setTimeout(() => kill('SIGKILL'), 2000).unref();
    };
    const timer = setTimeout(
      () => {
        timedOut = true;
        stop();
      },
      Math.max(0, opts.deadline - Date.now()),
    );
    const onAbort = () => {
      aborted = true;
      stop();
    };
    if (opts.signal) {
      if (opts.signal.aborted) onAbort();
      else opts.signal.addEventListener('abort', onAbort, { once: true });
    }
    const finish = (code: number | null, signal: NodeJS.Signals | null, spawnError?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      resolve({
        code,
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: spawnError ? spawnError.message : Buffer.concat(err).toString('utf8'),
        timedOut,
        aborted,
        durationMs: Date.now() - t0,
        truncated,
      });
    };
    child.on('error', (e) => finish(null, null, e));
    child.on('close', (code, signal) => finish(code, signal));
  });
}

/**
 * Extracts the JSON document from a tool's output. Tools print banners or log lines around
 * their JSON, so when the whole text does not parse, the first line that opens an object or
 * array and runs to the end is tried.
 */
export function parseJsonOutput<T = unknown>(text: string): T | null {
  const t = text.trim();
  if (!t) return null;
  try {
    return JSON.parse(t) as T;
  } catch {
    /* look for the document inside */
  }
  const lines = t.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i].trimStart();
    if (!l.startsWith('{') && !l.startsWith('[')) continue;
    const rest = lines.slice(i).join('\n');
    try {
      return JSON.parse(rest) as T;
    } catch {
      // The JSON may be followed by trailing log lines: try up to the last closing brace.
      const close = Math.max(rest.lastIndexOf('}'), rest.lastIndexOf(']'));
      if (close > 0) {
        try {
          return JSON.parse(rest.slice(0, close + 1)) as T;
        } catch {
          /* keep looking */
        }
      }
    }
  }
  return null;
}

export interface Workspace {
  /** Directory holding the contract (the original folder, or a private temp folder). */
  dir: string;
  /** Absolute path of the contract file inside dir. */
  file: string;
  /** True when the contract was written to a temp folder for this run. */
  temporary: boolean;
  cleanup(): Promise<void>;
}

/** A file name safe to create in a temp folder, keeping the .sol extension tools look for. */
export function safeFileName(name: string): string {
  const base =
    path
      .basename(name || 'Contract.sol')
      .replace(/[^A-Za-z0-9._-]/g, '_')
      .replace(/^\.+/, '') || 'Contract.sol';
  return base.endsWith('.sol') ? base : base + '.sol';
}

/**
 * Where an external tool reads the contract: its own folder when it came from disk (so its
 * imports resolve), else a fresh temp folder holding just the submitted text.
 */
export async function prepareWorkspace(
  input: { source: string; file: string; absPath?: string | null },
  extra?: Record<string, string>,
): Promise<Workspace> {
  if (input.absPath && !extra) {
    return { dir: path.dirname(input.absPath), file: input.absPath, temporary: false, cleanup: async () => {} };
  }
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'vigil-ext-'));
  const rel = extra ? path.join('src', safeFileName(input.file)) : safeFileName(input.file);
  const file = path.join(dir, rel);
  await fsp.mkdir(path.dirname(file), { recursive: true });
  await fsp.writeFile(file, input.source, 'utf8');
  for (const [name, content] of Object.entries(extra ?? {})) await fsp.writeFile(path.join(dir, name), content, 'utf8');
  return { dir, file, temporary: true, cleanup: () => fsp.rm(dir, { recursive: true, force: true }) };
}

/** Last lines of a tool's stderr, for an error message that says what went wrong. */
export function tail(text: string, lines = 6, maxChars = 800): string {
  const t = text
    // eslint-disable-next-line no-control-regex -- strips ANSI colour escapes (ESC [ ... m)
    .replace(/\x1b\[[0-9;]*m/g, '')
    .trim()
    .split('\n')
    .slice(-lines)
    .join('\n');
  return t.length > maxChars ? '…' + t.slice(-maxChars) : t;
}
