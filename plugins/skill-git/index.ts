// The `git` skill: status, log, diff and show on the workspace repository, read-only. Arguments
// never reach git as options: refs are checked against git's ref syntax and may not start with
// "-", paths go after "--".
//
// Reading a hostile repository must not run anything. Git runs programs named by its config
// (filters, diff drivers, hooks, fsmonitor, pager, editor, credential helpers, ssh, gpg, remote
// helpers), so the skill (safe-git.ts):
// - gives git a clean environment with no system or global config (GIT_CONFIG_NOSYSTEM,
//   GIT_CONFIG_GLOBAL=/dev/null, an empty HOME), no transport protocol (GIT_ALLOW_PROTOCOL),
//   no optional index writes (GIT_OPTIONAL_LOCKS=0), and the workspace's own .git named
//   explicitly with GIT_CEILING_DIRECTORIES above it, so a workspace nested in another
//   repository never reaches the parent;
// - overrides every executable key it can with a fixed safe value (command-line scope wins over
//   the repository's), and every filter driver the repository defines by name;
// - refuses a repository whose config includes other files (their content could change between
//   the check and the run).
// `test/security/sandbox-git.test.ts` proves each key against a control run of plain git.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { definePlugin, type SkillResult } from '../../kernel/index.ts';
import { runGit, type GitConfig } from './safe-git.ts';

const REF = /^(?!-)[A-Za-z0-9._/~^@{}:-]{1,200}$/;

export default definePlugin<GitConfig>({
  setup(ctx) {
    const cfg = ctx.config;
    // An empty folder for HOME and core.hooksPath: nothing git could pick up from it.
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-git-empty-'));
    fs.chmodSync(empty, 0o555);
    ctx.onClose(() => fs.rmSync(empty, { recursive: true, force: true }));
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
        // eslint-disable-next-line @typescript-eslint/no-base-to-string -- input is schema-validated (path: string)
        const pathArgs = input.path ? ['--', String(input.path)] : [];
        let args: string[];
        switch (input.op) {
          case 'status':
            args = ['status', '--porcelain=v1', '--branch', '--ignore-submodules=all'];
            break;
          case 'log':
            args = [
              'log',
              '--no-show-signature',
              `--max-count=${(input.limit as number | undefined) ?? 10}`,
              '--date=iso-strict',
              '--pretty=format:%H%x09%an%x09%ad%x09%s',
              ...pathArgs,
            ];
            break;
          case 'diff':
            args = [
              'diff',
              '--no-ext-diff',
              '--no-textconv',
              '--ignore-submodules=all',
              '--stat',
              '--patch',
              ...(input.staged ? ['--cached'] : []),
              ...(ref ? [ref] : []),
              ...pathArgs,
            ];
            break;
          default:
            args = [
              'show',
              '--no-show-signature',
              '--no-ext-diff',
              '--no-textconv',
              '--ignore-submodules=all',
              '--stat',
              '--patch',
              ref ?? 'HEAD',
            ];
        }
        const r = await runGit(args, { workspace: sc.workspace, empty, cfg, signal: sc.signal });
        if ('error' in r) return { ok: false, output: null, error: r.error };
        if (r.timedOut)
          return { ok: false, output: null, error: `timeout: git ${input.op as string} took longer than ${cfg.timeout_ms} ms` };
        if (r.code !== 0 && !r.truncated) {
          const msg = r.stderr.trim().split('\n')[0] ?? '';
          return {
            ok: false,
            output: null,
            error: /not a git repository/i.test(msg)
              ? 'not_a_repository: the workspace is not a git repository'
              : `git ${input.op as string} failed: ${msg}`,
          };
        }
        const ignored = r.ignored.length ? { ignored_config: r.ignored } : {};
        if (input.op === 'log') {
          const commits = r.stdout
            .split('\n')
            .filter(Boolean)
            .map((l) => {
              const [hash, author, date, ...subject] = l.split('\t');
              return { hash, author, date, subject: subject.join('\t') };
            });
          return { ok: true, output: { commits, truncated: r.truncated, ...ignored } };
        }
        if (input.op === 'status') {
          const lines = r.stdout.split('\n').filter(Boolean);
          const branch = lines[0]?.startsWith('## ') ? lines.shift()!.slice(3) : null;
          return {
            ok: true,
            output: {
              branch,
              changes: lines.map((l) => ({ status: l.slice(0, 2), path: l.slice(3) })),
              clean: lines.length === 0,
              ...ignored,
            },
          };
        }
        return { ok: true, output: { text: r.stdout, truncated: r.truncated, ...ignored } };
      },
    });
  },
});
