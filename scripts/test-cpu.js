// Preloaded into every test process by run-tests.js when VIGIL_TEST_CPU_LOG names a file: at exit,
// appends one JSON line with the test file, its CPU seconds (user and system, all the process's
// threads: the worker pool included) and its wall seconds.
// Wall time on a shared machine says little; CPU time is what the suite's budget is made of.
import fs from 'node:fs';
import path from 'node:path';

const log = process.env.VIGIL_TEST_CPU_LOG;
if (log) {
  const file = path.relative(process.cwd(), process.argv[1] ?? '');
  process.on('exit', () => {
    const u = process.cpuUsage();
    const line = { file, user: u.user / 1e6, system: u.system / 1e6, wall: process.uptime() };
    fs.appendFileSync(log, JSON.stringify(line) + '\n');
  });
}
