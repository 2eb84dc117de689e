// Contract for static-analysis detectors (plugin kind "detector").
// A detector is an ESLint-style rule: declarative metadata plus create(context) returning a
// visitor keyed by @solidity-parser/parser node type ("FunctionCall", "FunctionDefinition:exit").
// The static analyzer merges every enabled detector's visitor into one traversal per file.
import type { Category, Severity } from '../../schemas/finding.ts';

export interface DetectorMeta {
  id: string;
  title: string;
  severity: Severity;
  /** 0..1: how often a hit of this rule is a real bug. */
  confidence: number;
  category: Category;
  swc?: string | null;
  cwe?: string | null;
  description: string;
  recommendation: string;
  exploit_scenario?: string;
  /** Message templates by id; `{{name}}` is replaced from report data. */
  messages?: Record<string, string>;
  /** Analysis layer whose tool reports the findings (1, the static layer, when absent; 7 and 8
   *  are the DeFi and signature rules that run in the same traversal). */
  layer?: number;
  /** Where the rule is documented (a docs/ path with an anchor, or a URL). */
  docs?: string;
}

export interface SourceLoc {
  line: number;
  end_line?: number;
  column?: number;
}

export interface DetectorReport {
  /** A parser node with `loc` (or an explicit loc). */
  node?: { loc?: { start: { line: number; column: number }; end: { line: number; column: number } } } | null;
  loc?: SourceLoc;
  messageId?: string;
  message?: string;
  data?: Record<string, string | number>;
  severity?: Severity;
  confidence?: number;
  contract?: string | null;
  function?: string | null;
  evidence?: unknown;
}

/** What a detector sees. `facts` is computed once per file by the analyzer and shared. */
export interface DetectorContext<F = unknown> {
  source: string;
  file: string;
  /** Parsed SourceUnit from @solidity-parser/parser (loc + range enabled). */
  ast: unknown;
  facts: F;
  /** Detector config validated against the plugin manifest's schema. */
  config: Record<string, unknown>;
  report(r: DetectorReport): void;
}

export type Visitor = Record<string, (node: any, parent?: any) => void>;

export interface Detector<F = unknown> {
  meta: DetectorMeta;
  /** Returns the visitor merged into the single traversal. A visitor may carry `$finish`,
   *  awaited after the traversal (WASM detectors call their guest there). */
  create(context: DetectorContext<F>): Visitor & { $finish?: () => Promise<void> };
}
