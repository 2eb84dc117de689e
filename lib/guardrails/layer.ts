// Builds a Guardrail from a settings-dependent check, so every layer supports configure():
// the chain merges `guardrails.<layer>` from the service config file over the plugin's defaults.
import type { Guardrail, GuardrailDirection, GuardrailFinding, GuardrailMode, GuardrailVerdict } from '../../kernel/index.ts';

export const DIRECTIONS: GuardrailDirection[] = ['input', 'output', 'tool_args', 'tool_result'];
export const MODES: GuardrailMode[] = ['off', 'log', 'redact', 'block'];

export interface LayerSpec<S extends Record<string, unknown>> {
  name: string;
  description: string;
  defaultMode: GuardrailMode;
  directions: GuardrailDirection[];
  order: number;
  defaults: S;
  /**
   * Validates/coerces merged settings; throws a clear Error on bad values. A numeric `threshold` in
   * the defaults is checked (0..1) by defineLayer before this runs, for every layer alike.
   */
  validate?(settings: S): S;
  build(settings: S): (text: string, direction: GuardrailDirection) => GuardrailFinding[];
}

function pickDirections(v: unknown, fallback: GuardrailDirection[]): GuardrailDirection[] {
  if (!Array.isArray(v)) return fallback;
  const bad = v.filter((d) => !DIRECTIONS.includes(d as GuardrailDirection));
  if (bad.length) throw new Error(`unknown guardrail direction(s) ${bad.join(', ')}; use ${DIRECTIONS.join(', ')}`);
  return v as GuardrailDirection[];
}

export function defineLayer<S extends Record<string, unknown>>(spec: LayerSpec<S>, overrides: Record<string, unknown> = {}): Guardrail {
  const merged: S = { ...spec.defaults, ...stripMeta(overrides) };
  if (typeof spec.defaults.threshold === 'number')
    Object.assign(merged, { threshold: num(merged.threshold, `${spec.name}.threshold`, 0, 1) });
  const settings = spec.validate ? spec.validate(merged) : merged;
  const mode = overrides.mode;
  if (mode !== undefined && !MODES.includes(mode as GuardrailMode)) {
    throw new Error(`guardrail ${spec.name}: mode must be one of ${MODES.join(', ')}, got ${JSON.stringify(mode)}`);
  }
  const directions = pickDirections(overrides.directions, spec.directions);
  const run = spec.build(settings);
  return {
    name: spec.name,
    description: spec.description,
    defaultMode: (mode as GuardrailMode | undefined) ?? spec.defaultMode,
    directions,
    order: typeof overrides.order === 'number' ? overrides.order : spec.order,
    settings: { ...settings },
    check(text: string, direction: GuardrailDirection): GuardrailVerdict {
      return { findings: run(text, direction) };
    },
    configure(more: Record<string, unknown>): Guardrail {
      return defineLayer(spec, { ...overrides, ...more });
    },
  };
}

/** mode/directions/order are chain-level keys, not layer settings. */
function stripMeta(o: Record<string, unknown>): Record<string, unknown> {
  const { mode: _m, directions: _d, order: _o, ...rest } = o;
  return rest;
}

export function num(v: unknown, name: string, min: number, max: number): number {
  const n = typeof v === 'string' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < min || n > max) {
    throw new Error(`${name} must be a number between ${min} and ${max}, got ${JSON.stringify(v)}`);
  }
  return n;
}

export function strList(v: unknown, name: string): string[] {
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new Error(`${name} must be an array of strings`);
  return v as string[];
}

// Detectors one layer lends another, as services: the encoded-exfiltration layer re-checks
// decoded payloads with the PII layer's detector and the prompt-injection layer's rules, without
// importing those plugins' files (each layer's code lives in its own plugin).

/** services.get<PiiDetectorService>('pii-detector'), provided by guardrail-pii. */
export interface PiiDetectorService {
  /** PII spans in `text` of the given entity kinds (email, phone, ...), at the layer's default threshold. */
  find(text: string, entities: readonly string[]): Array<{ entity: string; kind: string; start: number; end: number; score: number }>;
}

/** services.get<InjectionRulesService>('injection-rules'), provided by guardrail-prompt-injection. */
export interface InjectionRulesService {
  /** The injection rules that match `text` (de-obfuscated first), strongest evidence in `weight`. */
  match(text: string): Array<{ rule: string; kind: string; weight: number }>;
}
