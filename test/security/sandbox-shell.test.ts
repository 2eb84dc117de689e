// Issue #14 item 2: the shell skill, end to end through chat as tenant bob (file_read,
// shell_exec, crypto). The three leaks of the report — the server's /proc/<pid>/environ, the
// host's /etc/passwd, another tenant's chat text in the data dir's SQLite WAL — fail under
// bubblewrap and under the fallback; ordinary work in the workspace (ls, cat, git) still runs.
// Each leak has a control: the test itself reads the secret, so the assertion is not vacuous.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Kernel } from '../../kernel/kernel.ts';
import { bootKernel } from '../helpers.ts';
import { ROOT, tmpDir } from '../gateway/helpers.ts';
import { prepareSandbox } from '../../plugins/skill-shell/sandbox.ts';

const ALICE = 'alice-key-0123456789abcdef0123';
const BOB = 'bob-key-0123456789abcdef01234567';
const sha = (k: string) => createHash('sha256').update(k).digest('hex');
const PLUGINS = ['gateway-core', 'llm-demo', 'gateway-tenancy', 'skill-files', 'skill-shell', 'skill-crypto'];
const ALLOW = ['echo', 'ls', 'cat', 'head', 'grep', 'git', 'touch', 'id', 'env'];
const SECRET = 'the price is 4711.25';

interface Booted {
  kernel: Kernel;
  workspace: string;
  dataDir: string;
  say(key: string, message: string): Promise<any>;
  close(): Promise<void>;
}

/** A gateway with tenants alice and bob; `dataDir` may lie inside the workspace (the default
 *  layout when the workspace is the working directory). */
