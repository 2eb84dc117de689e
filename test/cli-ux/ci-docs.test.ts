// docs/ci.md is run, not just read: the GitHub Actions workflow and the GitLab CI job are parsed
// from the page and their shell steps executed in order (with the `uses:` steps simulated: a
// second checkout, code scanning's SARIF validation) on a fixture git repository whose pull
// request adds a HIGH finding to a base branch that already has one; the pre-commit hooks run
// in that repository too. A last test fails when the page gains a vigil command no scenario runs.
//
// `vigil` is the package `npm pack` makes, installed with the page's own `npm install -g
// "$VIGIL_PACKAGE"` into a temporary npm prefix (dependencies from npm's cache, the registry only
// for what the cache lacks); every command then runs the installed package outside the
// repository. better-sqlite3's install script (prebuild-install) takes its binary from a local
// prebuild directory (`npm_config_better_sqlite3_local_prebuilds`, read by prebuild-install's
// util.localPrebuild): the test packs the binary `npm ci` built for this checkout under the file
// name prebuild-install asks GitHub for, which is unreachable here (without it node-gyp compiles
// SQLite from source: 39 min on the busy 2-core machine, session 5). The install scripts run for
// real, the WASM plugins' postinstall build included.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { validateSarif } from './helpers.ts';

const root = path.resolve(import.meta.dirname, '../..');
const doc = fs.readFileSync(path.join(root, 'docs/ci.md'), 'utf8');
const blocks = [...doc.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], text: m[2] }));
const block = (pred: (b: { lang: string; text: string }) => boolean, what: string) => {
  const b = blocks.find(pred);
  assert.ok(b, `docs/ci.md has no ${what} block`);
  return b.text;
};
const INSTALL = block((b) => b.lang === 'sh' && b.text.includes('npm install -g'), 'install').trim();
const GITHUB = block((b) => b.text.includes('github/codeql-action/upload-sarif'), 'GitHub workflow');
const GITLAB = block((b) => b.text.includes('CI_MERGE_REQUEST_TARGET_BRANCH_NAME'), 'GitLab CI');
const LOCAL_HOOK = block((b) => b.text.includes('repo: local'), 'local pre-commit hook');
const HOOK_INSTALL = block((b) => b.lang === 'sh' && b.text.includes('.git/hooks/pre-commit'), 'git hook install');
/** Every text the scenarios below executed (for the coverage test). */
const executed: string[] = [INSTALL, HOOK_INSTALL];

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-ci-docs-'));
const prefix = path.join(tmp, 'prefix');
const env: NodeJS.ProcessEnv = {
  ...process.env,
  npm_config_prefix: prefix,
  PATH: `${path.join(prefix, 'bin')}${path.delimiter}${process.env.PATH}`,
  GIT_AUTHOR_NAME: 'ci',
  GIT_AUTHOR_EMAIL: 'ci@example.invalid',
  GIT_COMMITTER_NAME: 'ci',
  GIT_COMMITTER_EMAIL: 'ci@example.invalid',
  VIGIL_LOG_LEVEL: 'silent',
};
delete env.VIGIL_CONTRACT_ROOTS;
// The installed package keeps its own compiled mirror: an inherited cache directory would be
// rewritten with paths into this temporary prefix, deleted at the end, and break later tests.
delete env.VIGIL_JS_CACHE_DIR;
delete env.VIGIL_JS_MIRROR;

const BASE = `pragma solidity ^0.5.0;

contract Vault {
    address public owner;
    mapping(address => uint256) public balances;

    constructor() public {
        owner = msg.sender;
    }

    function deposit() external payable {
        balances[msg.sender] += msg.value;
    }

    function sweep(address payable to) external {
        require(tx.origin == owner, "owner only");
        to.transfer(address(this).balance);
    }
}
`;
// The pull request adds a reentrant withdraw (a new HIGH finding); the tx.origin one is known.
const PR = BASE.replace(
  /}\n$/,
  `
    function withdraw() external {
        uint256 amount = balances[msg.sender];
        (bool ok, ) = msg.sender.call.value(amount)("");
        require(ok, "send failed");
        balances[msg.sender] = 0;
    }
}
`,
);
const CLEAN =
  'pragma solidity 0.5.17;\n\ncontract Counter {\n    uint256 public count;\n\n    function set(uint256 v) external {\n        count = v;\n    }\n}\n';

