// The output guardrails on a model's answer, as a client meets them. The synchronous chat
// endpoint returns the answer whole, so it is checked once, whole, when the model has finished;
// the SSE stream is checked sentence by sentence before each sentence goes out, so nothing is
// sent unchecked. Either way a redaction lands exactly where the PII was and a blocked answer
// is a 403 guardrail_blocked (an `error` event on the stream) with nothing of the answer stored.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { bootGateway, parseSse } from './helpers.ts';
import { fakeProviderConfig, startFakeProvider, textReply, type FakeProvider } from './fake-openai.ts';

let fake: FakeProvider;
let g: Awaited<ReturnType<typeof bootGateway>>;

before(async () => {
  fake = await startFakeProvider();
  g = await bootGateway({ extra: ['guardrail-pii', 'guardrail-toxicity'], config: fakeProviderConfig(fake) });
});
after(async () => {
  await g.close();
  fake.close();
});

const post = (url: string, message: string) => g.kernel.gateway.inject({ method: 'POST', url, payload: { message } });
const chat = (message: string) => post('/api/v1/agent/chat', message);
const stream = (message: string) => post('/api/v1/chat/stream', message);
const stored = async (sessionId: string) => (await g.kernel.store.getMessages(sessionId)).filter((m) => m.role === 'assistant');

// Five sentences; the third holds an e-mail address, the fifth a card number (Luhn-valid).
const PII_ANSWER =
  'The audit found two issues. Both are in the vault contract. ' +
  'Send questions to jane.doe@example.com before Friday. The fix is a reentrancy guard. ' +
  'Billing uses card 4111 1111 1111 1111 as agreed.';
const PII_REDACTED =
  'The audit found two issues. Both are in the vault contract. ' +
  'Send questions to [EMAIL] before Friday. The fix is a reentrancy guard. ' +
  'Billing uses card [CREDIT_CARD] as agreed.';
// Four sentences; the second is hate against a group, which the toxicity layer blocks.
const TOXIC_ANSWER = 'Here is the summary you asked for. Refugees are cockroaches. The rest is fine. Thanks.';

describe('synchronous chat: the answer is checked whole', () => {
  test('PII in the third and fifth sentences is redacted in place; the rest is untouched', async () => {
    fake.script = [textReply(PII_ANSWER)];
    const r = await chat('summarise the audit');
    assert.equal(r.statusCode, 200, r.body);
    const b = r.json();
    assert.equal(b.response, PII_REDACTED);
    const out = b.guardrails.filter((e: any) => e.direction === 'output');
    assert.deepEqual(out, [{ direction: 'output', action: 'redact', layer: 'pii', kinds: ['email', 'credit_card_visa'] }]);
    // What is stored is what the client got.
    assert.deepEqual(
      (await stored(b.session_id)).map((m) => m.content),
      [PII_REDACTED],
    );
  });

  test('a blocked sentence blocks the whole answer: 403 guardrail_blocked, nothing of it returned or stored', async () => {
    fake.script = [textReply(TOXIC_ANSWER)];
    const before = new Set((await g.kernel.store.listSessions({ tenant: null, limit: 1000 })).map((s) => s.id));
    const r = await chat('summarise the audit');
    assert.equal(r.statusCode, 403, r.body);
    const b = r.json();
    assert.equal(b.code, 'guardrail_blocked');
    assert.match(b.error, /answer was blocked by the toxicity guardrail/);
    assert.deepEqual(b.details, { layer: 'toxicity', direction: 'output' });
    assert.ok(!r.body.includes('summary you asked') && !r.body.includes('cockroaches'), r.body);
    const session = (await g.kernel.store.listSessions({ tenant: null, limit: 1000 })).find((s) => !before.has(s.id));
    assert.ok(session, 'the turn is kept');
    assert.deepEqual(
      (await stored(session.id)).map((m) => m.content),
      ['[answer withheld by the toxicity guardrail]'],
    );
  });
});

// The toxicity layer's counter-speech words count only in the sentence of a hit, so a whole
// answer is held to what its sentences alone are (a damper elsewhere used to unblock it).
test('synchronous chat: a counter-speech word in another sentence does not unblock hate', async () => {
  const answer = 'Here is the summary. Refugees are cockroaches. Calling that racism would be unfair.';
  fake.script = [textReply(answer)];
  const evs = parseSse((await stream('summarise the audit')).body);
  assert.equal(evs.at(-1)!.data.code, 'guardrail_blocked', 'the stream blocks it');
  fake.script = [textReply(answer)];
  const r = await chat('summarise the audit');
  assert.equal(r.statusCode, 403, r.body);
});

describe('SSE stream: each sentence is checked before it is sent', () => {
  test('sentences stream word by word; the ones with PII go out redacted, in one piece', async () => {
    fake.script = [textReply(PII_ANSWER)];
    const evs = parseSse((await stream('summarise the audit')).body);
    const deltas = evs.filter((e) => e.event === 'delta').map((e) => e.data.text as string);
    assert.equal(deltas.join(''), PII_REDACTED);
    assert.equal(evs.at(-1)!.event, 'done');
    assert.equal(evs.at(-1)!.data.response, PII_REDACTED);
    // Clean sentences keep the provider's word-by-word chunks; a redacted one is one chunk.
    assert.deepEqual(deltas.slice(0, 5), ['The ', 'audit ', 'found ', 'two ', 'issues. ']);
    assert.ok(deltas.includes('Send questions to [EMAIL] before Friday. '), JSON.stringify(deltas));
    assert.ok(!deltas.some((d) => d.includes('jane.doe') || d.includes('4111')));
    // One finding per checked sentence.
    const out = evs.filter((e) => e.event === 'guardrail' && e.data.direction === 'output').map((e) => e.data.kinds);
    assert.deepEqual(out, [['email'], ['credit_card_visa']]);
  });

  test('a blocked sentence ends the stream with an error event; the sentences before it were sent, none after', async () => {
    fake.script = [textReply(TOXIC_ANSWER)];
    const evs = parseSse((await stream('summarise the audit')).body);
    const sent = evs
      .filter((e) => e.event === 'delta')
      .map((e) => e.data.text)
      .join('');
    assert.equal(sent, 'Here is the summary you asked for. ');
    const last = evs.at(-1)!;
    assert.equal(last.event, 'error');
    assert.equal(last.data.code, 'guardrail_blocked');
    assert.deepEqual(last.data.details, { layer: 'toxicity', direction: 'output' });
  });
});
