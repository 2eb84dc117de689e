// What the skill sandboxes cost per call: `node --import tsx bench/skill-sandbox.ts [N]`.
// Runs `echo` through the shell skill under bubblewrap and under the fallback, and `git status`
// / `git log` through the git skill (two git processes per call: the config check and the
// command), N calls each after a warm-up, and prints the mean and p95 in milliseconds.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bootGateway } from '../test/gateway/helpers.ts';

const N = Number(process.argv[2] ?? 40);

async function measure(label: string, fn: () => Promise<unknown>) {
  for (let i = 0; i < 5; i++) await fn();
  const t: number[] = [];
  for (let i = 0; i < N; i++) {
    const s = performance.now();
    await fn();
    t.push(performance.now() - s);
  }
  t.sort((a, b) => a - b);
  const mean = t.reduce((a, b) => a + b, 0) / t.length;
  console.log(
    `${label.padEnd(28)} mean ${mean.toFixed(1).padStart(6)} ms   p95 ${t[Math.floor(t.length * 0.95)].toFixed(1).padStart(6)} ms   (${N} calls)`,
  );
}

for (const sandbox of ['auto', 'fallback'] as const) {
  const g = await bootGateway({ only: ['gateway-core', 'skill-shell', 'skill-git'], config: { plugins: { 'skill-shell': { sandbox } } } });
  const ctx = { sessionId: 'bench', tenant: null, signal: new AbortController().signal, workspace: g.workspace };
  const mode = (await g.kernel.registry.skill('shell')!.call({ program: 'echo', args: ['x'] }, ctx)).output as { sandbox: string };
  await measure(`shell echo (${mode.sandbox})`, () => g.kernel.registry.skill('shell')!.call({ program: 'echo', args: ['hi'] }, ctx));
  if (sandbox === 'auto') {
    fs.writeFileSync(path.join(g.workspace, 'a.txt'), 'a\n');
    const env = { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@x', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@x' };
    for (const a of [
      ['init', '-q'],
      ['add', 'a.txt'],
      ['commit', '-q', '-m', 'one'],
    ])
      execFileSync('git', a, { cwd: g.workspace, env });
    await measure('git status (safe-git)', () => g.kernel.registry.skill('git')!.call({ op: 'status' }, ctx));
    await measure('git log (safe-git)', () => g.kernel.registry.skill('git')!.call({ op: 'log' }, ctx));
  }
  await g.close();
}
