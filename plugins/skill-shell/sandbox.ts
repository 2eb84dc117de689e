// Where the shell skill's programs run. Preferred: bubblewrap (`bwrap`), probed once at start-up.
// The program then sees a private root: read-only /usr (and the /bin, /lib* links or folders), a
// handful of /etc files (the dynamic linker's cache, the time zone, Debian's alternatives, and a
// one-line passwd/group naming the sandbox user — never the host's accounts), a fresh /proc of
// its own pid namespace (the server's /proc/<pid>/environ does not exist there), a minimal /dev,
// an empty /tmp, no network, no capabilities, a clean environment, and the workspace as the only
// user data — writable, except its .git folder (read-only, so no hook or config planted from the
// shell runs later in someone's git) and the server's data dir and config file (hidden when they
// lie inside the workspace).
//
// Where bwrap cannot start, the fallback is argument confinement: every argument that names a
// path must resolve (symlinks followed) inside the workspace and outside /proc, /sys, /dev and
// the server's files; programs that start other programs are refused; the workspace must not
// contain the data dir or config (a recursive grep would walk into them); the environment is
// clean. It cannot stop a program from following a symlink it finds while walking a tree.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export type SandboxMode = 'bwrap' | 'fallback';

export interface SandboxState {
  /** What the operator asked for (plugins.skill-shell.sandbox). */
  wanted: 'auto' | 'bwrap' | 'fallback';
  /** What runs the programs; null when bwrap is required but cannot start (calls are refused). */
  mode: SandboxMode | null;
  /** Why bwrap is not used, when it is not. */
  problem: string | null;
  bwrap: string | null;
  /** Folder with the sandbox's passwd/group and an empty folder used to hide paths. */
  etc: string;
  empty: string;
}

export const SANDBOX_PATH = '/usr/local/bin:/usr/bin:/bin';

/** Programs that can start other programs from their arguments or files (git aliases and -c,
 *  find -exec, xargs, env, awk system(), sed e, tar --to-command, interpreters). Without a real
 *  sandbox an allow-list entry for one of these would be a way out, so the fallback refuses them. */
export const STARTS_PROGRAMS = new Set([
  'git',
  'find',
  'xargs',
  'env',
  'nice',
  'nohup',
  'timeout',
  'stdbuf',
  'setsid',
  'chroot',
  'flock',
  'watch',
  'time',
  'strace',
  'ltrace',
  'awk',
  'gawk',
  'mawk',
  'nawk',
  'sed',
  'perl',
  'python',
  'python3',
  'ruby',
  'node',
  'nodejs',
  'deno',
  'bun',
  'php',
  'lua',
  'tclsh',
  'expect',
  'sh',
  'bash',
  'dash',
  'zsh',
  'ksh',
  'csh',
  'tcsh',
  'fish',
  'busybox',
  'make',
  'cmake',
  'npm',
  'npx',
  'yarn',
  'pnpm',
  'pip',
  'cargo',
  'go',
  'tar',
  'zip',
  'unzip',
  'rsync',
  'ssh',
  'scp',
  'sftp',
  'curl',
  'wget',
  'vim',
  'vi',
  'nvim',
  'emacs',
  'less',
  'more',
  'man',
  'ed',
  'ex',
  'gdb',
  'sudo',
  'su',
  'doas',
  'crontab',
  'at',
  'systemd-run',
  'docker',
  'podman',
  'kubectl',
  'forge',
  'cast',
  'anvil',
  'hardhat',
  'solc',
]);

function mountsForRoot(): string[] {
  const args: string[] = ['--ro-bind', '/usr', '/usr'];
  for (const d of ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32']) {
    const st = fs.lstatSync(d, { throwIfNoEntry: false });
    if (!st) continue;
    if (st.isSymbolicLink()) args.push('--symlink', fs.readlinkSync(d), d);
    else if (st.isDirectory()) args.push('--ro-bind', d, d);
  }
  return args;
}

/** The bwrap command line for one program run in `workspace` (a real path). */
export function bwrapArgs(s: SandboxState, workspace: string, protect: string[], program: string, args: string[]): string[] {
  const out = [
    '--unshare-all',
    '--die-with-parent',
    '--new-session',
    '--cap-drop',
    'ALL',
    '--hostname',
    'vigil-sandbox',
    ...mountsForRoot(),
    '--dir',
    '/etc',
    '--ro-bind',
    path.join(s.etc, 'passwd'),
    '/etc/passwd',
    '--ro-bind',
    path.join(s.etc, 'group'),
    '/etc/group',
  ];
  for (const f of ['/etc/ld.so.cache', '/etc/localtime', '/etc/alternatives']) if (fs.existsSync(f)) out.push('--ro-bind', f, f);
  out.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp', '--bind', workspace, workspace);
  const git = path.join(workspace, '.git');
  if (fs.existsSync(git)) out.push('--ro-bind', git, git);
  for (const p of protect) {
    if (p !== workspace && insideDir(workspace, p) && fs.existsSync(p))
      out.push('--ro-bind', fs.statSync(p).isDirectory() ? s.empty : '/dev/null', p);
  }
  out.push(
    '--chdir',
    workspace,
    '--clearenv',
    '--setenv',
    'PATH',
    SANDBOX_PATH,
    '--setenv',
    'LANG',
    'C.UTF-8',
    '--setenv',
    'HOME',
    '/tmp',
    '--setenv',
    'TMPDIR',
    '/tmp',
  );
  out.push('--', program, ...args);
  return out;
}

