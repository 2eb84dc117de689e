// Issue #14 item 1, end to end through chat (demo backend, `/skill NAME {json}`), as tenant
// alice (file_read, file_write, git_read, crypto): the workspace cannot be turned into a way to
// run programs through git, and a workspace nested in another repository never reaches it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bootGateway, tmpDir } from '../gateway/helpers.ts';

const ALICE = 'alice-key-0123456789abcdef0123';
const sha = (k: string) => createHash('sha256').update(k).digest('hex');
const ID = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@x', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@x' };
const gitIn = (ws: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd: ws,
    env: { PATH: process.env.PATH!, HOME: ws, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', ...ID },
    encoding: 'utf8',
  });

type Boot = Awaited<ReturnType<typeof bootGateway>>;
const bootAs = (workspace: string) =>
  bootGateway({
    only: ['gateway-core', 'llm-demo', 'gateway-tenancy', 'skill-files', 'skill-git'],
    workspace,
    config: { tenants: [{ name: 'alice', api_key_sha256: sha(ALICE), permissions: ['file_read', 'file_write', 'git_read', 'crypto'] }] },
  });
const say = async (g: Boot, message: string) => {
  const r = await g.kernel.gateway.inject({
    method: 'POST',
    url: '/api/v1/agent/chat',
    payload: { message },
    headers: { authorization: `Bearer ${ALICE}` },
  });
  assert.equal(r.statusCode, 200, r.body);
  return r.json().tool_calls as Array<{ name: string; status: string; ok: boolean; error: string | null; output: any }>;
};
const skill = (name: string, input: unknown) => `/skill ${name} ${JSON.stringify(input)}`;

describe('item 1: no command execution through git for a tenant without shell_exec', () => {
  let g: Boot;
  let ws: string;
  before(async () => {
    ws = tmpDir('vigil-sec-ws-');
    fs.writeFileSync(path.join(ws, 'readme.txt'), 'hello\n');
    gitIn(ws, 'init', '-q');
    gitIn(ws, 'add', 'readme.txt');
    gitIn(ws, 'commit', '-q', '-m', 'first');
    // A symlink an operator's checkout might contain, leading into the repository's internals.
    fs.symlinkSync('.git', path.join(ws, 'gitlink'));
    g = await bootAs(ws);
  });
  after(() => g.close());

  test('the reproduction: lint.sh + .gitattributes + .git/config filter, then git diff — nothing runs', async () => {
    const configBefore = fs.readFileSync(path.join(ws, '.git/config'), 'utf8');
    const calls = await say(
      g,
      [
        skill('write_file', { path: 'lint.sh', content: 'id >> lint.log\n' }),
        skill('write_file', { path: '.gitattributes', content: '*.txt filter=pwn\n' }),
        skill('write_file', { path: '.git/config', content: '[filter "pwn"]\n\tclean = sh lint.sh\n', overwrite: true }),
        skill('write_file', { path: 'readme.txt', content: 'hello\nchanged\n', overwrite: true }),
        skill('git', { op: 'diff' }),
      ].join('\n'),
    );
    assert.deepEqual(
      calls.map((c) => c.status),
      ['ok', 'ok', 'error', 'ok', 'ok'],
    );
    assert.match(calls[2].error!, /^path_protected: path "\.git\/config" is inside a \.git folder/);
    assert.equal(fs.readFileSync(path.join(ws, '.git/config'), 'utf8'), configBefore);
    assert.match(calls[4].output.text, /\+changed/);
    assert.equal(fs.existsSync(path.join(ws, 'lint.log')), false);
  });

  test('write_file refuses every path into .git: hooks, other cases, through a symlink, nested repositories', async () => {
    const paths = [
      '.git/hooks/pre-commit',
      '.GIT/config',
      '.Git/hooks/post-index-change',
      './.git/config',
      'src/../.git/info/attributes',
      'gitlink/config',
      'gitlink/hooks/pre-commit',
      'vendor/lib/.git/config',
      'a/.git',
    ];
    const calls = await say(
      g,
      paths.map((p) => skill('write_file', { path: p, content: '#!/bin/sh\nid > pwned\n', overwrite: true })).join('\n'),
    );
    calls.forEach((c, i) => {
      assert.equal(c.status, 'error', paths[i]);
      assert.match(
        c.error!,
        /^path_protected: .* is inside a \.git folder; repository internals \(config, hooks\) cannot be written by skills$/,
        paths[i],
      );
    });
    assert.equal(fs.existsSync(path.join(ws, '.git/hooks/pre-commit')), false);
    assert.equal(fs.existsSync(path.join(ws, 'vendor')), false, 'no folder is created for a refused path');
    assert.equal(fs.existsSync(path.join(ws, 'a')), false);
  });

  test('a hostile repository config put there by someone else still runs nothing', async () => {
    fs.writeFileSync(path.join(ws, 'lint.sh'), 'id >> lint.log\n');
    fs.writeFileSync(path.join(ws, '.gitattributes'), '*.txt filter=pwn diff=pwn\n');
    fs.appendFileSync(
      path.join(ws, '.git/config'),
      '[filter "pwn"]\n\tclean = sh lint.sh\n\tsmudge = sh lint.sh\n[diff "pwn"]\n\ttextconv = sh lint.sh\n[core]\n\tfsmonitor = sh lint.sh\n\tpager = sh lint.sh\n',
    );
    fs.writeFileSync(path.join(ws, '.git/hooks/post-index-change'), '#!/bin/sh\nid >> lint.log\n', { mode: 0o755 });
    fs.appendFileSync(path.join(ws, 'readme.txt'), 'more\n');
    const calls = await say(g, ['status', 'log', 'diff', 'show'].map((op) => skill('git', { op })).join('\n'));
    assert.deepEqual(
      calls.map((c) => c.status),
      ['ok', 'ok', 'ok', 'ok'],
    );
    assert.ok(calls[0].output.ignored_config.includes('filter.pwn.clean'), 'the answer says which keys were ignored');
    assert.equal(fs.existsSync(path.join(ws, 'lint.log')), false);
  });
});

