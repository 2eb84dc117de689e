// The "remediation" service (plugins/remediation): fixes findings with source transformations and
// validates a patch by analysing both versions. REST and MCP both reach it through
// services.get<RemediationService>('remediation'), so the two surfaces cannot drift apart.
import type { Finding } from '../../schemas/finding.ts';

export interface FixRecord {
  finding_id: string;
  title: string;
  category: string;
  applied: boolean;
  strategy: string | null;
  description: string | null;
  reason_if_not: string | null;
}

export interface RemediationResult {
  patched_code: string;
  diff: string;
  fixes: FixRecord[];
  summary: {
    findings: number;
    applied: number;
    not_applied: number;
    changed: boolean;
    /** Whether the patched code compiles (null when no compiler check was possible). */
    compiles: boolean | null;
    original_compiles: boolean | null;
    compiler: string | null;
    compile_errors: string[];
    text: string;
  };
}

/** One side of a validation: the source and where it came from (imports resolve from absPath). */
export interface PatchSide {
  source: string;
  file: string;
  absPath: string | null;
}

export type RemediationVerdict = 'improved' | 'unchanged' | 'regressed' | 'broken';

/** A type, not an interface: surfaces pass it on as a plain JSON record. */
export type PatchValidation = {
  compiles: boolean;
  compiler: string | null;
  compile_errors: string[];
  original: { compiles: boolean; compiler: string | null; total_findings: number; audit_id: string | null };
  patched: { total_findings: number; audit_id: string | null };
  fixed: Finding[];
  remaining: Array<Finding & { original_id: string }>;
  introduced: Finding[];
  score: { before: number; after: number };
  verdict: RemediationVerdict;
  summary: string;
  matching: string;
};

/** Cancellation and time limit of one call (the request's). */
export interface RemediationCallOptions {
  signal?: AbortSignal;
  /** Epoch ms by which the call must return. */
  deadline?: number;
}

export interface RemediationService {
  /** Fixes the findings in the pool (compiling each kept fix, imports resolved next to absPath). */
  remediate(contract: PatchSide & { findings: Finding[] }, opts: RemediationCallOptions): Promise<RemediationResult>;
  /** Compiles the patch, analyses both versions in quick mode and compares their findings. */
  validate(original: PatchSide, patched: PatchSide, opts: RemediationCallOptions & { timeoutMs: number }): Promise<PatchValidation>;
}
