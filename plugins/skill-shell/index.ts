// The `shell` skill: runs one program from the configured allow-list with arguments passed
// directly to it (spawn without a shell), in the workspace folder, with a time limit and an
// output cap. Since nothing is interpreted by a shell, metacharacters in arguments (; | && $())
// are plain text to the program — there is no injection to detect here; the shell_injection
// guardrail still sees the arguments. Programs are bare names looked up on PATH: a path such as
// /bin/sh or ./x is refused, so the allow-list cannot be side-stepped. Disabled by default: the
// default permission set does not grant shell_exec.
//
// The allow-list decides which program; the sandbox (sandbox.ts) decides what it can reach:
// bubblewrap where it starts (namespaces, read-only system, the workspace as the only user
// data, no server environment), else a strict argument check. Readiness (`shell_sandbox`) says
// which one is active.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { definePlugin, type SkillResult } from '../../kernel/index.ts';
import type { ReadinessCheck, ReadinessRegistry } from '../../lib/gateway/contracts.ts';
import { protectedPaths } from '../../lib/gateway/agent/workspace-path.ts';
import { collectOutput } from '../../lib/gateway/agent/child-output.ts';
import { bwrapArgs, checkFallbackArgs, prepareSandbox, SANDBOX_PATH, type SandboxMode } from './sandbox.ts';

interface ShellConfig extends Record<string, unknown> {
  allow: string[];
  timeout_ms: number;
  max_output_bytes: number;
  max_args: number;
  sandbox: 'auto' | 'bwrap' | 'fallback';
}

export function runProgram(
  program: string,
  args: string[],
  opts: {
    cwd: string;
    timeoutMs: number;
    maxBytes: number;
    signal: AbortSignal;
    sandbox?: { mode: SandboxMode; command: string; argv: string[]; home: string };
  },
): Promise<SkillResult> {
  return new Promise((resolve) => {
    const sb = opts.sandbox;
    const child = spawn(sb?.mode === 'bwrap' ? sb.command : program, sb?.mode === 'bwrap' ? sb.argv : args, {
      cwd: opts.cwd,
      shell: false,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Nothing from the server's environment (provider keys live there).
      env: { PATH: SANDBOX_PATH, LANG: 'C.UTF-8', HOME: sb?.home ?? opts.cwd },
      signal: opts.signal,
      killSignal: 'SIGKILL',
    });
    const o = collectOutput(child, opts.maxBytes, opts.timeoutMs);
    const started = Date.now();
    child.on('error', (e: NodeJS.ErrnoException) => {
      o.done();
      if (e.name === 'AbortError') resolve({ ok: false, output: null, error: 'aborted' });
      else if (e.code === 'ENOENT')
        resolve({ ok: false, output: null, error: `program_not_found: "${program}" is allowed but not installed on this host` });
      else resolve({ ok: false, output: null, error: `could not start ${program}: ${e.message}` });
    });
    child.on('close', (code, sig) => {
      o.done();
      const elapsed = Date.now() - started;
      const output = {
        program,
        args,
        exit_code: code,
        signal: sig,
        stdout: o.stdout(),
        stderr: o.stderr(),
        truncated: o.truncated,
        duration_ms: elapsed,
        ...(sb ? { sandbox: sb.mode } : {}),
      };
      if (o.timedOut) resolve({ ok: false, output, error: `timeout: ${program} ran longer than ${opts.timeoutMs} ms and was killed` });
      else resolve({ ok: true, output });
    });
  });
}

export default definePlugin<ShellConfig>({
  setup(ctx) {
    const cfg = ctx.config;
    const sandbox = prepareSandbox(cfg.sandbox);
    ctx.onClose(() => fs.rmSync(sandbox.etc, { recursive: true, force: true }));
    const protect = protectedPaths(ctx.services.settings);
    if (sandbox.mode !== 'bwrap')
      ctx.log.warn(
        { problem: sandbox.problem },
        sandbox.mode
          ? 'shell skill: bubblewrap is not used, programs run with the argument-checking fallback'
          : 'shell skill: bubblewrap is required but cannot start; shell calls are refused',
      );
    ctx.services.get<ReadinessRegistry>('readiness')?.register((): ReadinessCheck[] => [
      {
        id: 'shell_sandbox',
        category: 'security',
        title: 'Shell skill sandbox',
        status: sandbox.mode === 'bwrap' ? 'active' : sandbox.mode === 'fallback' ? 'available' : 'attention',
        detail:
          sandbox.mode === 'bwrap'
            ? `bubblewrap (${sandbox.bwrap}): programs run in new mount, pid, network, ipc and uts namespaces with read-only system folders, a private /proc and /tmp, no capabilities, a clean environment and the workspace as the only user data`
            : sandbox.mode === 'fallback'
              ? `fallback (argument confinement, clean environment; no namespaces): ${sandbox.problem}`
              : `none: bubblewrap is required (plugins.skill-shell.sandbox: bwrap) but ${sandbox.problem}; shell calls are refused`,
        next_action:
          sandbox.mode === 'bwrap'
            ? undefined
            : 'Install bubblewrap (apt-get install bubblewrap) so the shell skill runs in a namespace sandbox.',
      },
    ]);
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
        if (!/^[A-Za-z0-9._+-]+$/.test(program))
          return { ok: false, output: null, error: `program_not_allowed: give a bare program name, not a path ("${program}")` };
        if (!cfg.allow.includes(program))
          return {
            ok: false,
            output: null,
            error: `program_not_allowed: "${program}" is not in the allow-list (${cfg.allow.join(', ') || 'empty'})`,
          };
        const args = (input.args as string[]) ?? [];
        if (args.some((a) => a.includes('\0')))
          return { ok: false, output: null, error: 'invalid_argument: arguments must not contain NUL bytes' };
        let ws: string;
        try {
          ws = fs.realpathSync(sc.workspace);
        } catch {
          return { ok: false, output: null, error: `workspace_missing: the workspace ${sc.workspace} does not exist` };
        }
        const base = { cwd: ws, timeoutMs: cfg.timeout_ms, maxBytes: cfg.max_output_bytes, signal: sc.signal };
        if (sandbox.mode === 'bwrap') {
          // bwrap would only say "execvp: No such file" with exit 1; name the problem like the fallback does.
          if (!SANDBOX_PATH.split(':').some((d) => fs.existsSync(`${d}/${program}`)))
            return { ok: false, output: null, error: `program_not_found: "${program}" is allowed but not installed on this host` };
          return runProgram(program, args, {
            ...base,
            sandbox: { mode: 'bwrap', command: sandbox.bwrap!, argv: bwrapArgs(sandbox, ws, protect, program, args), home: sandbox.empty },
          });
        }
        if (sandbox.mode === null)
          return {
            ok: false,
            output: null,
            error: `sandbox_unavailable: bubblewrap is required for the shell skill but ${sandbox.problem}`,
          };
        const refused = checkFallbackArgs(ws, protect, program, args);
        if (refused) return { ok: false, output: null, error: refused };
        return runProgram(program, args, { ...base, sandbox: { mode: 'fallback', command: program, argv: args, home: sandbox.empty } });
      },
    });
  },
});
