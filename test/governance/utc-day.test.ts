// utcDay() remembers the last day it answered: the answer must still follow the clock across
// midnight, backwards (a test clock, a corrected system clock) and within the same day.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { utcDay } from '../../lib/gateway/governance/limits.ts';

test('utcDay follows the clock across midnight, backwards and within a day', () => {
  const at = (iso: string) => utcDay(new Date(iso));
  assert.equal(at('2026-03-01T23:59:59.999Z'), '2026-03-01');
  assert.equal(at('2026-03-02T00:00:00.000Z'), '2026-03-02');
  assert.equal(at('2026-03-01T12:00:00.000Z'), '2026-03-01', 'the clock went back a day');
  assert.equal(at('2026-03-01T00:00:00.000Z'), '2026-03-01');
  assert.equal(at('2026-02-28T23:59:59.999Z'), '2026-02-28');
  assert.equal(at('2024-02-29T10:00:00.000Z'), '2024-02-29');
  assert.equal(at('2024-03-01T00:00:00.001Z'), '2024-03-01');
  // Random instants against the uncached answer.
  let t = Date.UTC(2020, 0, 1);
  for (let i = 0; i < 2000; i++) {
    t += Math.floor(((i * 7919) % 1000) * 3_600_000 * (i % 3 === 0 ? -0.3 : 1));
    const d = new Date(t);
    assert.equal(utcDay(d), d.toISOString().slice(0, 10), d.toISOString());
  }
  assert.throws(() => utcDay(new Date(NaN)), RangeError);
});
