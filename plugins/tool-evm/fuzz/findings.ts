// Turns replay-confirmed proofs into normalized findings whose evidence is the exact
// transaction sequence (replaySequence() re-runs it).
import type { Category, Finding, Severity } from '../../../schemas/finding.ts';
import { findingId, sliceLines } from '../../../lib/analysis/ids.ts';
import { functionLine } from '../../../lib/analysis/outline.ts';
import { evidenceOf, type Proof } from '../evm/replay.ts';
import type { World } from '../evm/world.ts';

export const TOOL_NAME = 'vigil-fuzz';

interface Kind {
  title: string;
  category: Category;
  severity: Severity;
  swc: string | null;
  cwe: string | null;
  recommendation: string;
}

function kindOf(p: Proof): Kind {
  switch (p.property) {
    case 'ether_drained':
      if (p.how === 'reentrancy') {
        return {
          title: 'Reentrancy drains ether (proved by a transaction sequence)',
          category: 'reentrancy',
          severity: 'CRITICAL',
          swc: 'SWC-107',
          cwe: 'CWE-841',
          recommendation:
            'Update balances before the external call (checks-effects-interactions), or guard the function with a reentrancy lock; prefer pull payments.',
        };
      }
      if (p.how === 'bad_randomness') {
        return {
          title: 'Attacker wins ether by predicting on-chain randomness (proved by a transaction sequence)',
          category: 'bad_randomness',
          severity: 'HIGH',
          swc: 'SWC-120',
          cwe: 'CWE-330',
          recommendation:
            'Do not derive outcomes from block values (blockhash, number, coinbase, prevrandao); use a commit-reveal scheme or a verifiable random function.',
        };
      }
      if (p.how === 'time_manipulation') {
        return {
          title: 'Attacker wins ether through a timestamp-dependent payout (proved by a transaction sequence)',
          category: 'time_manipulation',
          severity: 'HIGH',
          swc: 'SWC-116',
          cwe: 'CWE-829',
          recommendation: 'Do not decide payouts on block.timestamp, which the block producer chooses within a window.',
        };
      }
      return {
        title: 'Ether drained by a non-owner (proved by a transaction sequence)',
        category: 'access_control',
        severity: 'CRITICAL',
        swc: 'SWC-105',
        cwe: 'CWE-284',
        recommendation:
          "Restrict who can move the contract's ether (onlyOwner or per-user balances), and only pay out what the caller is owed.",
      };
    case 'owner_changed':
      return {
        title: 'Ownership taken over by a stranger (proved by a transaction sequence)',
        category: 'access_control',
        severity: 'CRITICAL',
        swc: 'SWC-105',
        cwe: 'CWE-284',
        recommendation:
          'Protect every function that writes the owner with the owner check, and make sure the constructor is a real constructor (the `constructor` keyword).',
      };
    case 'selfdestruct':
      return {
        title: 'Unprotected selfdestruct reached by a non-owner (proved by a transaction sequence)',
        category: 'access_control',
        severity: 'CRITICAL',
        swc: 'SWC-106',
        cwe: 'CWE-284',
        recommendation: 'Restrict selfdestruct to the owner (or remove it).',
      };
    case 'assertion_failure':
      return {
        title: 'Assertion failure reachable (proved by a transaction sequence)',
        category: 'other',
        severity: 'MEDIUM',
        swc: 'SWC-110',
        cwe: 'CWE-617',
        recommendation:
          'An assert must hold for every input and state; validate inputs with require, or fix the state invariant the assert expresses.',
      };
    case 'arithmetic_wrap':
      if (p.how === 'reentrancy') {
        return {
          title: 'Reentrancy makes a balance wrap around (proved by a transaction sequence)',
          category: 'reentrancy',
          severity: 'HIGH',
          swc: 'SWC-107',
          cwe: 'CWE-841',
          recommendation:
            'Update balances before the external call (checks-effects-interactions), or guard the function with a reentrancy lock; with checked arithmetic the re-entrant call would revert instead of wrapping.',
        };
      }
      return {
        title: 'Integer wrap-around written to storage (proved by a transaction sequence)',
        category: 'arithmetic',
        severity: 'HIGH',
        swc: 'SWC-101',
        cwe: 'CWE-190',
        recommendation: 'Check bounds before the operation (require) or use checked arithmetic (Solidity >= 0.8 or SafeMath).',
      };
    case 'denial_of_service':
      return {
        title: 'Denial of service: one participant can block the function for everyone (proved by a transaction sequence)',
        category: 'denial_of_service',
        severity: 'HIGH',
        swc: 'SWC-113',
        cwe: 'CWE-400',
        recommendation:
          'Do not push payments inside state transitions: record what is owed and let each recipient withdraw it (pull payments).',
      };
    case 'invariant_broken':
      return {
        title: 'User invariant broken (proved by a transaction sequence)',
        category: 'other',
        severity: 'HIGH',
        swc: null,
        cwe: 'CWE-670',
        recommendation:
          'The sequence shows calls after which the invariant no longer holds; fix the function that breaks it or the invariant.',
      };
  }
}

