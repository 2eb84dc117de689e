// Runs git on the workspace repository so that nothing in the repository (its config, hooks,
// attributes) or in the server's environment can make git start another program.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { collectOutput } from '../../lib/gateway/agent/child-output.ts';

export interface GitConfig extends Record<string, unknown> {
  timeout_ms: number;
  max_output_bytes: number;
}

const SAFE_PATH = '/usr/local/bin:/usr/bin:/bin';

/** Config keys that name a program git may run, and how each is made harmless. `static`: a
 *  command-line value that always wins over the repository's, applied on every run. `flag`: the
 *  skill's fixed arguments or environment already stop git from using the key for the four
 *  operations it runs. `per-name`: a driver defined by name; each name found is overridden.
 *  `refuse`: cannot be neutralised, the skill does not run. Used by the docs and the tests. */
export const EXECUTABLE_KEYS: Array<{ pattern: RegExp; how: 'static' | 'flag' | 'per-name' | 'refuse'; why: string }> = [
  { pattern: /^core\.pager$/, how: 'static', why: 'core.pager=cat and --no-pager' },
  { pattern: /^pager\..+$/, how: 'flag', why: '--no-pager wins over pager.<cmd>' },
  { pattern: /^core\.editor$/, how: 'static', why: 'core.editor=: (git skips the editor); no operation edits' },
  { pattern: /^sequence\.editor$/, how: 'static', why: 'sequence.editor=:' },
  { pattern: /^core\.askpass$/, how: 'static', why: 'core.askPass= (empty), no GIT_ASKPASS/SSH_ASKPASS, GIT_TERMINAL_PROMPT=0' },
  { pattern: /^credential\.(.+\.)?helper$/, how: 'static', why: 'credential.helper= (empty resets the helper list); no transport runs' },
  { pattern: /^core\.fsmonitor$/, how: 'static', why: 'core.fsmonitor=false' },
  { pattern: /^core\.hookspath$/, how: 'static', why: 'core.hooksPath=<an empty read-only folder>, so .git/hooks is never used' },
  { pattern: /^diff\.external$/, how: 'static', why: 'diff.external= (empty) and --no-ext-diff' },
  { pattern: /^diff\..+\.command$/, how: 'flag', why: '--no-ext-diff on diff and show' },
  { pattern: /^diff\..+\.textconv$/, how: 'flag', why: '--no-textconv on diff and show; status and log do not convert' },
  {
    pattern: /^filter\..+\.(clean|smudge|process|required)$/,
    how: 'per-name',
    why: 'filter.<name>.clean/smudge/process= (empty) and .required=false for every filter the config defines',
  },
  {
    pattern: /^log\.showsignature$/,
    how: 'static',
    why: 'log.showSignature=false and --no-show-signature, so gpg.program is never started',
  },
  { pattern: /^gpg\.(.+\.)?program$/, how: 'flag', why: 'signatures are never verified (log.showSignature=false)' },
  { pattern: /^gpg\.ssh\.defaultkeycommand$/, how: 'flag', why: 'used only for signing, which no operation does' },
  { pattern: /^status\.submodulesummary$/, how: 'static', why: 'status.submoduleSummary=false and --ignore-submodules=all' },
  { pattern: /^submodule\.recurse$/, how: 'static', why: 'submodule.recurse=false' },
  { pattern: /^protocol\.(.+\.)?allow$/, how: 'flag', why: 'GIT_ALLOW_PROTOCOL allows no transport, whatever the config says' },
  { pattern: /^core\.(sshcommand|gitproxy)$/, how: 'flag', why: 'no transport is allowed (GIT_ALLOW_PROTOCOL), no GIT_SSH*' },
  { pattern: /^remote\..+\.(uploadpack|receivepack|vcs)$/, how: 'flag', why: 'no transport is allowed (GIT_ALLOW_PROTOCOL)' },
  { pattern: /^uploadpack\.packobjectshook$/, how: 'flag', why: 'upload-pack never runs' },
  { pattern: /^core\.alternaterefscommand$/, how: 'static', why: 'core.alternateRefsCommand= (empty); no transport runs' },
  { pattern: /^merge\..+\.driver$/, how: 'flag', why: 'no operation merges' },
  { pattern: /^(mergetool|difftool)\..+\.(cmd|path)$/, how: 'flag', why: 'difftool/mergetool are never run' },
  { pattern: /^alias\..+$/, how: 'flag', why: 'built-in commands win over aliases; only status/log/diff/show run' },
  { pattern: /^submodule\..+\.update$/, how: 'flag', why: 'submodules are never updated' },
  { pattern: /^core\.worktree$/, how: 'flag', why: 'GIT_WORK_TREE names the workspace and wins over core.worktree' },
  { pattern: /^(include|includeif\..+)\.path$/, how: 'refuse', why: 'included files could change between the check and the run' },
];