export function insideDir(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function findOnPath(name: string): string | null {
  for (const dir of SANDBOX_PATH.split(':')) {
    const p = path.join(dir, name);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return p;
    } catch {
      /* next */
    }
  }
  return null;
}

/** Prepares the sandbox and, unless the fallback was asked for, checks once that bwrap really
 *  starts a program with these options here (it needs user namespaces or root). `bwrapPath`
 *  defaults to bwrap on the sandbox PATH (tests pass another binary to see a failing probe). */
export function prepareSandbox(wanted: SandboxState['wanted'], bwrapPath: string | null = findOnPath('bwrap')): SandboxState {
  const etc = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-sandbox-'));
  const empty = path.join(etc, 'empty');
  fs.mkdirSync(empty, { mode: 0o555 });
  const uid = process.getuid?.() ?? 0;
  const gid = process.getgid?.() ?? 0;
  fs.writeFileSync(path.join(etc, 'passwd'), `sandbox:x:${uid}:${gid}:vigil sandbox:/tmp:/usr/sbin/nologin\n`, { mode: 0o444 });
  fs.writeFileSync(path.join(etc, 'group'), `sandbox:x:${gid}:\n`, { mode: 0o444 });
  const s: SandboxState = { wanted, mode: null, problem: null, bwrap: null, etc, empty };
  if (wanted === 'fallback') {
    s.mode = 'fallback';
    s.problem = 'the fallback was chosen in the config (plugins.skill-shell.sandbox: fallback)';
    return s;
  }
  const bwrap = bwrapPath;
  if (!bwrap) s.problem = 'bwrap (bubblewrap) is not installed';
  else {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-sandbox-probe-'));
    try {
      const r = spawnSync(bwrap, bwrapArgs({ ...s, bwrap }, fs.realpathSync(ws), [], 'true', []), {
        env: { PATH: SANDBOX_PATH },
        timeout: 10000,
        encoding: 'utf8',
      });
      if (r.status === 0) s.bwrap = bwrap;
      else s.problem = `bwrap cannot start a sandbox here: ${(r.stderr || r.error?.message || `exit ${r.status}`).trim().split('\n')[0]}`;
    } finally {
      fs.rmSync(ws, { recursive: true, force: true });
    }
  }
  s.mode = s.bwrap ? 'bwrap' : wanted === 'bwrap' ? null : 'fallback';
  return s;
}

const SYSTEM = ['/proc', '/sys', '/dev'];

/** The fallback's argument check: null when every path-like argument stays inside the
 *  workspace and off the protected paths, else the reason. */
export function checkFallbackArgs(workspace: string, protect: string[], program: string, args: string[]): string | null {
  if (STARTS_PROGRAMS.has(program))
    return `program_needs_sandbox: "${program}" can start other programs, so it runs only inside bubblewrap, which is not available here`;
  const hidden = protect.filter((p) => insideDir(workspace, p) || insideDir(p, workspace));
  if (hidden.length)
    return `sandbox_unavailable: the server's data dir or config (${hidden.join(', ')}) lies inside the workspace; without bubblewrap the shell skill cannot hide it. Move it out (--data-dir) or install bubblewrap`;
  for (const a of args) {
    const candidates = [a];
    if (a.startsWith('--') && a.includes('=')) candidates.push(a.slice(a.indexOf('=') + 1));
    else if (/^-[^-]./.test(a)) candidates.push(a.slice(2));
    for (const c of candidates) {
      if (!c) continue;
      const abs = path.resolve(workspace, c);
      // Anything with a slash, a dot-name, or a name that exists is treated as a path.
      const pathLike = c.includes('/') || c.startsWith('.') || c.startsWith('~') || fs.existsSync(abs);
      if (!pathLike) continue;
      const refuse = (why: string) =>
        `argument_outside_workspace: "${a}" ${why}; without bubblewrap only paths inside the workspace are allowed`;
      if (!insideDir(workspace, abs)) return refuse('names a path outside the workspace');
      let probe = abs;
      let real: string | null = null;
      while (real === null) {
        try {
          real = fs.realpathSync(probe);
        } catch {
          const up = path.dirname(probe);
          if (up === probe) break;
          probe = up;
        }
      }
      if (!real || !insideDir(workspace, real)) return refuse('leads outside the workspace through a symlink');
      if (SYSTEM.some((d) => insideDir(d, real))) return refuse('names a system folder');
      if (protect.some((p) => insideDir(p, real))) return refuse("names the server's data or config");
    }
  }
  return null;
}