export function proofToFinding(world: World, p: Proof): Finding {
  const k = kindOf(p);
  const program = world.program;
  const lastSpec = p.specs[Math.min(p.violation.index, p.specs.length - 1)];
  const lastTarget = world.targets[lastSpec.target];
  const lastFn = lastTarget.contract.fns[lastSpec.fn];
  let site = p.violation.site ? world.mapper.resolve(p.violation.site.code, p.violation.site.pc) : null;
  if (site && site.end_line - site.line > 3) site = { ...site, end_line: site.line }; // a whole function body is not a useful range
  let line: number;
  let end: number;
  let contract: string | null;
  let fnName: string | null;
  if (site) {
    ({ line, end_line: end, contract, function: fnName } = site);
  } else {
    const name = lastFn.name;
    const fl = functionLine(program.outline, lastTarget.name, name);
    line = fl?.line ?? 1;
    end = fl?.line ?? 1;
    contract = lastTarget.name;
    fnName = name;
  }
  const evidence = evidenceOf(world, p);
  const calls = evidence.sequence.map(
    (s) =>
      `${s.role} -> ${s.contract}.${s.function === '(ether transfer)' ? '(send ether)' : s.function.split('(')[0] + '(' + s.args.map((a) => (Array.isArray(a) ? '[...]' : String(a))).join(', ') + ')'}${s.value !== '0' ? ` {value: ${s.value} wei}` : ''}`,
  );
  const invariant = p.property === 'invariant_broken' ? String(p.violation.details.invariant) : null;
  return {
    id: findingId({
      detector: `${TOOL_NAME}:${p.property}${p.how ? ':' + p.how : ''}${invariant ? ':' + invariant : ''}`,
      contract,
      function: fnName,
      code: sliceLines(program.source, line, end),
    }),
    detector: `${TOOL_NAME}-${p.property.replace(/_/g, '-')}`,
    title: k.title,
    description: `Dynamic testing found and replayed a sequence of ${evidence.sequence.length} transaction${evidence.sequence.length > 1 ? 's' : ''} that breaks this property: ${p.violation.observed}${p.how === 'reentrancy' ? ' (the same sequence without the attacker contract re-entering does not break it)' : ''}. Sequence: ${calls.join('; ')}.`,
    severity: k.severity,
    confidence: 1,
    category: k.category,
    swc_id: k.swc,
    cwe_id: k.cwe,
    location: { file: program.file, line, end_line: Math.max(line, end), contract, function: fnName },
    tools: [TOOL_NAME],
    layers: [2],
    recommendation: k.recommendation,
    evidence,
  };
}

/** Findings of a run, one per id: several code sites (inlined copies) can map to the same line. */
export function proofsToFindings(world: World, proofs: Proof[]): Finding[] {
  const out = new Map<string, Finding>();
  for (const p of proofs) {
    const f = proofToFinding(world, p);
    if (!out.has(f.id)) out.set(f.id, f);
  }
  return [...out.values()];
}
