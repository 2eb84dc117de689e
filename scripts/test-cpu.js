// Preloaded into every test process by run-tests.js when VIGIL_TEST_CPU_LOG names a file: at exit,
// appends one JSON line with the test file, its CPU seconds (user and system, all the process's
// threads: the worker pool included), the CPU seconds of the child processes it spawned and
// waited for (a CLI test's `vigil` runs; Linux only, 0 elsewhere) and its wall seconds.
// Wall time on a shared machine says little; CPU time is what the suite's budget is made of.
import fs from 'node:fs';
import path from 'node:path';

/** cutime + cstime of /proc/self/stat (fields 16 and 17, in USER_HZ = 1/100 s ticks). */
function childrenCpu() {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return 0;
  }
}

const log = process.env.VIGIL_TEST_CPU_LOG;
if (log) {
  const file = path.relative(process.cwd(), process.argv[1] ?? '');
  process.on('exit', () => {
    const u = process.cpuUsage();
    const line = { file, user: u.user / 1e6, system: u.system / 1e6, children: childrenCpu(), wall: process.uptime() };
    fs.appendFileSync(log, JSON.stringify(line) + '\n');
  });
}