describe('item 1: a nested workspace never reaches the parent repository', () => {
  test("VIGIL_WORKSPACE=…/ws/sub: git show HEAD:readme.txt does not return the parent's file", async () => {
    const parent = tmpDir('vigil-sec-parent-');
    fs.writeFileSync(path.join(parent, 'readme.txt'), 'the parent repository secret\n');
    gitIn(parent, 'init', '-q');
    gitIn(parent, 'add', 'readme.txt');
    gitIn(parent, 'commit', '-q', '-m', 'parent');
    const sub = path.join(parent, 'sub');
    fs.mkdirSync(sub);
    fs.writeFileSync(path.join(sub, 'notes.txt'), 'tenant files\n');
    // The control: plain git in sub/ does find the parent.
    assert.match(gitIn(sub, 'show', 'HEAD:readme.txt'), /parent repository secret/);
    const g = await bootAs(sub);
    try {
      const calls = await say(
        g,
        ['show', 'status', 'log', 'diff'].map((op) => skill('git', op === 'show' ? { op, ref: 'HEAD:readme.txt' } : { op })).join('\n'),
      );
      for (const c of calls) {
        assert.equal(c.status, 'error');
        assert.match(c.error!, /^not_a_repository: /);
        assert.ok(!JSON.stringify(c).includes('parent repository secret'));
      }
    } finally {
      await g.close();
    }
  });
});

describe('item 1: a .git file or link cannot point the git skill at another repository', () => {
  test('a gitfile, a .git symlink, commondir and alternates pointing at another repository are refused; it is not read', async () => {
    const other = tmpDir('vigil-sec-other-');
    fs.writeFileSync(path.join(other, 'readme.txt'), 'another repository secret\n');
    gitIn(other, 'init', '-q');
    gitIn(other, 'add', 'readme.txt');
    gitIn(other, 'commit', '-q', '-m', 'other');
    const ownRepoBorrowing = (ws: string, file: string, text: string) => {
      gitIn(ws, 'init', '-q');
      fs.mkdirSync(path.dirname(path.join(ws, '.git', file)), { recursive: true });
      fs.writeFileSync(path.join(ws, '.git', file), text);
    };
    const plants: Array<[(ws: string) => void, RegExp]> = [
      [
        (ws) => fs.writeFileSync(path.join(ws, '.git'), `gitdir: ${path.join(other, '.git')}\n`),
        /^unsupported_repository: the workspace \.git is a file or link pointing elsewhere/,
      ],
      [
        (ws) => fs.symlinkSync(path.join(other, '.git'), path.join(ws, '.git')),
        /^unsupported_repository: the workspace \.git is a file or link pointing elsewhere/,
      ],
      [
        (ws) => ownRepoBorrowing(ws, 'commondir', path.join(other, '.git') + '\n'),
        /^unsupported_repository: the repository's \.git\/commondir points outside the workspace/,
      ],
      [
        (ws) => {
          ownRepoBorrowing(ws, 'objects/info/alternates', path.join(other, '.git/objects') + '\n');
          fs.copyFileSync(
            path.join(other, '.git/refs/heads', fs.readdirSync(path.join(other, '.git/refs/heads'))[0]),
            path.join(ws, '.git/HEAD'),
          );
        },
        /^unsupported_repository: the repository's objects\/info\/alternates points outside the workspace/,
      ],
    ];
    for (const [plant, refusal] of plants) {
      const ws = tmpDir('vigil-sec-gitfile-');
      plant(ws);
      // The control: plain git follows it.
      assert.match(gitIn(ws, 'show', 'HEAD:readme.txt'), /another repository secret/);
      const g = await bootAs(ws);
      try {
        const calls = await say(g, skill('git', { op: 'show', ref: 'HEAD:readme.txt' }));
        assert.match(calls[0].error!, refusal);
        assert.ok(!JSON.stringify(calls).includes('another repository secret'));
      } finally {
        await g.close();
      }
    }
  });
});

describe('item 1: a linked worktree made by git worktree add still works', () => {
  test('status and log on a worktree workspace; its repository is the one it names', async () => {
    const main = tmpDir('vigil-sec-main-');
    fs.writeFileSync(path.join(main, 'readme.txt'), 'main repository\n');
    gitIn(main, 'init', '-q');
    gitIn(main, 'add', 'readme.txt');
    gitIn(main, 'commit', '-q', '-m', 'main commit');
    const wt = path.join(tmpDir('vigil-sec-wt-'), 'feature');
    gitIn(main, 'worktree', 'add', '-q', '-b', 'feature', wt);
    const g = await bootAs(wt);
    try {
      const calls = await say(g, [skill('git', { op: 'log' }), skill('git', { op: 'status' })].join('\n'));
      assert.equal(calls[0].status, 'ok', calls[0].error ?? '');
      assert.equal(calls[0].output.commits[0].subject, 'main commit');
      assert.equal(calls[1].output.branch, 'feature');
    } finally {
      await g.close();
    }
  });
});
