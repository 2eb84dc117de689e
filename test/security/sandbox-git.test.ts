// The git skill on a hostile repository: every config key that names a program, set to a
// command that leaves a marker file. Each row first runs the skill's four operations (the marker
// must not appear and the operation must still answer), then the same trigger with plain git
// (the marker must appear) — so a row cannot pass because the trigger was never reached.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bootGateway, tmpDir } from '../gateway/helpers.ts';
import { EXECUTABLE_KEYS } from '../../plugins/skill-git/safe-git.ts';

let g: Awaited<ReturnType<typeof bootGateway>>;
before(async () => {
  g = await bootGateway({ only: ['skill-git'] });
});
after(() => g.close());

const ID = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@x', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@x' };
// Plain git as an operator would run it, minus the developer's own global config.
const plainEnv = (home: string) => ({
  PATH: process.env.PATH!,
  HOME: home,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  ...ID,
});
const plain = (ws: string, args: string[]) => spawnSync('git', args, { cwd: ws, env: plainEnv(ws), encoding: 'utf8', timeout: 20000 });
const gitIn = (ws: string, ...args: string[]) => execFileSync('git', args, { cwd: ws, env: plainEnv(ws), encoding: 'utf8' });

function repo(): { ws: string; marker: string } {
  const ws = tmpDir('vigil-git-hostile-');
  // The "program" every row names: a script that leaves the marker (git runs some keys through
  // a shell and others directly, so a path to an executable works for all).
  const bin = tmpDir('vigil-git-prog-');
  fs.writeFileSync(path.join(bin, 'pwn'), `#!/bin/sh\ntouch ${path.join(ws, 'MARKER')}\n`, { mode: 0o755 });
  PROG.set(path.join(ws, 'MARKER'), path.join(bin, 'pwn'));
  gitIn(ws, 'init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(ws, 'readme.txt'), 'hello\n');
  gitIn(ws, 'add', 'readme.txt');
  gitIn(ws, 'commit', '-q', '-m', 'first');
  return { ws, marker: path.join(ws, 'MARKER') };
}
const addConfig = (ws: string, text: string) => fs.appendFileSync(path.join(ws, '.git/config'), text);
// A worktree change whose stat differs from the index, so status and diff must look at content.
const touchWorktree = (ws: string) => {
  fs.appendFileSync(path.join(ws, 'readme.txt'), 'changed\n');
  const t = new Date(Date.now() + 5000);
  fs.utimesSync(path.join(ws, 'readme.txt'), t, t);
};
// Only the stat changes: status must re-read the file, finds it unchanged and rewrites the index
// with the new stat — which is when git runs the post-index-change hook.
const touchStat = (ws: string) => {
  const t = new Date(Date.now() + 5000);
  fs.utimesSync(path.join(ws, 'readme.txt'), t, t);
};
const attrs = (ws: string, line: string) => {
  fs.writeFileSync(path.join(ws, '.gitattributes'), line + '\n');
};
function signHead(ws: string) {
  // A commit carrying a (bogus) gpgsig header: enough for git to start gpg.program to verify it.
  const body = gitIn(ws, 'cat-file', 'commit', 'HEAD');
  const [head, ...rest] = body.split('\n\n');
  const signed = `${head}\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n AAAA\n -----END PGP SIGNATURE-----\n\n${rest.join('\n\n')}`;
  const id = execFileSync('git', ['hash-object', '-t', 'commit', '-w', '--stdin'], {
    cwd: ws,
    env: plainEnv(ws),
    input: signed,
    encoding: 'utf8',
  }).trim();
  gitIn(ws, 'update-ref', 'HEAD', id);
}
function promisorWithMissingBlob(ws: string, url: string, extra: string) {
  // HEAD's tree names a blob the object store lacks: showing it makes git fetch it lazily from
  // the promisor remote, through whatever transport the remote URL names.
  const tree = execFileSync('git', ['mktree', '--missing'], {
    cwd: ws,
    env: plainEnv(ws),
    input: `100644 blob ${'1'.repeat(40)}\tlazy.txt\n`,
    encoding: 'utf8',
  }).trim();
  const c = execFileSync('git', ['commit-tree', tree, '-p', 'HEAD', '-m', 'lazy'], { cwd: ws, env: plainEnv(ws), encoding: 'utf8' }).trim();
  gitIn(ws, 'update-ref', 'HEAD', c);
  addConfig(
    ws,
    `[extensions]\n\tpartialClone = origin\n[core]\n\trepositoryformatversion = 1\n[remote "origin"]\n\turl = ${url}\n\tpromisor = true\n${extra}`,
  );
}

interface Row {
  keys: string[];
  setup(ws: string, marker: string): void;
  /** Plain git commands that do run the program (the control). Empty when only a terminal would. */
  control: string[][];
}

const PROG = new Map<string, string>();
const T = (m: string) => PROG.get(m)!;
const ROWS: Row[] = [
  {
    keys: ['filter.<name>.clean'],
    setup: (ws, m) => (attrs(ws, '*.txt filter=pwn'), addConfig(ws, `[filter "pwn"]\n\tclean = ${T(m)}\n`), touchWorktree(ws)),
    control: [['diff']],
  },
  {
    keys: ['filter.<name>.process', 'filter.<name>.required'],
    setup: (ws, m) => (
      attrs(ws, '*.txt filter=pwn'),
      addConfig(ws, `[filter "pwn"]\n\tprocess = ${T(m)}\n\trequired = true\n`),
      touchWorktree(ws)
    ),
    control: [['diff']],
  },
  {
    keys: ['diff.<driver>.textconv'],
    setup: (ws, m) => (attrs(ws, '*.txt diff=pwn'), addConfig(ws, `[diff "pwn"]\n\ttextconv = ${T(m)}\n`), touchWorktree(ws)),
    control: [['diff'], ['show', 'HEAD']],
  },
  {
    keys: ['diff.<driver>.command'],
    setup: (ws, m) => (attrs(ws, '*.txt diff=pwn'), addConfig(ws, `[diff "pwn"]\n\tcommand = ${T(m)}\n`), touchWorktree(ws)),
    control: [['diff']],
  },
  { keys: ['diff.external'], setup: (ws, m) => (addConfig(ws, `[diff]\n\texternal = ${T(m)}\n`), touchWorktree(ws)), control: [['diff']] },
  {
    keys: ['core.fsmonitor'],
    setup: (ws, m) => (addConfig(ws, `[core]\n\tfsmonitor = ${T(m)}\n`), touchWorktree(ws)),
    control: [['status'], ['diff']],
  },
  {
    keys: ['hooks in .git/hooks'],
    setup: (ws, m) => (
      fs.writeFileSync(path.join(ws, '.git/hooks/post-index-change'), `#!/bin/sh\n${T(m)}\n`, { mode: 0o755 }),
      touchStat(ws)
    ),
    control: [['status']],
  },
  {
    keys: ['core.hooksPath'],
    setup: (ws, m) => {
      fs.mkdirSync(path.join(ws, 'hk'));
      fs.writeFileSync(path.join(ws, 'hk/post-index-change'), `#!/bin/sh\n${T(m)}\n`, { mode: 0o755 });
      addConfig(ws, `[core]\n\thooksPath = ${path.join(ws, 'hk')}\n`);
      touchStat(ws);
    },
    control: [['status']],
  },
  {
    keys: ['log.showSignature', 'gpg.program'],
    setup: (ws, m) => (signHead(ws), addConfig(ws, `[log]\n\tshowSignature = true\n[gpg]\n\tprogram = ${T(m)}\n`)),
    control: [['log'], ['show']],
  },
  {
    keys: ['protocol.<name>.allow', 'remote.<name>.url (ext::)'],
    setup: (ws, m) => promisorWithMissingBlob(ws, `ext::${T(m)}`, `[protocol "ext"]\n\tallow = always\n`),
    control: [['show', 'HEAD']],
  },
  {
    keys: ['core.sshCommand'],
    setup: (ws, m) => promisorWithMissingBlob(ws, 'ssh://example.invalid/x.git', `[core]\n\tsshCommand = ${T(m)}\n`),
    control: [['show', 'HEAD']],
  },
  {
    keys: ['remote.<name>.uploadpack'],
    setup: (ws, m) => promisorWithMissingBlob(ws, `file://${ws}`, `\tuploadpack = ${T(m)}\n`),
    control: [['show', 'HEAD']],
  },
  { keys: ['core.pager'], setup: (ws, m) => addConfig(ws, `[core]\n\tpager = ${T(m)}\n`), control: [] },
  {
    keys: ['pager.<cmd>'],
    setup: (ws, m) => addConfig(ws, `[pager]\n\tlog = ${T(m)}\n\tshow = ${T(m)}\n\tdiff = ${T(m)}\n\tstatus = ${T(m)}\n`),
    control: [],
  },
];

const OPS = [{ op: 'status' }, { op: 'log' }, { op: 'diff' }, { op: 'show' }];
const call = (ws: string, input: Record<string, unknown>) =>
  g.kernel.registry.skill('git')!.call(input, { sessionId: 's', tenant: null, signal: new AbortController().signal, workspace: ws });

describe('git skill: repository config that runs programs is neutralised', () => {
  for (const row of ROWS) {
    test(row.keys.join(' + '), async () => {
      const { ws, marker } = repo();
      row.setup(ws, marker);
      for (const input of OPS) {
        const r = await call(ws, input);
        assert.equal(fs.existsSync(marker), false, `git ${input.op} through the skill ran the program of ${row.keys.join(', ')}`);
        // The lazy-fetch rows have a commit whose blob is missing: git may fail (no transport is allowed), nothing runs.
        if (!row.keys.some((k) => /url|sshCommand|uploadpack/.test(k))) assert.ok(r.ok, `${input.op}: ${r.error}`);
      }
      for (const args of row.control) {
        plain(ws, args);
        assert.ok(fs.existsSync(marker), `control: plain git ${args.join(' ')} should have run the program of ${row.keys.join(', ')}`);
        fs.rmSync(marker);
      }
      fs.rmSync(ws, { recursive: true, force: true });
    });
  }

  test('config cannot make git read a file outside the workspace into its answer (mailmap)', async () => {
    const { ws } = repo();
    const secret = path.join(tmpDir('vigil-git-secret-'), 'names');
    fs.writeFileSync(secret, 'Outside Secret Name <t@x>\n');
    addConfig(ws, `[mailmap]\n\tfile = ${secret}\n[log]\n\tmailmap = true\n`);
    for (const input of OPS) {
      const r = await call(ws, input);
      assert.ok(r.ok, r.error ?? '');
      assert.ok(!JSON.stringify(r.output).includes('Outside Secret Name'), input.op);
    }
    assert.match(plain(ws, ['show', '--stat']).stdout, /Outside Secret Name/, 'control: plain git shows the mapped name');
  });

  test('include.path and includeIf are refused with the reason; nothing runs', async () => {
    for (const inc of ['[include]\n\tpath = extra.cfg\n', '[includeIf "gitdir:/"]\n\tpath = extra.cfg\n']) {
      const { ws, marker } = repo();
      fs.writeFileSync(path.join(ws, '.git/extra.cfg'), `[diff]\n\texternal = ${T(marker)}\n`);
      addConfig(ws, inc);
      touchWorktree(ws);
      for (const input of OPS) {
        const r = await call(ws, input);
        assert.equal(r.ok, false);
        assert.match(r.error!, /^unsafe_repository_config: the repository config includes other files \(include/i);
      }
      assert.equal(fs.existsSync(marker), false);
      plain(ws, ['diff']);
      assert.ok(fs.existsSync(marker), 'control: plain git follows the include');
      fs.rmSync(ws, { recursive: true, force: true });
    }
  });

  test('every executable key of the table has a row, or is read only by commands the skill never runs', () => {
    const probes = ROWS.flatMap((r) => r.keys).map((k) =>
      k
        .split(' ')[0]
        .toLowerCase()
        .replace(/<[a-z]+>/g, 'x'),
    );
    const withoutRow = EXECUTABLE_KEYS.filter((k) => !probes.some((p) => k.pattern.test(p))).map((k) => k.pattern.source);
    // Editors, credentials over http, push, merge, difftool, aliases, submodules: the skill runs
    // only status/log/diff/show (includes have their own test). A new key in the table gets a
    // row above or joins this list on purpose.
    assert.deepEqual(withoutRow, [
      '^core\\.editor$',
      '^sequence\\.editor$',
      '^core\\.askpass$',
      '^credential\\.(.+\\.)?helper$',
      '^gpg\\.ssh\\.defaultkeycommand$',
      '^status\\.submodulesummary$',
      '^submodule\\.recurse$',
      '^uploadpack\\.packobjectshook$',
      '^core\\.alternaterefscommand$',
      '^merge\\..+\\.driver$',
      '^(mergetool|difftool)\\..+\\.(cmd|path)$',
      '^alias\\..+$',
      '^submodule\\..+\\.update$',
      '^core\\.worktree$',
      '^(include|includeif\\..+)\\.path$',
    ]);
  });
});
