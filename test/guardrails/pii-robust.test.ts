// PII that survives obfuscation: the bypasses from issue 17 are caught with exact spans on the
// original text, phone numbers are checked by libphonenumber-js, names come from a multi-locale
// gazetteer plus context, and the layer reaches F1 >= 0.85 per entity on a generated set.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runGuardrails } from '../../plugins/gateway-core/agent/chain.ts';
import { createPiiGuardrail, findPii, piiDefaults } from '../../plugins/guardrail-pii/pii.ts';
import { normalizePii, originalSpan } from '../../plugins/guardrail-pii/pii-normalize.ts';
import { buildPiiEvalSet, scorePii } from '../../plugins/guardrail-pii/eval-set.ts';
import type { GuardrailFinding } from '../../kernel/index.ts';

const pii = createPiiGuardrail();
const found = (t: string) =>
  (pii.check(t, 'input') as { findings: GuardrailFinding[] }).findings.map((f) => [f.kind, t.slice(f.start, f.end)]);

describe('pii bypasses', () => {
  it('catches every bypass of the issue, with the span on the original text', () => {
    assert.deepEqual(found('card 4111.1111.1111.1111 please'), [['credit_card_visa', '4111.1111.1111.1111']]);
    assert.deepEqual(found('card ４１１１ １１１１ １１１１ １１１１'), [['credit_card_visa', '４１１１ １１１１ １１１１ １１１１']]);
    assert.deepEqual(found('card ٤١١١ ١١١١ ١١١١ ١١١١'), [['credit_card_visa', '٤١١١ ١١١١ ١١١١ ١١١١']]);
    assert.deepEqual(found('card ४१११ ११११ ११११ ११११'), [['credit_card_visa', '४१११ ११११ ११११ ११११']]);
    assert.deepEqual(found('write to john.doe (at) example (dot) com today'), [['email', 'john.doe (at) example (dot) com']]);
    assert.deepEqual(found('write to john.doe [at] example [dot] com'), [['email', 'john.doe [at] example [dot] com']]);
    assert.deepEqual(found('my SSN is 123 45 6789'), [['us_ssn', '123 45 6789']]);
    assert.deepEqual(found('ssn 123.45.6789 and 123_45_6789'), [
      ['us_ssn', '123.45.6789'],
      ['us_ssn', '123_45_6789'],
    ]);
    assert.deepEqual(found('card 4111\u200b1111\u200b1111\u200b1111'), [['credit_card_visa', '4111\u200b1111\u200b1111\u200b1111']]);
  });

  it('redacts them in the chain, leaving the rest of the text as it was', async () => {
    const layers = [{ guardrail: pii, mode: 'redact' as const }];
    const r = await runGuardrails(
      layers,
      'Pay with ４１１１ １１１１ １１１１ １１１１ and mail john.doe (at) example (dot) com, thanks',
      'input',
    );
    assert.equal(r.redacted_text, 'Pay with [CREDIT_CARD] and mail [EMAIL], thanks');
  });

  it('maps normalised offsets back exactly, astral characters included', () => {
    const t = '😀 ４２ x\u200by (at) z (dot) io';
    const n = normalizePii(t);
    assert.equal(n.text, '😀 42 xy@z.io');
    const i = n.text.indexOf('xy@z.io');
    const [a, b] = originalSpan(n, i, i + 'xy@z.io'.length);
    assert.equal(t.slice(a, b), 'x\u200by (at) z (dot) io');
  });
});

describe('phone numbers', () => {
  it('finds international and national formats that libphonenumber-js validates', () => {
    for (const p of [
      '+44 20 7946 0958',
      '+49 30 1234567',
      '0151 23456789',
      '020 7946 0958',
      '(415) 555-2671',
      '415.555.2671',
      '+33 6 12 34 56 78',
      '+91 98765 43210',
      '0049 30 1234567',
    ]) {
      assert.deepEqual(found(`reach me on ${p} tomorrow`), [['phone', p]], p);
    }
    assert.deepEqual(found('Mi número es 612 34 56 78.'), [['phone', '612 34 56 78']]);
    // "my number is" names a phone even for a national number of a country the layer does not try,
    // in any digits; "the order number is" does not.
    for (const p of ['0799123456', '٠٧٩٩١٢٣٤٥٦', '+٤٤ ٧٧٠٠ ٩٠٠١٢٣']) assert.deepEqual(found(`My number is ${p}.`), [['phone', p]], p);
    assert.deepEqual(found('The order number is 1234-5678-9012 and it shipped.'), []);
  });
  it('leaves dates, versions, amounts, IDs and addresses alone', () => {
    for (const t of [
      'released 2024-03-18 as 2.14.3',
      'total 1 234 567 units',
      'order 20240115123045',
      'kernel 6.8.0-45',
      'Aadhaar 2341 2341 2347',
      'NIR 2 84 05 75 120 005 32',
      'the commit is 4111111111111111a7, build 0x4111111111111111',
    ]) {
      assert.deepEqual(found(t), [], t);
    }
  });
});