function sh(
  script: string,
  cwd: string,
  extra: NodeJS.ProcessEnv = {},
  shell = ['bash', '-e', '-c'],
): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(shell[0], [...shell.slice(1), script], { cwd, env: { ...env, ...extra } });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('close', (code) => resolve({ code: code ?? -1, out, err }));
  });
}

function git(cwd: string, ...args: string[]) {
  const r = spawnSync('git', args, { cwd, env, encoding: 'utf8' });
  assert.equal(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** A bare "origin" with main (BASE) and feature (PR), and a clone checked out at `branch`. */
function repo(name: string, branch: 'main' | 'feature'): string {
  const origin = path.join(tmp, `${name}-origin.git`);
  const seed = path.join(tmp, `${name}-seed`);
  fs.mkdirSync(path.join(seed, 'src'), { recursive: true });
  git(seed, 'init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(seed, 'src/Vault.sol'), BASE);
  git(seed, 'add', '.');
  git(seed, 'commit', '-qm', 'base');
  git(seed, 'checkout', '-qb', 'feature');
  fs.writeFileSync(path.join(seed, 'src/Vault.sol'), PR);
  git(seed, 'commit', '-qam', 'add withdraw');
  git(tmp, 'clone', '-q', '--bare', seed, origin);
  const work = path.join(tmp, name);
  git(tmp, 'clone', '-q', '-b', branch, `file://${origin}`, work);
  return work;
}

/** better-sqlite3's native module as the prebuilt tarball prebuild-install looks for. */
function localPrebuild(dir: string): string {
  const pkgDir = path.dirname(createRequire(path.join(root, 'package.json')).resolve('better-sqlite3/package.json'));
  const version = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).version as string;
  const binary = path.join(pkgDir, 'build', 'Release', 'better_sqlite3.node');
  assert.ok(fs.existsSync(binary), `${binary} is missing: run npm ci first`);
  // prebuild-install's name template: {name}-v{version}-{runtime}-v{abi}-{platform}{libc}-{arch}.tar.gz
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  fs.mkdirSync(dir, { recursive: true });
  const r = spawnSync('tar', ['-czf', path.join(dir, name), 'build/Release/better_sqlite3.node'], { cwd: pkgDir, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return dir;
}

before(async () => {
  fs.mkdirSync(path.join(prefix, 'bin'), { recursive: true });
  fs.mkdirSync(path.join(prefix, 'lib', 'node_modules'), { recursive: true });
  const packed = spawnSync('npm', ['pack', '--pack-destination', tmp, '--json'], { cwd: root, encoding: 'utf8', env: process.env });
  assert.equal(packed.status, 0, packed.stderr);
  const tgz = path.join(tmp, JSON.parse(packed.stdout)[0].filename);
  const r = await sh(INSTALL, tmp, {
    VIGIL_PACKAGE: tgz,
    npm_config_better_sqlite3_local_prebuilds: localPrebuild(path.join(tmp, 'prebuilds')),
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
  });
  assert.equal(r.code, 0, `${INSTALL}\n${r.err}`);
  const installed = fs.realpathSync(path.join(prefix, 'lib/node_modules/vigil'));
  assert.ok(installed.startsWith(fs.realpathSync(prefix)), 'installed into the prefix, not linked to the checkout');
  // The native module came from the prebuild, not from a compile (node-gyp would leave obj.target/).
  const sqlite = path.dirname(createRequire(path.join(installed, 'package.json')).resolve('better-sqlite3/package.json'));
  assert.ok(fs.existsSync(path.join(sqlite, 'build/Release/better_sqlite3.node')), 'better-sqlite3 has its native module');
  assert.ok(
    !fs.existsSync(path.join(sqlite, 'build/Release/obj.target')),
    'better-sqlite3 was compiled from source instead of using the prebuild',
  );
});
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

type Step = { name?: string; if?: string; uses?: string; run?: string; with?: Record<string, unknown> };

/** The workflow's `if:` expressions this page uses, evaluated like Actions does. */
function githubIf(expr: string | undefined, event: string, cwd: string): boolean {
  if (expr === undefined) return true;
  if (expr === "github.event_name == 'pull_request'") return event === 'pull_request';
  const m = /^always\(\) && hashFiles\('([^']+)'\) != ''$/.exec(expr);
  if (m) return fs.existsSync(path.join(cwd, m[1]));
  throw new Error(`the test does not know the workflow condition "${expr}": teach githubIf`);
}

/** Runs a job's steps like a runner: a failed step skips the rest except `always()` ones. */
async function runGithubJob(event: 'push' | 'pull_request', cwd: string) {
  const wf = YAML.parse(GITHUB);
  const job = Object.values(wf.jobs as Record<string, { env: Record<string, string>; steps: Step[] }>)[0];
  const jobEnv = Object.fromEntries(Object.entries(job.env).filter(([k]) => k !== 'VIGIL_PACKAGE'));
  const log: Array<{ step: string; code: number; err: string }> = [];
  let failed = false;
  let uploaded: any = null;
  for (const step of job.steps) {
    const cond = step.if;
    if (failed && !(cond ?? '').startsWith('always()')) continue;
    if (!githubIf(cond, event, cwd)) continue;
    if (step.uses?.startsWith('actions/checkout')) {
      if (step.with?.path) {
        assert.equal(step.with.ref, '${{ github.base_ref }}');
        // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a YAML scalar
        git(cwd, 'worktree', 'add', '-q', String(step.with.path), 'origin/main');
      }
    } else if (step.uses?.startsWith('actions/setup-node')) {
      assert.equal(step.with?.['node-version'], 20);
    } else if (step.uses?.startsWith('github/codeql-action/upload-sarif')) {
      uploaded = JSON.parse(fs.readFileSync(path.join(cwd, String(step.with!.sarif_file)), 'utf8'));
      assert.ok(validateSarif(uploaded), `code scanning would reject the log: ${JSON.stringify(validateSarif.errors?.slice(0, 3))}`);
    } else if (step.run !== undefined) {
      executed.push(step.run);
      if (step.run.trim() === INSTALL) continue; // done once in before()
      const r = await sh(step.run, cwd, { ...jobEnv, GITHUB_EVENT_NAME: event });
      log.push({ step: step.name ?? step.run, code: r.code, err: r.err });
      if (r.code !== 0) failed = true;
    } else throw new Error(`unknown step ${JSON.stringify(step)}`);
  }
  return { log, failed, uploaded };
}

const byRule = (sarif: any, rule: string) => sarif.runs[0].results.filter((r: any) => r.ruleId === rule);

describe('docs/ci.md, run as written', { concurrency: 4 }, () => {
  test('GitHub Actions, pull request: fails on the new HIGH finding only; uploads every finding marked new/unchanged', async () => {
    const cwd = repo('gh-pr', 'feature');
    const { log, failed, uploaded } = await runGithubJob('pull_request', cwd);
    assert.ok(failed, JSON.stringify(log));
    const analyse = log.find((s) => s.step.startsWith('Analyse ('))!;
    assert.equal(analyse.code, 1, analyse.err);
    assert.match(analyse.err, /1 finding already known/);
    assert.ok(uploaded, 'the upload step ran after the failed step');
    assert.deepEqual(
      byRule(uploaded, 'reentrancy').map((r: any) => r.baselineState),
      ['new'],
    );
    assert.deepEqual(
      byRule(uploaded, 'tx-origin').map((r: any) => r.baselineState),
      ['unchanged'],
    );
    assert.equal(byRule(uploaded, 'tx-origin')[0].locations[0].physicalLocation.artifactLocation.uri, 'src/Vault.sol');
  });

  test('GitHub Actions, push to main: analyses, passes, uploads a valid log', async () => {
    const cwd = repo('gh-push', 'main');
    const { log, failed, uploaded } = await runGithubJob('push', cwd);
    assert.equal(failed, false, JSON.stringify(log));
    assert.equal(byRule(uploaded, 'tx-origin').length, 1);
    assert.equal(byRule(uploaded, 'tx-origin')[0].baselineState, undefined);
    assert.equal(fs.existsSync(path.join(cwd, '.vigil-base')), false, 'no base checkout on push');
  });

  test('GitLab CI, merge request: the target branch is the baseline; the job fails on the new finding and keeps the SARIF artifact', async () => {
    const cwd = repo('gl-mr', 'feature');
    const job = YAML.parse(GITLAB).vigil as {
      variables: Record<string, string>;
      script: string[];
      artifacts: { paths: string[]; when: string };
    };
    assert.equal(job.artifacts.when, 'always');
    const vars = {
      ...job.variables,
      CI_PIPELINE_SOURCE: 'merge_request_event',
      CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main',
      CI_DEFAULT_BRANCH: 'main',
      CI_PROJECT_DIR: cwd,
    };
    let code = 0;
    let err = '';
    for (const line of job.script) {
      executed.push(line);
      if (line.trim() === INSTALL) continue;
      // GitLab runs script lines in one shell with errexit and pipefail.
      const r = await sh(line, cwd, vars, ['bash', '-eo', 'pipefail', '-c']);
      code = r.code;
      err = r.err;
      if (code !== 0) break;
    }
    assert.equal(code, 1, err);
    assert.match(err, /1 finding already known/);
    for (const p of job.artifacts.paths) {
      const sarif = JSON.parse(fs.readFileSync(path.join(cwd, p), 'utf8'));
      assert.ok(validateSarif(sarif));
      assert.deepEqual(
        byRule(sarif, 'reentrancy').map((r: any) => r.baselineState),
        ['new'],
      );
    }
  });

  test('pre-commit: the framework hook and the documented local hook run the same command, which blocks on HIGH findings', async () => {
    const cwd = repo('pc', 'feature');
    const shipped = YAML.parse(fs.readFileSync(path.join(root, '.pre-commit-hooks.yaml'), 'utf8'))[0];
    const local = YAML.parse(LOCAL_HOOK).repos[0].hooks[0];
    assert.equal(shipped.id, 'vigil');
    assert.equal(local.entry, shipped.entry);
    for (const h of [shipped, local]) {
      assert.equal(h.pass_filenames, false);
      assert.ok(new RegExp(h.files).test('src/Vault.sol') && !new RegExp(h.files).test('README.md'));
    }
    executed.push(shipped.entry, local.entry);
    const r = await sh(shipped.entry, cwd);
    assert.equal(r.code, 1, r.err);
    assert.match(r.out, /^# vigil quick analysis/);
    assert.match(r.out, /\[HIGH\] Reentrancy/);
  });

  test('plain git hook: installed as documented; a clean staged file commits, a staged file with a HIGH finding is blocked', async () => {
    const cwd = repo('hook', 'main');
    const inst = await sh(HOOK_INSTALL, cwd);
    assert.equal(inst.code, 0, inst.err);
    assert.ok(fs.statSync(path.join(cwd, '.git/hooks/pre-commit')).mode & 0o100, 'executable');

    fs.writeFileSync(path.join(cwd, 'README.md'), 'no Solidity staged\n');
    git(cwd, 'add', 'README.md');
    assert.equal((await sh('git commit -qm docs', cwd)).code, 0, 'no .sol staged: the hook does not run vigil');

    fs.writeFileSync(path.join(cwd, 'src/Counter.sol'), CLEAN);
    git(cwd, 'add', 'src/Counter.sol');
    const ok = await sh('git commit -qm counter', cwd);
    assert.equal(ok.code, 0, ok.err);

    fs.writeFileSync(path.join(cwd, 'src/Vault.sol'), PR);
    git(cwd, 'add', 'src/Vault.sol');
    const blocked = await sh('git commit -qm withdraw', cwd);
    assert.equal(blocked.code, 1, blocked.err);
    assert.match(blocked.err, /src\/Vault\.sol has findings at or above HIGH/);
    assert.match(blocked.err, /\[HIGH\] Reentrancy[\s\S]*at `src\/Vault\.sol:\d+`/);
    assert.equal(git(cwd, 'log', '-1', '--format=%s').trim(), 'counter', 'the blocked commit was not made');
  });
});

test('every vigil command on the page is run by a scenario above', () => {
  const commands = blocks
    .filter((b) => b.lang !== 'solidity')
    .flatMap((b) => b.text.split('\n'))
    .filter((l) => /(^|[\s;&|(])vigil\s+(analyze|plugins?|serve|solc|approvals|tenants)\b/.test(l) && !/^\s*#/.test(l))
    .map((l) => l.trim());
  assert.ok(commands.length >= 6, commands.join('\n'));
  const ran = executed.join('\n');
  for (const c of commands) assert.ok(ran.includes(c.replace(/^entry:\s*/, '')), `not exercised by a test: ${c}`);
});