/** Always applied, through GIT_CONFIG_COUNT/KEY/VALUE (no quoting or `=` parsing involved). */
function staticOverrides(empty: string): Array<[string, string]> {
  return [
    ['core.pager', 'cat'],
    ['core.editor', ':'],
    ['sequence.editor', ':'],
    ['core.askPass', ''],
    ['credential.helper', ''],
    ['core.fsmonitor', 'false'],
    ['core.hooksPath', empty],
    ['diff.external', ''],
    ['log.showSignature', 'false'],
    ['status.submoduleSummary', 'false'],
    ['submodule.recurse', 'false'],
    ['core.alternateRefsCommand', ''],
    ['protocol.allow', 'never'],
    ['safe.bareRepository', 'explicit'],
    // Files outside the repository that config could make git read into its answers (author
    // names from a mailmap) or use as an oracle (ignore and attribute rules, diff order).
    ['log.mailmap', 'false'],
    ['mailmap.file', '/dev/null'],
    ['core.excludesFile', '/dev/null'],
    ['core.attributesFile', '/dev/null'],
    ['diff.orderFile', '/dev/null'],
  ];
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  truncated: boolean;
  timedOut: boolean;
}

function spawnGit(args: string[], env: NodeJS.ProcessEnv, cwd: string, cfg: GitConfig, signal: AbortSignal): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['--no-pager', ...args], { cwd, shell: false, signal, stdio: ['ignore', 'pipe', 'pipe'], env });
    const o = collectOutput(child, cfg.max_output_bytes, cfg.timeout_ms);
    child.on('error', (e) => (o.done(), reject(e)));
    child.on('close', (code) => {
      o.done();
      resolve({ code, stdout: o.stdout(), stderr: o.stderr(), truncated: o.truncated, timedOut: o.timedOut });
    });
  });
}

/** The environment git runs with: nothing inherited from the server. */
export function gitEnv(workspace: string, empty: string, overrides: Array<[string, string]>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: SAFE_PATH,
    HOME: empty,
    XDG_CONFIG_HOME: empty,
    LANG: 'C.UTF-8',
    GIT_DIR: path.join(workspace, '.git'),
    GIT_WORK_TREE: workspace,
    // Discovery is off anyway (GIT_DIR is explicit); this also covers git subprocesses.
    GIT_CEILING_DIRECTORIES: path.dirname(workspace),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_ATTR_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_NO_LAZY_FETCH: '1',
    GIT_NO_REPLACE_OBJECTS: '1',
    // A protocol name that does not exist: the allow-list is set and matches no transport.
    GIT_ALLOW_PROTOCOL: 'vigil-no-transport',
    GIT_PROTOCOL_FROM_USER: '0',
    GIT_PAGER: 'cat',
    GIT_EDITOR: ':',
    GIT_CONFIG_COUNT: String(overrides.length),
  };
  overrides.forEach(([k, v], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = k;
    env[`GIT_CONFIG_VALUE_${i}`] = v;
  });
  return env;
}

/** Reads the names of every config key git would see (repository, worktree and included files),
 *  and works out which need a per-name override or make the repository unusable. */
export async function inspectConfig(
  workspace: string,
  empty: string,
  cfg: GitConfig,
  signal: AbortSignal,
): Promise<{ overrides: Array<[string, string]>; ignored: string[]; refused: string[] } | { error: string }> {
  const r = await spawnGit(
    ['config', '--list', '--name-only', '--show-scope', '-z'],
    gitEnv(workspace, empty, staticOverrides(empty)),
    workspace,
    cfg,
    signal,
  );
  if (r.timedOut) return { error: `timeout: reading the repository config took longer than ${cfg.timeout_ms} ms` };
  if (r.code !== 0 || r.truncated) {
    const msg = r.stderr.trim().split('\n')[0] ?? '';
    return {
      error: /not a git repository/i.test(msg) ? 'not_a_repository: the workspace is not a git repository' : `git config failed: ${msg}`,
    };
  }
  const parts = r.stdout.split('\0');
  const overrides: Array<[string, string]> = [];
  const ignored = new Set<string>();
  const refused: string[] = [];
  const filters = new Set<string>();
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const scope = parts[i];
    const name = parts[i + 1];
    if (scope === 'command') continue;
    const lower = name.toLowerCase();
    const rule = EXECUTABLE_KEYS.find((k) => k.pattern.test(lower));
    if (!rule) continue;
    if (rule.how === 'refuse') refused.push(name);
    else ignored.add(name);
    const f = /^filter\.(.+)\.[^.]+$/i.exec(name);
    if (f) filters.add(f[1]);
  }
  for (const n of filters) {
    for (const k of ['clean', 'smudge', 'process']) overrides.push([`filter.${n}.${k}`, '']);
    overrides.push([`filter.${n}.required`, 'false']);
  }
  return { overrides, ignored: [...ignored].sort(), refused };
}

