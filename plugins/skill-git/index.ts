// The `git` skill: status, log, diff and show on the workspace repository, read-only. Arguments
// never reach git as options: refs are checked against git's ref syntax and may not start with
// "-", paths go after "--". Repository config that could run programs (pager, external diff,
// textconv, fsmonitor) is overridden on the command line, so reading a hostile repository cannot
// execute anything.
import { spawn } from 'node:child_process';
import { definePlugin, type SkillResult } from '../../kernel/index.ts';

interface GitConfig extends Record<string, unknown> {
  timeout_ms: number;
  max_output_bytes: number;
}

const SAFE = ['-c', 'core.pager=cat', '-c', 'core.fsmonitor=false', '-c', 'diff.external=', '-c', 'core.hooksPath=/dev/null', '--no-pager'];
const REF = /^(?!-)[A-Za-z0-9._\/~^@{}:-]{1,200}$/;

function git(args: string[], cwd: string, cfg: GitConfig, signal: AbortSignal): Promise<{ code: number | null; stdout: string; stderr: string; truncated: boolean; timedOut: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...SAFE, ...args], {
      cwd,
      shell: false,
      signal,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', HOME: cwd, LANG: 'C.UTF-8' },
    });
    let size = 0;
    let truncated = false;
    let timedOut = false;
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => ((timedOut = true), child.kill('SIGKILL')), cfg.timeout_ms);
    const take = (into: Buffer[]) => (b: Buffer) => {
      if (truncated) return;
      const room = cfg.max_output_bytes - size;
      if (b.length > room) {
        into.push(b.subarray(0, room));
        truncated = true;
        child.kill('SIGKILL');
        size = cfg.max_output_bytes;
      } else {
        into.push(b);
        size += b.length;
      }
    };
    child.stdout!.on('data', take(out));
    child.stderr!.on('data', take(err));
    child.on('error', (e) => (clearTimeout(timer), reject(e)));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), truncated, timedOut });
    });
  });
}

export default definePlugin<GitConfig>({
  setup(ctx) {
    const cfg = ctx.config;
    ctx.registerSkill({
      name: 'git',
      description: 'Read the workspace git repository: op "status", "log" (limit), "diff" (staged, ref, path) or "show" (ref). Read-only.',
      capabilities: ['git_read'],
      inputSchema: {
        type: 'object',
        required: ['op'],
        additionalProperties: false,
        properties: {
          op: { enum: ['status', 'log', 'diff', 'show'] },
          limit: { type: 'integer', minimum: 1, maximum: 200, default: 10, description: 'log: number of commits' },
          ref: { type: 'string', maxLength: 200, description: 'diff: compare against this ref; show: the commit (default HEAD)' },
          path: { type: 'string', maxLength: 4096, description: 'diff/log: limit to this path' },
          staged: { type: 'boolean', default: false, description: 'diff: staged changes' },
        },
      },
      async call(input, sc): Promise<SkillResult> {
        const ref = input.ref as string | undefined;
        if (ref !== undefined && !REF.test(ref)) return { ok: false, output: null, error: `invalid_ref: "${ref}" is not a valid git ref` };
        const pathArgs = input.path ? ['--', String(input.path)] : [];
        let args: string[];
        switch (input.op) {
          case 'status':
            args = ['status', '--porcelain=v1', '--branch'];
            break;
          case 'log':
            args = ['log', `--max-count=${input.limit ?? 10}`, '--date=iso-strict', '--pretty=format:%H%x09%an%x09%ad%x09%s', ...pathArgs];
            break;
          case 'diff':
            args = ['diff', '--no-ext-diff', '--no-textconv', '--stat', '--patch', ...(input.staged ? ['--cached'] : []), ...(ref ? [ref] : []), ...pathArgs];
            break;
          default:
            args = ['show', '--no-ext-diff', '--no-textconv', '--stat', '--patch', ref ?? 'HEAD'];
        }
        let r;
        try {
          r = await git(args, sc.workspace, cfg, sc.signal);
        } catch (e) {
          const code = (e as NodeJS.ErrnoException).code;
          return { ok: false, output: null, error: code === 'ENOENT' ? 'git_not_installed: git is not on PATH' : `git failed to start: ${(e as Error).message}` };
        }
        if (r.timedOut) return { ok: false, output: null, error: `timeout: git ${input.op} took longer than ${cfg.timeout_ms} ms` };
        if (r.code !== 0 && !r.truncated) {
          const msg = r.stderr.trim().split('\n')[0] ?? '';
          return { ok: false, output: null, error: /not a git repository/i.test(msg) ? 'not_a_repository: the workspace is not a git repository' : `git ${input.op} failed: ${msg}` };
        }
        if (input.op === 'log') {
          const commits = r.stdout.split('\n').filter(Boolean).map((l) => {
            const [hash, author, date, ...subject] = l.split('\t');
            return { hash, author, date, subject: subject.join('\t') };
          });
          return { ok: true, output: { commits, truncated: r.truncated } };
        }
        if (input.op === 'status') {
          const lines = r.stdout.split('\n').filter(Boolean);
          const branch = lines[0]?.startsWith('## ') ? lines.shift()!.slice(3) : null;
          return { ok: true, output: { branch, changes: lines.map((l) => ({ status: l.slice(0, 2), path: l.slice(3) })), clean: lines.length === 0 } };
        }
        return { ok: true, output: { text: r.stdout, truncated: r.truncated } };
      },
    });
  },
});
