// floating-pragma: `pragma solidity ^0.4.24` lets the contract be deployed with any later
// compiler of the range than the one it was tested with, bringing in compiler bugs or changed
// semantics (SWC-103). Informational.
// Avoids false positives: exact versions and ranges with an upper bound below the next minor.
import { definePlugin } from '../../kernel/index.ts';
import type { StaticDetector } from '../../lib/analysis/static/index.ts';

export const floatingPragmaDetector: StaticDetector = {
  meta: {
    id: 'floating-pragma',
    title: 'Floating pragma',
    severity: 'INFO',
    confidence: 0.9,
    category: 'other',
    swc: 'SWC-103',
    cwe: 'CWE-664',
    description: 'The version pragma admits compilers other than the one the contract was tested with.',
    recommendation: 'Pin the compiler version (pragma solidity 0.8.24;) for deployable contracts.',
    exploit_scenario: 'A later compiler in the admitted range changes code generation or has a known bug that the contract was never tested against.',
    messages: { pragma: 'Pragma `{{value}}` is not locked to one compiler version.' },
  },
  create(context) {
    return {
      PragmaDirective(n) {
        if (n.name !== 'solidity') return;
        const value = String(n.value).replace(/\s+/g, ' ').trim();
        const floating = /[\^~]|>=?|\*|\bx\b/.test(value) && !/^=?\s*\d+\.\d+\.\d+$/.test(value);
        if (!floating) return;
        context.report({ node: n, messageId: 'pragma', data: { value } });
      },
    };
  },
};

export default definePlugin({
  setup(ctx) {
    ctx.registerDetector(floatingPragmaDetector);
  },
});
