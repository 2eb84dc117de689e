// rtlo: Unicode bidirectional control characters (right-to-left override U+202E and the other
// embeddings, overrides and isolates) make an editor show code or comments in a different order
// than the compiler reads them, so a reviewer approves something else than what runs (SWC-130,
// "Trojan Source"). Reported once per line, wherever it occurs (code, strings or comments).
import { detectorPlugin, type StaticDetector } from '../../lib/analysis/static/index.ts';

const BIDI = /[\u202A-\u202E\u2066-\u2069]/;

export const rtloDetector: StaticDetector = {
  meta: {
    id: 'rtlo',
    title: 'Right-to-left override character in the source',
    severity: 'HIGH',
    confidence: 0.9,
    category: 'other',
    swc: 'SWC-130',
    cwe: 'CWE-451',
    description:
      'Bidirectional control characters reorder how the source is displayed; the code that compiles is not the code a reviewer sees.',
    recommendation: 'Remove every bidirectional control character (U+202A–U+202E, U+2066–U+2069) from the source.',
    exploit_scenario:
      'A comment containing U+202E makes `transfer(attacker, amount)` display as a harmless call in review; the compiled contract pays the attacker.',
    messages: { line: 'Line contains bidirectional control character U+{{code}}.' },
  },
  create(context) {
    return {
      SourceUnit() {
        const lines = context.source.split('\n');
        lines.forEach((l, i) => {
          const m = BIDI.exec(l);
          if (m)
            context.report({
              loc: { line: i + 1, end_line: i + 1 },
              messageId: 'line',
              data: { code: m[0].codePointAt(0)!.toString(16).toUpperCase() },
              contract: null,
              function: null,
            });
        });
      },
    };
  },
};

export const detectors = [rtloDetector];
export default detectorPlugin(detectors);
