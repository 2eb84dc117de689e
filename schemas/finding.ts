// The normalized finding every analysis tool produces (shape fixed by decisions.md).
import { Type, type Static } from '@sinclair/typebox';

export const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'] as const;
export const CATEGORIES = [
  'reentrancy',
  'access_control',
  'arithmetic',
  'unchecked_low_level_calls',
  'denial_of_service',
  'bad_randomness',
  'front_running',
  'time_manipulation',
  'short_addresses',
  'other',
] as const;

export const LAYER_NAMES: Record<number, string> = {
  1: 'Static Analysis',
  2: 'Dynamic Testing',
  3: 'Symbolic Execution',
  4: 'Formal Verification',
  5: 'AI Analysis',
  6: 'ML Detection',
  7: 'Specialized Analysis',
  8: 'Cross-Chain & Signatures',
  9: 'Correlation & Ensemble',
};

export const Severity = Type.Union(SEVERITIES.map((s) => Type.Literal(s)));
export type Severity = (typeof SEVERITIES)[number];
export const Category = Type.Union(CATEGORIES.map((c) => Type.Literal(c)));
export type Category = (typeof CATEGORIES)[number];

export const Location = Type.Object({
  file: Type.String(),
  line: Type.Integer({ minimum: 1 }),
  end_line: Type.Integer({ minimum: 1 }),
  column: Type.Optional(Type.Integer({ minimum: 0 })),
  contract: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  function: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type Location = Static<typeof Location>;

export const Finding = Type.Object({
  id: Type.String(),
  detector: Type.Optional(Type.String()),
  title: Type.String(),
  description: Type.String(),
  severity: Severity,
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
  category: Category,
  swc_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  cwe_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  location: Location,
  tools: Type.Array(Type.String()),
  layers: Type.Array(Type.Integer()),
  recommendation: Type.String(),
  evidence: Type.Optional(Type.Unknown()),
  llm_only: Type.Optional(Type.Boolean()),
});
export type Finding = Static<typeof Finding>;

export const ToolStatus = Type.Union(['success', 'error', 'timeout', 'not_available', 'skipped'].map((s) => Type.Literal(s)));
export type ToolStatus = 'success' | 'error' | 'timeout' | 'not_available' | 'skipped';

export const ToolResult = Type.Object({
  tool: Type.String(),
  layer: Type.Integer(),
  status: ToolStatus,
  findings: Type.Array(Finding),
  execution_time: Type.Number(),
  error: Type.Union([Type.String(), Type.Null()]),
});
export type ToolResult = Static<typeof ToolResult>;
