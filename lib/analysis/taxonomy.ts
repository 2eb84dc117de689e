// The one table of weakness names: the finding categories (the DASP Top 10 classes), the SWC
// registry entries we use with the CWE each one lists, and how an SWC id maps to a category.
// Detectors, external-tool adapters, the ML labels, the benchmarks and SARIF all read it;
// test/engine/taxonomy.test.ts checks every detector's metadata against it.
import { CATEGORIES, type Category, type Severity } from '../../schemas/finding.ts';

export { CATEGORIES, type Category };

export interface CategoryInfo {
  /** DASP Top 10 (2018) class the category is. */
  dasp: string;
  /** Words used in reports ("access control"). */
  label: string;
  /** The SWC id a finding of this category names when the tool that found it gives none. */
  swc: string | null;
}

export const CATEGORY: Record<Category, CategoryInfo> = {
  reentrancy: { dasp: 'DASP-1 Reentrancy', label: 'reentrancy', swc: 'SWC-107' },
  access_control: { dasp: 'DASP-2 Access Control', label: 'access control', swc: 'SWC-105' },
  arithmetic: { dasp: 'DASP-3 Arithmetic Issues', label: 'arithmetic', swc: 'SWC-101' },
  unchecked_low_level_calls: { dasp: 'DASP-4 Unchecked Return Values', label: 'unchecked low level calls', swc: 'SWC-104' },
  denial_of_service: { dasp: 'DASP-5 Denial of Service', label: 'denial of service', swc: 'SWC-128' },
  bad_randomness: { dasp: 'DASP-6 Bad Randomness', label: 'bad randomness', swc: 'SWC-120' },
  front_running: { dasp: 'DASP-7 Front-Running', label: 'front running', swc: 'SWC-114' },
  time_manipulation: { dasp: 'DASP-8 Time Manipulation', label: 'time manipulation', swc: 'SWC-116' },
  short_addresses: { dasp: 'DASP-9 Short Address Attack', label: 'short addresses', swc: null },
  other: { dasp: 'DASP-10 Unknown Unknowns', label: 'other', swc: null },
};

export interface SwcEntry {
  title: string;
  /** The CWE the SWC registry lists for the entry (its swc-definition.json export). */
  cwe: string;
  /**
   * More specific CWEs a rule may name instead for the weakness it reports under this SWC id
   * (integer overflow is CWE-190, a child of the registry's CWE-682 "Incorrect Calculation";
   * a narrowing conversion that drops high bits is CWE-197, "Numeric Truncation Error").
   */
  alsoCwe?: string[];
  /** Category of every finding with this SWC id; null: the rule decides (the entry spans several). */
  category: Category | null;
}

/** SWC registry entries by number. */
export const SWC: Record<string, SwcEntry> = {
  '100': { title: 'Function Default Visibility', cwe: 'CWE-710', category: 'access_control' },
  '101': { title: 'Integer Overflow and Underflow', cwe: 'CWE-682', alsoCwe: ['CWE-190', 'CWE-197'], category: 'arithmetic' },
  '102': { title: 'Outdated Compiler Version', cwe: 'CWE-937', category: null },
  '103': { title: 'Floating Pragma', cwe: 'CWE-664', category: 'other' },
  '104': { title: 'Unchecked Call Return Value', cwe: 'CWE-252', category: 'unchecked_low_level_calls' },
  '105': { title: 'Unprotected Ether Withdrawal', cwe: 'CWE-284', alsoCwe: ['CWE-697'], category: 'access_control' },
  '106': { title: 'Unprotected SELFDESTRUCT Instruction', cwe: 'CWE-284', category: 'access_control' },
  '107': { title: 'Reentrancy', cwe: 'CWE-841', category: 'reentrancy' },
  '108': { title: 'State Variable Default Visibility', cwe: 'CWE-710', category: 'access_control' },
  '109': { title: 'Uninitialized Storage Pointer', cwe: 'CWE-824', alsoCwe: ['CWE-457'], category: 'other' },
  '110': { title: 'Assert Violation', cwe: 'CWE-670', category: 'other' },
  '111': { title: 'Use of Deprecated Solidity Functions', cwe: 'CWE-477', category: 'other' },
  '112': { title: 'Delegatecall to Untrusted Callee', cwe: 'CWE-829', category: 'access_control' },
  '113': { title: 'DoS with Failed Call', cwe: 'CWE-703', alsoCwe: ['CWE-400'], category: 'denial_of_service' },
  '114': { title: 'Transaction Order Dependence', cwe: 'CWE-362', category: 'front_running' },
  '115': { title: 'Authorization through tx.origin', cwe: 'CWE-477', category: 'access_control' },
  '116': { title: 'Block values as a proxy for time', cwe: 'CWE-829', category: 'time_manipulation' },
  '117': { title: 'Signature Malleability', cwe: 'CWE-347', alsoCwe: ['CWE-252'], category: null },
  '118': { title: 'Incorrect Constructor Name', cwe: 'CWE-665', category: 'access_control' },
  '119': { title: 'Shadowing State Variables', cwe: 'CWE-710', category: null },
  '120': { title: 'Weak Sources of Randomness from Chain Attributes', cwe: 'CWE-330', category: 'bad_randomness' },
  '121': { title: 'Missing Protection against Signature Replay Attacks', cwe: 'CWE-347', alsoCwe: ['CWE-294', 'CWE-613'], category: null },
  '122': { title: 'Lack of Proper Signature Verification', cwe: 'CWE-345', category: null },
  '123': { title: 'Requirement Violation', cwe: 'CWE-573', category: null },
  '124': { title: 'Write to Arbitrary Storage Location', cwe: 'CWE-123', category: 'access_control' },
  '125': { title: 'Incorrect Inheritance Order', cwe: 'CWE-696', category: null },
  '126': { title: 'Insufficient Gas Griefing', cwe: 'CWE-691', category: 'denial_of_service' },
  '127': { title: 'Arbitrary Jump with Function Type Variable', cwe: 'CWE-695', category: null },
  '128': { title: 'DoS With Block Gas Limit', cwe: 'CWE-400', alsoCwe: ['CWE-834'], category: 'denial_of_service' },
  '129': { title: 'Typographical Error', cwe: 'CWE-480', category: 'other' },
  '130': { title: 'Right-To-Left-Override control character (U+202E)', cwe: 'CWE-451', category: 'other' },
  '131': { title: 'Presence of unused variables', cwe: 'CWE-1164', category: null },
  '132': { title: 'Unexpected Ether balance', cwe: 'CWE-667', category: null },
  '133': { title: 'Hash Collisions With Multiple Variable Length Arguments', cwe: 'CWE-294', category: null },
  '134': { title: 'Message call with hardcoded gas amount', cwe: 'CWE-655', category: null },
  '135': { title: 'Code With No Effects', cwe: 'CWE-1164', alsoCwe: ['CWE-563'], category: null },
  '136': { title: 'Unencrypted Private Data On-Chain', cwe: 'CWE-767', category: null },
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
  return n ? (SWC[n]?.cwe ?? null) : null;
}

/** The category every finding with this SWC id has, or null when the id spans several. */
export function swcCategory(swc: unknown): Category | null {
  const n = swcNumber(swc);
  return n ? (SWC[n]?.category ?? null) : null;
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
  return swcCategory(swc) ?? categoryFromText(...texts);
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