/** A `.git` file is accepted only for a linked worktree that its repository made for this very
 *  workspace: `gitdir: X` with X outside the workspace (nothing a tenant can write) whose own
 *  `gitdir` file points back at this `.git`. A file planted to reach another repository fails
 *  one of the two. */
function isLinkedWorktree(ws: string, dotGit: string): boolean {
  try {
    const m = /^gitdir: (.+)$/m.exec(fs.readFileSync(dotGit, 'utf8'));
    if (!m) return false;
    const target = fs.realpathSync(path.resolve(ws, m[1].trim()));
    const rel = path.relative(ws, target);
    if (!(rel.startsWith('..') || path.isAbsolute(rel))) return false;
    const back = fs.readFileSync(path.join(target, 'gitdir'), 'utf8').trim();
    return fs.realpathSync(path.resolve(target, back)) === fs.realpathSync(dotGit);
  } catch {
    return false;
  }
}

/** A .git folder can still borrow another repository through `commondir` (linked worktrees) or
 *  `objects/info/alternates` (clones made with --shared/--reference). Returns the file that
 *  leads out of the workspace, or null. */
function linksOutside(ws: string, dotGit: string): string | null {
  const read = (p: string) => {
    try {
      return fs.readFileSync(p, 'utf8');
    } catch {
      return null;
    }
  };
  const out = (p: string) => {
    let real: string;
    try {
      real = fs.realpathSync(p);
    } catch {
      real = path.resolve(p);
    }
    const rel = path.relative(ws, real);
    return rel.startsWith('..') || path.isAbsolute(rel);
  };
  let common = dotGit;
  const commondir = read(path.join(dotGit, 'commondir'));
  if (commondir !== null) {
    common = path.resolve(dotGit, commondir.trim());
    if (out(common)) return '.git/commondir';
  }
  const objects = path.join(common, 'objects');
  const alternates = read(path.join(objects, 'info', 'alternates'));
  for (const line of alternates?.split('\n') ?? []) {
    const l = line.trim();
    if (l && !l.startsWith('#') && out(path.resolve(objects, l))) return 'objects/info/alternates';
  }
  return null;
}

export async function runGit(
  args: string[],
  o: { workspace: string; empty: string; cfg: GitConfig; signal: AbortSignal },
): Promise<(Run & { ignored: string[] }) | { error: string }> {
  let ws: string;
  try {
    ws = fs.realpathSync(o.workspace);
  } catch {
    return { error: `not_a_repository: the workspace ${o.workspace} does not exist` };
  }
  // Only the workspace's own repository: no discovery upwards, no bare repository in the tree,
  // and no `.git` file or link that points at some other repository on the host (whoever can
  // write the workspace could otherwise make git read any repository the server can).
  const dotGit = path.join(ws, '.git');
  const st = fs.lstatSync(dotGit, { throwIfNoEntry: false });
  if (!st) return { error: 'not_a_repository: the workspace is not a git repository (it has no .git of its own)' };
  if (!(st.isDirectory() || (st.isFile() && isLinkedWorktree(ws, dotGit)))) {
    return {
      error:
        'unsupported_repository: the workspace .git is a file or link pointing elsewhere (not a linked worktree of the repository it names); the git skill reads only a repository whose .git folder lies in the workspace, or a worktree made by `git worktree add`',
    };
  }
  const outside = st.isDirectory() ? linksOutside(ws, dotGit) : null;
  if (outside)
    return {
      error: `unsupported_repository: the repository's ${outside} points outside the workspace; the git skill reads only objects and refs that lie in the workspace`,
    };
  try {
    const c = await inspectConfig(ws, o.empty, o.cfg, o.signal);
    if ('error' in c) return c;
    if (c.refused.length) {
      return {
        error: `unsafe_repository_config: the repository config includes other files (${c.refused.join(', ')}); the git skill does not run on it. Remove the include (git config --unset ${c.refused[0]}) to use it.`,
      };
    }
    const r = await spawnGit(args, gitEnv(ws, o.empty, [...staticOverrides(o.empty), ...c.overrides]), ws, o.cfg, o.signal);
    return { ...r, ignored: c.ignored };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { error: code === 'ENOENT' ? 'git_not_installed: git is not on PATH' : `git failed to start: ${(e as Error).message}` };
  }
}
