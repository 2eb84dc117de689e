// The `shell` skill: runs one program from the configured allow-list with arguments passed
// directly to it (spawn without a shell), in the workspace folder, with a time limit and an
// output cap. Since nothing is interpreted by a shell, metacharacters in arguments (; | && $())
// are plain text to the program — there is no injection to detect here; the shell_injection
// guardrail still sees the arguments. Programs are bare names looked up on PATH: a path such as
// /bin/sh or ./x is refused, so the allow-list cannot be side-stepped. Disabled by default: the
// default permission set does not grant shell_exec.
import { spawn } from 'node:child_process';
import { definePlugin, type SkillResult } from '../../kernel/index.ts';

interface ShellConfig extends Record<string, unknown> {
  allow: string[];
  timeout_ms: number;
  max_output_bytes: number;
  max_args: number;
}

export function runProgram(program: string, args: string[], opts: { cwd: string; timeoutMs: number; maxBytes: number; signal: AbortSignal }): Promise<SkillResult> {
  return new Promise((resolve) => {
    const child = spawn(program, args, {
      cwd: opts.cwd,
      shell: false,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', HOME: opts.cwd },
      signal: opts.signal,
      killSignal: 'SIGKILL',
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, opts.timeoutMs);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let truncated = false;
    const take = (into: Buffer[]) => (b: Buffer) => {
      if (truncated) return;
      const room = opts.maxBytes - size;
      if (b.length > room) {
        into.push(b.subarray(0, room));
        truncated = true;
        child.kill('SIGKILL');
      } else into.push(b);
      size += Math.min(b.length, room);
    };
    child.stdout!.on('data', take(out));
    child.stderr!.on('data', take(err));
    const started = Date.now();
    child.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (e.name === 'AbortError') resolve({ ok: false, output: null, error: 'aborted' });
      else if (e.code === 'ENOENT') resolve({ ok: false, output: null, error: `program_not_found: "${program}" is allowed but not installed on this host` });
      else resolve({ ok: false, output: null, error: `could not start ${program}: ${e.message}` });
    });
    child.on('close', (code, sig) => {
      clearTimeout(timer);
      const elapsed = Date.now() - started;
      const output = { program, args, exit_code: code, signal: sig, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), truncated, duration_ms: elapsed };
      if (timedOut) resolve({ ok: false, output, error: `timeout: ${program} ran longer than ${opts.timeoutMs} ms and was killed` });
      else resolve({ ok: true, output });
    });
  });
}

export default definePlugin<ShellConfig>({
  setup(ctx) {
    const cfg = ctx.config;
    ctx.registerSkill({
      name: 'shell',
      description: `Run one allow-listed program (no shell: pipes, redirects and globs are not interpreted) in the workspace. Allowed: ${cfg.allow.join(', ') || 'none'}.`,
      capabilities: ['shell_exec'],
      inputSchema: {
        type: 'object',
        required: ['program'],
        additionalProperties: false,
        properties: {
          program: { type: 'string', minLength: 1, maxLength: 128, description: 'Program name from the allow-list' },
          args: { type: 'array', items: { type: 'string', maxLength: 4096 }, maxItems: cfg.max_args, default: [] },
        },
      },
      async call(input, sc): Promise<SkillResult> {
        const program = String(input.program);
        if (!/^[A-Za-z0-9._+-]+$/.test(program)) return { ok: false, output: null, error: `program_not_allowed: give a bare program name, not a path ("${program}")` };
        if (!cfg.allow.includes(program)) return { ok: false, output: null, error: `program_not_allowed: "${program}" is not in the allow-list (${cfg.allow.join(', ') || 'empty'})` };
        return runProgram(program, (input.args as string[]) ?? [], { cwd: sc.workspace, timeoutMs: cfg.timeout_ms, maxBytes: cfg.max_output_bytes, signal: sc.signal });
      },
    });
  },
});
