// What the throughput work must not change: the output gate releases the same sentences however
// the model chunks its text, new session ids are UUIDs that sort by creation time, and the SQLite
// group commit keeps every write's own outcome and read-your-writes order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OutputGate, WholeAnswerGate } from '../../plugins/gateway-core/agent/output-gate.ts';
import { sessionUuid } from '../../plugins/gateway-core/agent/runtime.ts';
import { SqliteStore } from '../../kernel/store/sqlite.ts';

async function gated(chunks: string[]): Promise<{ checked: string[]; emitted: string }> {
  const checked: string[] = [];
  let emitted = '';
  const gate = new OutputGate(
    async (seg) => {
      checked.push(seg);
      return seg;
    },
    (t) => (emitted += t),
  );
  for (const c of chunks) await gate.push(c);
  await gate.flush();
  return { checked, emitted };
}

/** The gate's cut points as first written (join the held text, rescan its tail on every chunk). */
function referenceSegments(chunks: string[]): string[] {
  const BOUNDARY = /[.!?](?=\s)|\n/g;
  const out: string[] = [];
  let buf = '';
  for (const text of chunks) {
    if (!text) continue;
    buf += text;
    let cut = -1;
    BOUNDARY.lastIndex = Math.max(0, buf.length - text.length - 1);
    for (let m = BOUNDARY.exec(buf); m; m = BOUNDARY.exec(buf)) cut = m.index + 1;
    if (cut < 0 && buf.length > 2000) {
      const ws = buf.lastIndexOf(' ', 2000);
      cut = ws > 0 ? ws + 1 : 2000;
    }
    if (cut <= 0) continue;
    while (cut < buf.length && /\s/.test(buf[cut])) cut++;
    out.push(buf.slice(0, cut));
    buf = buf.slice(cut);
  }
  if (buf) out.push(buf);
  return out;
}

test('output gate: the sentences checked are the same as before, whatever the chunking', async () => {
  const text = 'First one. Second: 1.5 units! Third?\nFourth line. Mail a.b@c.de now.  Fifth without end';
  const chunkings = [
    [text],
    text.match(/\s*\S+\s*/g)!,
    [...text],
    ['First one.', ' Second: 1.', '5 units!', ' Third?', '\nFourth', ' line.', ' Mail a.', 'b@c.de now.', '  Fifth without end'],
  ];
  for (const chunks of chunkings) {
    const r = await gated(chunks);
    assert.deepEqual(r.checked, referenceSegments(chunks), JSON.stringify(chunks));
    assert.equal(r.emitted, text);
  }
  // Token by token (how a provider streams), every sentence is checked on its own.
  assert.deepEqual((await gated(chunkings[1])).checked.slice(0, 3), ['First one. ', 'Second: 1.5 units! ', 'Third?\n']);
});

test('output gate: a long run without sentence ends is cut at a space', async () => {
  const words = Array.from({ length: 600 }, (_, i) => `w${i}`).join(' ');
  const chunks = words.match(/\s*\S+\s*/g)!;
  const r = await gated(chunks);
  assert.deepEqual(r.checked, referenceSegments(chunks));
  assert.equal(r.emitted, words);
  assert.ok(r.checked.length >= 2);
  assert.ok(r.checked.every((s) => s.length <= 2100));
  assert.equal(r.checked.join(''), words);
});

test('whole-answer gate: nothing is released before flush, which checks the joined text once', async () => {
  const checked: string[] = [];
  const emitted: string[] = [];
  const gate = new WholeAnswerGate(
    async (seg) => {
      checked.push(seg);
      return seg.replace('a.b@c.de', '[EMAIL]');
    },
    (t) => emitted.push(t),
  );
  for (const c of ['One. ', 'Mail a.', 'b@c.de now.', '', ' Three']) assert.equal(gate.push(c), undefined);
  assert.deepEqual([checked, emitted], [[], []]);
  await gate.flush();
  assert.deepEqual(checked, ['One. Mail a.b@c.de now. Three']);
  assert.deepEqual(emitted, ['One. Mail [EMAIL] now. Three']);
  await gate.flush(); // nothing held: no second check
  assert.equal(checked.length, 1);
  // A check that throws (a block) releases nothing.
  const blocked = new WholeAnswerGate(
    () => Promise.reject(new Error('blocked')),
    (t) => emitted.push(t),
  );
  blocked.push('Bad. ');
  await assert.rejects(blocked.flush(), /blocked/);
  assert.equal(emitted.length, 1);
});

test('session ids: UUIDv7, unique, ordered by creation time', () => {
  const ids = [sessionUuid(1_700_000_000_000), sessionUuid(1_700_000_000_001), sessionUuid(1_800_000_000_000)];
  for (const id of ids) assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.deepEqual([...ids].sort(), ids);
  const many = new Set(Array.from({ length: 1000 }, () => sessionUuid(1_700_000_000_000)));
  assert.equal(many.size, 1000);
});

test('SQLite group commit: writes of one tick commit together, each with its own outcome', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-gc-'));
  const store = SqliteStore.open(dir);
  try {
    // Queued without awaiting: a read right after sees them (it commits the queued writes first).
    const created = store.createSession({ id: 's1', tenant: null, meta: { title: 't' } });
    const appended = store.appendMessages('s1', [{ role: 'user', content: 'hi', data: null }]);
    assert.deepEqual(
      (await store.getMessages('s1')).map((m) => m.content),
      ['hi'],
    );
    await created;
    await appended;

    // In one batch: a duplicate session and messages for a missing session fail alone; the
    // writes around them are stored.
    const results = await Promise.allSettled([
      store.appendAudit({ tenant: null, type: 'a', outcome: 'info', detail: { n: 1 } }),
      store.createSession({ id: 's1', tenant: null }),
      store.appendMessages('missing', [{ role: 'user', content: 'lost', data: null }]),
      store.createSession({ id: 's2', tenant: null }),
      store.appendMessages('s2', [{ role: 'assistant', content: 'kept', data: { x: 1 } }]),
      store.putRecord('c', 'r', { v: 2 }),
      store.appendAudit({ tenant: null, type: 'b', outcome: 'info', detail: { n: 2 } }),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled'],
    );
    assert.equal((await store.getMessages('missing')).length, 0);
    assert.deepEqual(
      (await store.getMessages('s2')).map((m) => [m.content, m.data]),
      [['kept', { x: 1 }]],
    );
    assert.deepEqual(await store.getRecord('c', 'r'), { v: 2 });
    const events = await store.queryAudit({ tenant: null });
    assert.deepEqual(
      events.map((e) => e.type),
      ['a', 'b'],
    );
    assert.ok(events[0].id! < events[1].id!);

    // A value that cannot be stored is refused at once, not in the batch.
    await assert.rejects(store.putRecord('c', 'bad', { n: 1n }));
    assert.equal(await store.getRecord('c', 'bad'), null);
  } finally {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('SQLite group commit: writes queued at close are stored', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-gc-'));
  const store = SqliteStore.open(dir);
  const pending = store.appendAudit({ tenant: null, type: 'last', outcome: 'info', detail: {} });
  await store.close();
  assert.equal((await pending).type, 'last');
  const again = SqliteStore.open(dir);
  try {
    assert.deepEqual(
      (await again.queryAudit({ tenant: null })).map((e) => e.type),
      ['last'],
    );
  } finally {
    await again.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
