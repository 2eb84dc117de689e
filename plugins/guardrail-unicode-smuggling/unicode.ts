// Unicode-smuggling layer: Unicode tag characters (U+E0000 block, which can carry an invisible
// ASCII message and always block), variation-selector smuggling, bidi overrides and isolates
// (Trojan Source), zero-width and other invisible characters, and words that mix Latin with
// Cyrillic/Greek look-alikes. In redact mode invisibles are stripped and mixed-script words are
// folded to Latin. Left alone: a zero-width joiner inside an emoji sequence, ZWNJ/ZWJ between
// letters of scripts that need them (Arabic, Persian, Indic), a single emoji variation selector,
// a byte-order mark at the very start, and words that are wholly Cyrillic or Greek.
import type { GuardrailFinding } from '../../kernel/index.ts';
import { defineLayer } from '../../lib/guardrails/layer.ts';
import { CONFUSABLES } from '../../lib/guardrails/normalize.ts';

export interface UnicodeSettings extends Record<string, unknown> {
  /** Fold mixed-script look-alike words (homoglyph attacks). */
  homoglyphs: boolean;
}
export const unicodeDefaults: UnicodeSettings = { homoglyphs: true };

const PICTO = /\p{Extended_Pictographic}|\p{Emoji_Modifier}|[\u{1F1E6}-\u{1F1FF}]/u;
const JOINING_SCRIPTS =
  /[\p{Script=Arabic}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Gurmukhi}\p{Script=Gujarati}\p{Script=Oriya}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Sinhala}\p{Script=Syriac}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Thai}\p{Script=Lao}\p{Script=Tibetan}\p{Script=Mongolian}]/u;

const LOOKALIKE_SCRIPT = /[\u0370-\u03ff\u0400-\u052f\u0250-\u02af]/;

function cpAt(text: string, i: number): string {
  const cp = text.codePointAt(i);
  return cp === undefined ? '' : String.fromCodePoint(cp);
}
function cpBefore(text: string, i: number): string {
  if (i <= 0) return '';
  const c = text.charCodeAt(i - 1);
  return c >= 0xdc00 && c <= 0xdfff && i >= 2 ? text.slice(i - 2, i) : text[i - 1];
}

export function findUnicodeSmuggling(text: string, s: UnicodeSettings): GuardrailFinding[] {
  const out: GuardrailFinding[] = [];
  const add = (kind: string, start: number, end: number, score: number, replacement: string, block?: boolean) => {
    const last = out[out.length - 1];
    // Merge runs of the same kind into one finding.
    if (last && last.kind === kind && last.end === start && replacement === '') last.end = end;
    else out.push({ layer: 'unicode_smuggling', kind, start, end, score, replacement, block });
  };
  for (let i = 0; i < text.length;) {
    // Nothing below U+00AD (the soft hyphen) is reported: most text is passed over here.
    if (text.charCodeAt(i) < 0xad) {
      i++;
      continue;
    }
    const cp = text.codePointAt(i)!;
    const len = cp > 0xffff ? 2 : 1;
    if (cp >= 0xe0000 && cp <= 0xe007f) add('tag_characters', i, i + len, 1, '', true);
    else if (cp >= 0xe0100 && cp <= 0xe01ef) add('variation_selector_smuggling', i, i + len, 0.95, '', true);
    else if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) add('bidi_control', i, i + len, 0.9, '');
    else if (cp === 0x200e || cp === 0x200f || cp === 0x061c) {
      // Directional marks are normal in RTL text; alone in Latin text they hide reordering.
      if (!/[\p{Script=Arabic}\p{Script=Hebrew}]/u.test(text.slice(Math.max(0, i - 20), i + 20))) add('bidi_control', i, i + len, 0.7, '');
    } else if (cp === 0x200c || cp === 0x200d) {
      const prev = cpBefore(text, i);
      const next = cpAt(text, i + 1);
      const emoji = cp === 0x200d && PICTO.test(prev) && PICTO.test(next);
      const script = JOINING_SCRIPTS.test(prev) || JOINING_SCRIPTS.test(next);
      if (!emoji && !script) add('zero_width', i, i + len, 0.8, '');
    } else if (
      cp === 0x200b ||
      cp === 0x2060 ||
      cp === 0x180e ||
      (cp === 0xfeff && i > 0) ||
      (cp >= 0x2061 && cp <= 0x2064) ||
      cp === 0x115f ||
      cp === 0x1160 ||
      cp === 0x3164 ||
      cp === 0xffa0 ||
      cp === 0x00ad ||
      cp === 0x034f
    ) {
      add('zero_width', i, i + len, 0.8, '');
    } else if (cp >= 0xfe00 && cp <= 0xfe0f) {
      const prev = cpBefore(text, i);
      const next = cpAt(text, i + len);
      // One selector after an emoji or a symbol is ordinary; a run of them is a carrier.
      if (
        !(PICTO.test(prev) || /[\u2000-\u2bff\u3030\u303d\u3297\u3299#*0-9]/u.test(prev)) ||
        (next.codePointAt(0)! >= 0xfe00 && next.codePointAt(0)! <= 0xfe0f)
      )
        add('variation_selector', i, i + len, 0.8, '');
    }
    i += len;
  }
  // Only words holding a Cyrillic/Greek/IPA letter can mix scripts: skip the word scan (and its
  // allocations) for the many texts that have none.
  if (s.homoglyphs && LOOKALIKE_SCRIPT.test(text)) {
    const WORD = /[\p{L}\p{M}]+/gu;
    let m: RegExpExecArray | null;
    let c = 0;
    while ((m = WORD.exec(text)) && c++ < 5000) {
      const w = m[0];
      if (!/[A-Za-z]/.test(w) || !/[\u0370-\u03ff\u0400-\u052f\u0250-\u02af]/.test(w)) continue;
      let folded = '';
      let confusable = true;
      for (const ch of w) {
        if (/[A-Za-z]/.test(ch) || /\p{M}/u.test(ch)) folded += ch;
        else if (CONFUSABLES[ch]) folded += /\p{Lu}/u.test(ch) ? CONFUSABLES[ch].toUpperCase() : CONFUSABLES[ch];
        else {
          confusable = false;
          break;
        }
      }
      if (confusable)
        out.push({
          layer: 'unicode_smuggling',
          kind: 'mixed_script_confusable',
          start: m.index,
          end: m.index + w.length,
          score: 0.85,
          replacement: folded,
        });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

export function createUnicodeSmugglingGuardrail(overrides: Record<string, unknown> = {}) {
  return defineLayer<UnicodeSettings>(
    {
      name: 'unicode_smuggling',
      description:
        'Tag characters, variation-selector carriers, bidi overrides (Trojan Source), zero-width characters and mixed-script homoglyphs',
      defaultMode: 'redact',
      directions: ['input', 'output', 'tool_args', 'tool_result'],
      order: 10,
      defaults: unicodeDefaults,
      validate: (s) => ({ ...s, homoglyphs: s.homoglyphs !== false }),
      build: (s) => (text: string) => findUnicodeSmuggling(text, s),
    },
    overrides,
  );
}
