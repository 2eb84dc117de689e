// `vigil serve` limit flags are validated before anything starts: a bad value exits 2 with a
// message naming the flag and the expected form.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { main } from '../../kernel/cli.ts';

function io() {
  let out = '';
  let err = '';
  return {
    io: {
      stdout: new Writable({ write: (c, _e, cb) => ((out += c), cb()) }),
      stderr: new Writable({ write: (c, _e, cb) => ((err += c), cb()) }),
    },
    get out() {
      return out;
    },
    get err() {
      return err;
    },
  };
}

const cases: Array<[string[], RegExp]> = [
  [['--bind', 'localhost'], /--bind must be host:port/],
  [['--bind', '127.0.0.1:99999'], /port 99999 is out of range/],
  [['--rate-limit-per-key', '60'], /--rate-limit-per-key must be COUNT\/UNIT/],
  [['--rate-limit-per-key', '60/fortnight'], /unit s, min, h or day/],
  [['--rate-limit-per-key', '0/min'], /count must be at least 1/],
  [['--max-concurrent-sessions', '0'], /--max-concurrent-sessions must be a positive integer/],
  [['--max-concurrent-sessions', 'ten'], /--max-concurrent-sessions must be a positive integer/],
  [['--token-quota-per-day', '-5'], /--token-quota-per-day must be a positive integer/],
  [['--token-quota-per-day', '1.5'], /--token-quota-per-day must be a positive integer/],
  [['--config', '/nonexistent/vigil.yaml'], /config file not found/],
];

for (const [args, msg] of cases) {
  test(`serve ${args.join(' ')} exits 2 with a clear message`, async () => {
    const c = io();
    const code = await main(['node', 'vigil', 'serve', ...args], c.io);
    assert.equal(code, 2);
    assert.match(c.err, msg);
  });
}
