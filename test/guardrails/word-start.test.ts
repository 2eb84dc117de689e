import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { execWord, WORD_START, wordRegex } from '../../lib/guardrails/word-start.ts';

const all = (src: string, text: string) => {
  const w = wordRegex(src, 'gu');
  w.re.lastIndex = 0;
  const out: Array<[number, string]> = [];
  let m: RegExpExecArray | null;
  while ((m = execWord(w, text))) out.push([m.index, m[0]]);
  return out;
};
const reference = (src: string, text: string) => [...text.matchAll(new RegExp(src, 'gu'))].map((m) => [m.index, m[0]] as [number, string]);

describe('word-start rules without a leading look-behind', () => {
  it('finds exactly what the look-behind pattern finds', () => {
    const cases: Array<[string, string]> = [
      [
        `${WORD_START}(?:ignore|forget) (?:all|the) rules`,
        'xignore all rules; ignore all rules, éforget the rules 忽forget the rules 😀ignore the rules',
      ],
      [`${WORD_START}ab|${WORD_START}b`, 'cab ab b xb'],
      [`${WORD_START}(?:a|b)c(?![\\p{L}])`, 'ac bc xac 1bc жac'],
      // Rule words inside longer words, several per word, astral letters and digits around them.
      [`${WORD_START}(?:ein|ei)n?`, 'keinen einen meinenein 𝐀ein 1ein -ein ein'],
      [`${WORD_START}(?:'|-)?ab`, "x'ab -ab x-ab ab 'ab"],
    ];
    for (const [src, text] of cases) {
      assert.equal(wordRegex(src, 'gu').checkStart, true, src);
      assert.deepEqual(all(src, text), reference(src, text), src);
    }
  });
  it('keeps the look-behind when a top-level alternative lacks it', () => {
    const src = `${WORD_START}ab|b`;
    assert.equal(wordRegex(src, 'gu').checkStart, false);
    assert.deepEqual(all(src, 'cab'), reference(src, 'cab'));
    // "|" inside a group or class is not top level
    assert.equal(wordRegex(`${WORD_START}(?:a|b)[|]`, 'gu').checkStart, true);
  });
});
