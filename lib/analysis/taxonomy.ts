// Maps what external tools say (SWC ids, rule ids, titles) onto the DASP categories our findings
// use. Rule vocabularies differ per tool, so the explicit SWC table wins and keyword rules
// over the rule id and title are the fallback.
import type { Category, Severity } from '../../schemas/finding.ts';

const SWC_CATEGORY: Record<string, Category> = {
  '100': 'access_control', // function default visibility
  '101': 'arithmetic',
  '104': 'unchecked_low_level_calls',
  '105': 'access_control', // unprotected ether withdrawal
  '106': 'access_control', // unprotected selfdestruct
  '107': 'reentrancy',
  '108': 'access_control',
  '112': 'access_control', // delegatecall to untrusted callee
  '113': 'denial_of_service',
  '114': 'front_running',
  '115': 'access_control', // tx.origin
  '116': 'time_manipulation',
  '118': 'access_control', // incorrect constructor name
  '120': 'bad_randomness',
  '124': 'access_control', // arbitrary storage write
  '126': 'denial_of_service', // insufficient gas griefing
  '128': 'denial_of_service', // block gas limit
  '129': 'other',
  '130': 'other',
  '110': 'other', // assert violation
  '103': 'other', // floating pragma
  '109': 'other', // uninitialized storage pointer
  '111': 'other', // deprecated functions
};

const SWC_CWE: Record<string, string> = {
  '100': 'CWE-710',
  '101': 'CWE-682',
  '104': 'CWE-252',
  '105': 'CWE-284',
  '106': 'CWE-284',
  '107': 'CWE-841',
  '108': 'CWE-710',
  '110': 'CWE-670',
  '112': 'CWE-829',
  '113': 'CWE-703',
  '114': 'CWE-362',
  '115': 'CWE-477',
  '116': 'CWE-829',
  '120': 'CWE-330',
  '124': 'CWE-123',
  '128': 'CWE-400',
};

/** "SWC-107", "107", 107 -> "107" */
export function swcNumber(swc: unknown): string | null {
  if (swc == null) return null;
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- tool output of any shape ("SWC-107", 107, ...) is read as text
  const m = /(\d{3})/.exec(String(swc));
  return m ? m[1] : null;
}

export function swcId(swc: unknown): string | null {
  const n = swcNumber(swc);
  return n ? `SWC-${n}` : null;
}

export function cweForSwc(swc: unknown): string | null {
  const n = swcNumber(swc);
  return n ? (SWC_CWE[n] ?? null) : null;
}

const KEYWORDS: Array<[RegExp, Category]> = [
  [/reentr|re-entr/i, 'reentrancy'],
  [/short[-_ ]?address/i, 'short_addresses'],
  [/overflow|underflow|arithmetic|integer|divide[-_ ]before|division|precision/i, 'arithmetic'],
  [/unchecked|low[-_ ]?level|unused[-_ ]return|return[-_ ]value|send[-_ ]result|call[-_ ]result/i, 'unchecked_low_level_calls'],
  [/random|prng|blockhash|block[-_ ]hash|prevrandao|difficulty/i, 'bad_randomness'],
  [/timestamp|block[-_ ]time|\bnow\b|block\.number/i, 'time_manipulation'],
  [/front[-_ ]?run|race|transaction[-_ ]order|approve|erc20[-_ ]approve|sandwich|slippage/i, 'front_running'],
  [/\bdos\b|denial|gas[-_ ]limit|loop|unbounded|costly|griefing|calls[-_ ]loop/i, 'denial_of_service'],
  [
    /tx[-_.]?origin|access|owner|auth|suicid|selfdestruct|self[-_ ]destruct|arbitrary[-_ ]send|unprotected|delegatecall|visibility|privilege|permission|initiali[sz]/i,
    'access_control',
  ],
];

export function categoryFromText(...texts: Array<string | null | undefined>): Category {
  const t = texts.filter(Boolean).join(' ');
  for (const [re, c] of KEYWORDS) if (re.test(t)) return c;
  return 'other';
}

export function categoryFor(swc: unknown, ...texts: Array<string | null | undefined>): Category {
  const n = swcNumber(swc);
  if (n && SWC_CATEGORY[n]) return SWC_CATEGORY[n];
  return categoryFromText(...texts);
}

/** Tool severity words (High, medium, ERROR, warning, Informational, Optimization...) to ours. */
export function severityFromText(s: unknown, fallback: Severity = 'MEDIUM'): Severity {
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- tool output of any shape is read as text
  const t = String(s ?? '').toLowerCase();
  if (/crit/.test(t)) return 'CRITICAL';
  if (/high|error|severe/.test(t)) return 'HIGH';
  if (/med|warn/.test(t)) return 'MEDIUM';
  if (/low|minor/.test(t)) return 'LOW';
  if (/info|optim|note|nc|gas|style/.test(t)) return 'INFO';
  return fallback;
}

/** Tool confidence words to 0..1. */
export function confidenceFromText(s: unknown, fallback = 0.5): number {
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- tool output of any shape is read as text
  const t = String(s ?? '').toLowerCase();
  if (/high|certain/.test(t)) return 0.85;
  if (/med/.test(t)) return 0.6;
  if (/low|tentative/.test(t)) return 0.35;
  return fallback;
}

export const CATEGORY_RECOMMENDATION: Record<Category, string> = {
  reentrancy: 'Apply checks-effects-interactions (update state before external calls) or a reentrancy guard.',
  access_control: 'Restrict the function to authorised callers (msg.sender checks / onlyOwner) and set visibility explicitly.',
  arithmetic: 'Use checked arithmetic (Solidity >= 0.8 or SafeMath) and bound the operands.',
  unchecked_low_level_calls: 'Check the success value of low-level calls and send(); revert or handle the failure.',
  denial_of_service: 'Avoid unbounded loops and push payments to many recipients; favour pull payments.',
  bad_randomness: 'Do not derive randomness from block data; use commit-reveal or a verifiable random oracle.',
  front_running: 'Make the outcome independent of transaction order (commit-reveal, slippage limits, approve-to-zero first).',
  time_manipulation: 'Do not use block.timestamp for randomness or tight deadlines; tolerate miner drift.',
  short_addresses: 'Validate msg.data length for functions taking addresses and amounts.',
  other: 'Review the reported code path and add the missing check.',
};