describe('names', () => {
  it('finds names from many locales by the gazetteer', () => {
    assert.deepEqual(
      found('Zainab Okafor met Søren Kjær and Nguyễn Văn An in Lagos.').map((x) => x[1]),
      ['Zainab Okafor', 'Søren Kjær', 'Nguyễn Văn An'],
    );
    assert.deepEqual(
      found('Yesterday Lara Kiss and Alex Gal signed it.').map((x) => x[1]),
      ['Lara Kiss', 'Alex Gal'],
    );
  });
  it('finds names it has no list for after a greeting that opens the sentence', () => {
    assert.deepEqual(
      found('Dear Xiomara Castellanos, your visit is confirmed. Thanks Saoirse Gallagher!').map((x) => x[1]),
      ['Xiomara Castellanos', 'Saoirse Gallagher'],
    );
    for (const t of ['Hello World is the first program.', 'Thanks Team, great sprint.', 'Ask Siri to set a timer.']) {
      assert.deepEqual(found(t), [], t);
    }
  });
  it('does not take projects, products, pets or everyday capitalised words for people', () => {
    for (const t of [
      'remember: my project is called Falcon',
      'Our startup named Jasper raised a round.',
      'my dog is called Max',
      'The repo is named Atlas.',
      'Our product Atlas now supports dark mode.',
      'The app Jasper is down again.',
      'Memory allocated per message fell. Before this round it was 388 KB; 0.3 ms. Per-message cost',
    ]) {
      assert.deepEqual(found(t), [], t);
    }
    assert.deepEqual(
      found('My name is Falcon Jones.').map((x) => x[1]),
      ['Falcon Jones'],
    );
  });
});

describe('names the gazetteer lacks or that are everyday words (session 10)', () => {
  it("keeps an unknown given name before a known surname or an O'/Mc/Mac surname", () => {
    assert.deepEqual(
      found('Eberhard Schulze approved it; Ifeoma Nwosu and Ciarán McAllister will sign.').map((x) => x[1]),
      ['Eberhard Schulze', 'Ifeoma Nwosu', 'Ciarán McAllister'],
    );
  });
  it('reads a full name after "ask/tell" or "<done> by" even when both words are everyday words', () => {
    assert.deepEqual(
      found('Tell Ngozi Adeyemi the parcel arrived. Minutes taken by Faith Fisher.').map((x) => x[1]),
      ['Ngozi Adeyemi', 'Faith Fisher'],
    );
    assert.deepEqual(
      found('Could you ask Ivy Cooper to review it?').map((x) => x[1]),
      ['Ivy Cooper'],
    );
    assert.deepEqual(
      found('Report prepared by Dr. Amara Diallo.').map((x) => x[1]),
      ['Amara Diallo'],
    );
  });
  it('does not take a pet or "the <name> line" for a person', () => {
    for (const t of [
      'Our parrot Oscar learnt a new word.',
      'Change at the Jubilee line and then the Victoria line.',
      'My cat Luna sleeps all day.',
    ])
      assert.deepEqual(found(t), [], t);
  });
  it('finds an IBAN typed in lower case and stops it before the next word', () => {
    assert.deepEqual(found('iban nl91 abna 0417 1643 00 please'), [['iban', 'nl91 abna 0417 1643 00']]);
    assert.deepEqual(found('send it to de89370400440532013000 thanks'), [['iban', 'de89370400440532013000']]);
  });
});

describe('evaluation set', () => {
  it('F1 >= 0.85 for every entity on a generated multi-locale set', () => {
    const scores = scorePii(buildPiiEvalSet(7, 260), (t) => findPii(t, piiDefaults));
    for (const e of ['person', 'email', 'phone', 'credit_card', 'iban', 'national_id', 'ip_address']) {
      assert.ok(scores[e], `${e} present in the set`);
      assert.ok(scores[e].f1 >= 0.85, `${e}: ${JSON.stringify(scores[e])}`);
    }
  });
});