async function boot(o: { sandbox: 'auto' | 'fallback'; dataInWorkspace?: boolean }): Promise<Booted> {
  const workspace = fs.realpathSync(tmpDir('vigil-sec-shell-ws-'));
  const dataDir = o.dataInWorkspace ? path.join(workspace, 'data') : fs.realpathSync(tmpDir('vigil-sec-shell-data-'));
  const plugins: Record<string, any> = {};
  for (const d of fs.readdirSync(path.join(ROOT, 'plugins'))) if (!PLUGINS.includes(d)) plugins[d] = { enabled: false };
  plugins['skill-shell'] = { allow: ALLOW, sandbox: o.sandbox };
  const kernel = await bootKernel({
    only: PLUGINS,
    settings: {
      dataDir,
      env: {},
      overrides: {
        llm: { provider: 'demo' },
        workspace,
        tenants: [
          { name: 'alice', api_key_sha256: sha(ALICE), permissions: ['file_read', 'file_write', 'git_read', 'crypto'] },
          { name: 'bob', api_key_sha256: sha(BOB), permissions: ['file_read', 'shell_exec', 'crypto'] },
        ],
        plugins,
      },
    },
    kernel: { poolThreads: 1 },
  });
  const failed = kernel.registry.plugins().filter((p) => PLUGINS.includes(p.id) && p.status !== 'loaded');
  assert.deepEqual(failed, []);
  return {
    kernel,
    workspace,
    dataDir,
    async say(key, message) {
      const r = await kernel.gateway.inject({
        method: 'POST',
        url: '/api/v1/agent/chat',
        payload: { message },
        headers: { authorization: `Bearer ${key}` },
      });
      assert.equal(r.statusCode, 200, r.body);
      return r.json().tool_calls;
    },
    async close() {
      await kernel.stop();
      fs.rmSync(workspace, { recursive: true, force: true });
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const shell = (program: string, args: string[]) => `/skill shell ${JSON.stringify({ program, args })}`;
const hostPasswdFirstLine = fs.readFileSync('/etc/passwd', 'utf8').split('\n')[0];
const ownEnviron = fs.readFileSync(`/proc/${process.pid}/environ`, 'latin1');

/** Alice says something private; the test checks it reached the data dir's files. */
async function aliceSecret(b: Booted) {
  await b.say(ALICE, `remember: ${SECRET}`);
  const files = ['vigil.db', 'vigil.db-wal'].map((f) => path.join(b.dataDir, f)).filter((f) => fs.existsSync(f));
  assert.ok(
    files.some((f) => fs.readFileSync(f).includes(SECRET)),
    'control: the chat text is in the data dir',
  );
  return files;
}

function leaks(b: Booted, files: string[]) {
  return [
    shell('head', ['-c', '400', `/proc/${process.pid}/environ`]),
    shell('head', ['-n1', '/etc/passwd']),
    ...files.map((f) => shell('grep', ['-a', '-o', 'price is [0-9.]*', f])),
    shell('cat', [path.join(b.dataDir, 'vigil.db-wal')]),
  ].join('\n');
}

const noSecret = (calls: any[]) => {
  const text = JSON.stringify(calls);
  assert.ok(!text.includes('4711'), "another tenant's chat text came back");
  assert.ok(!text.includes(hostPasswdFirstLine), "the host's /etc/passwd came back");
  assert.ok(
    ownEnviron.length > 20 && !text.includes(JSON.stringify(ownEnviron.slice(0, 20)).slice(1, -1)),
    "the server's environment came back",
  );
};

// The same probe the skill runs at start-up: where it fails, the skill itself falls back.
const bwrapWorks = (() => {
  const s = prepareSandbox('auto');
  fs.rmSync(s.etc, { recursive: true, force: true });
  return s.mode === 'bwrap';
})();

/** The readiness report as the tenant sees it, and its shell_sandbox check. */
async function sandboxReadiness(b: Booted) {
  const r = await b.kernel.gateway.inject({
    method: 'GET',
    url: '/api/v1/enterprise/readiness',
    headers: { authorization: `Bearer ${BOB}` },
  });
  assert.equal(r.statusCode, 200, r.body);
  const report = r.json();
  return { report, c: report.checks.find((x: any) => x.id === 'shell_sandbox') };
}

describe('shell skill under bubblewrap', { skip: !bwrapWorks && 'bwrap cannot start here (the fallback tests still run)' }, () => {
  let b: Booted;
  before(async () => {
    b = await boot({ sandbox: 'auto' });
  });
  after(() => b.close());

  test('the three leaks of the report return nothing', async () => {
    const files = await aliceSecret(b);
    const calls = await b.say(BOB, leaks(b, files));
    noSecret(calls);
    assert.ok(calls.every((c: any) => c.status === 'ok' && c.output.sandbox === 'bwrap'));
    assert.match(calls[0].output.stderr, /No such file or directory/, "/proc shows only the sandbox's own processes");
    assert.equal(calls[1].output.stdout, `sandbox:x:${process.getuid!()}:${process.getgid!()}:vigil sandbox:/tmp:/usr/sbin/nologin\n`);
    for (const c of calls.slice(2)) assert.notEqual(c.output.exit_code, 0);
  });

  test('nothing of the server: clean environment, no network, own pid namespace, no host /etc', async () => {
    const calls = await b.say(
      BOB,
      [shell('env', []), shell('ls', ['/etc', '/']), shell('cat', ['/proc/net/dev']), shell('ls', ['/proc'])].join('\n'),
    );
    assert.deepEqual(
      calls[0].output.stdout
        .split('\n')
        .filter(Boolean)
        .map((l: string) => l.split('=')[0])
        .sort(),
      ['HOME', 'LANG', 'PATH', 'PWD', 'TMPDIR'],
    );
    assert.doesNotMatch(calls[1].output.stdout, /shadow|hostname|ssh|work|root\b|home/);
    assert.doesNotMatch(calls[2].output.stdout, /eth0|ens|docker/, 'only the loopback device exists');
    const pids = calls[3].output.stdout
      .split('\n')
      .filter((x: string) => /^\d+$/.test(x))
      .map(Number);
    assert.ok(pids.length <= 3 && !pids.includes(process.pid), `pids seen: ${pids}`);
  });

  test('a permitted tenant still works in the workspace: ls, cat, touch, git', async () => {
    fs.writeFileSync(path.join(b.workspace, 'Token.sol'), 'contract Token {}\n');
    execFileSync('git', ['init', '-q'], { cwd: b.workspace });
    execFileSync('git', ['add', 'Token.sol'], { cwd: b.workspace });
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@x', 'commit', '-q', '-m', 'first token'], { cwd: b.workspace });
    const calls = await b.say(
      BOB,
      [
        shell('ls', []),
        shell('cat', ['Token.sol']),
        shell('touch', ['new.txt']),
        shell('git', ['log', '--oneline']),
        shell('git', ['status', '--short']),
        shell('touch', ['.git/hooks/pre-commit']),
      ].join('\n'),
    );
    assert.match(calls[0].output.stdout, /Token\.sol/);
    assert.equal(calls[1].output.stdout, 'contract Token {}\n');
    assert.equal(calls[2].output.exit_code, 0);
    assert.ok(fs.existsSync(path.join(b.workspace, 'new.txt')), 'the workspace is writable');
    assert.match(calls[3].output.stdout, /first token/);
    assert.match(calls[4].output.stdout, /\?\? new\.txt/);
    assert.notEqual(calls[5].output.exit_code, 0, '.git is read-only inside the sandbox');
    assert.match(calls[5].output.stderr, /Read-only file system/);
    assert.equal(fs.existsSync(path.join(b.workspace, '.git/hooks/pre-commit')), false);
  });

  test('readiness names the sandbox', async () => {
    const { c } = await sandboxReadiness(b);
    assert.equal(c.status, 'active');
    assert.match(c.detail, /^bubblewrap \(.*bwrap\): programs run in new mount, pid, network/);
  });

  test('a data dir inside the workspace is hidden from programs and from the files skill', async () => {
    const b2 = await boot({ sandbox: 'auto', dataInWorkspace: true });
    try {
      await aliceSecret(b2);
      const calls = await b2.say(
        BOB,
        [shell('grep', ['-r', '-a', '-o', 'price is [0-9.]*', '.']), shell('ls', ['-a', 'data']), shell('cat', ['data/vigil.db-wal'])].join(
          '\n',
        ),
      );
      noSecret(calls);
      assert.equal(calls[1].output.stdout, '.\n..\n');
      const files = await b2.say(
        BOB,
        ['/skill files {"op":"read","path":"data/vigil.db-wal"}', '/skill files {"op":"list","path":".","depth":3}'].join('\n'),
      );
      assert.match(files[0].error, /^path_protected: /);
      assert.ok(!files[1].output.entries.some((e: any) => e.path.startsWith('data/')));
      noSecret(files);
    } finally {
      await b2.close();
    }
  });
});

describe('shell skill fallback (no bubblewrap)', () => {
  let b: Booted;
  before(async () => {
    b = await boot({ sandbox: 'fallback' });
  });
  after(() => b.close());

  test('the three leaks of the report are refused', async () => {
    const files = await aliceSecret(b);
    const calls = await b.say(BOB, leaks(b, files));
    noSecret(calls);
    for (const c of calls) {
      assert.equal(c.status, 'error');
      assert.match(
        c.error,
        /^argument_outside_workspace: ".*" names a path outside the workspace; without bubblewrap only paths inside the workspace are allowed$/,
      );
    }
  });

  test('paths in option values, .., symlinks out and system folders are refused; programs that start programs need the sandbox', async () => {
    fs.symlinkSync('/etc', path.join(b.workspace, 'etc-link'));
    fs.symlinkSync(`/proc/${process.pid}`, path.join(b.workspace, 'me'));
    const calls = await b.say(
      BOB,
      [
        shell('grep', ['-f/etc/passwd', 'x']),
        shell('grep', ['--file=/etc/passwd', 'x']),
        shell('cat', ['../../etc/passwd']),
        shell('cat', ['etc-link/passwd']),
        shell('head', ['me/environ']),
        shell('git', ['log']),
        shell('env', []),
      ].join('\n'),
    );
    noSecret(calls);
    for (const c of calls.slice(0, 5)) assert.match(c.error, /^argument_outside_workspace: /);
    assert.match(calls[5].error, /^program_needs_sandbox: "git" can start other programs/);
    assert.match(calls[6].error, /^program_needs_sandbox: "env"/);
  });

  test('a permitted tenant still runs ls, cat and grep on workspace files, with a clean environment', async () => {
    fs.mkdirSync(path.join(b.workspace, 'src'));
    fs.writeFileSync(path.join(b.workspace, 'src/Token.sol'), 'contract Token {}\n');
    const calls = await b.say(
      BOB,
      [
        shell('ls', ['src']),
        shell('cat', ['src/Token.sol']),
        shell('grep', ['-rn', 'contract', '.']),
        shell('echo', ['a/b', '$HOME']),
      ].join('\n'),
    );
    assert.equal(calls[0].output.stdout, 'Token.sol\n');
    assert.equal(calls[1].output.stdout, 'contract Token {}\n');
    assert.match(calls[2].output.stdout, /src\/Token\.sol:1:contract Token/);
    assert.equal(calls[3].output.stdout, 'a/b $HOME\n');
    assert.ok(calls.every((c: any) => c.output.sandbox === 'fallback'));
  });

  test('readiness says the fallback is active and why', async () => {
    const { c, report } = await sandboxReadiness(b);
    assert.equal(c.status, 'available');
    assert.match(c.detail, /^fallback \(argument confinement, clean environment; no namespaces\): the fallback was chosen in the config/);
    assert.ok(report.next_actions.some((a: string) => /Install bubblewrap/.test(a)));
  });

  test('with the data dir inside the workspace the fallback refuses to run at all', async () => {
    const b2 = await boot({ sandbox: 'fallback', dataInWorkspace: true });
    try {
      const calls = await b2.say(BOB, shell('ls', []));
      assert.match(calls[0].error, /^sandbox_unavailable: the server's data dir or config \(.*\/data\) lies inside the workspace/);
    } finally {
      await b2.close();
    }
  });
});

describe('sandbox probe', () => {
  test('a bwrap that cannot start: auto falls back, bwrap-required runs nothing, and both say why', () => {
    // `false` stands in for a bwrap that fails (no user namespaces, a seccomp-restricted container).
    const auto = prepareSandbox('auto', '/bin/false');
    assert.equal(auto.mode, 'fallback');
    assert.match(auto.problem!, /^bwrap cannot start a sandbox here: exit 1$/);
    const required = prepareSandbox('bwrap', '/bin/false');
    assert.equal(required.mode, null);
    const missing = prepareSandbox('auto', null);
    assert.equal(missing.mode, 'fallback');
    assert.equal(missing.problem, 'bwrap (bubblewrap) is not installed');
    for (const s of [auto, required, missing]) fs.rmSync(s.etc, { recursive: true, force: true });
  });
});

describe('arguments', () => {
  test('a NUL byte in an argument is refused with a clear reason under both sandboxes', async () => {
    for (const sandbox of ['auto', 'fallback'] as const) {
      const b = await boot({ sandbox });
      try {
        const calls = await b.say(BOB, shell('echo', ['a\u0000b']));
        assert.equal(calls[0].error, 'invalid_argument: arguments must not contain NUL bytes');
      } finally {
        await b.close();
      }
    }
  });
});
