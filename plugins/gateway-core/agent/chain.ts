// The guardrail chain strategy (the `guardrails` service, see lib/guardrails/chain.ts). Layers run in `order` (lower first):
//   off    -> skipped;
//   log    -> findings recorded, text unchanged;
//   redact -> each finding's span is replaced (its `replacement`, default "[REDACTED:<layer>]"),
//             and the NEXT layer sees the redacted text. Finding offsets therefore refer to the
//             text that layer saw, not to the original message;
//   block  -> the first layer with a finding stops the chain; so does a redact-mode finding
//             marked `block` (e.g. Unicode tag characters, private keys).
// A layer only runs for the directions it lists. Input over `max_chars` or that looks binary is
// blocked by the chain itself (blocked_by "chain") before any layer runs, so no layer has to cope
// with megabytes of data. A layer that throws is recorded in `errors` and skipped (fail-open),
// unless its config sets fail_closed, which blocks instead.
//
// Service config (settings.file), all keys optional:
//   guardrails:
//     max_chars: 262144          # longer messages are blocked (kind oversized_input)
//     binary: block | allow      # NUL bytes / mostly control characters (kind binary_input)
//     <layer>:                   # pii, prompt_injection, toxicity, shell_injection, encoded_exfiltration, unicode_smuggling
//       mode: off|log|redact|block
//       directions: [input, output, tool_args, tool_result]
//       fail_closed: false
//       ...layer settings (threshold, entities, allow, ...) - see each plugin.json
import type {
  Guardrail,
  GuardrailAction,
  GuardrailChainFinding,
  GuardrailChainResult,
  GuardrailDirection,
  GuardrailFinding,
  GuardrailMode,
  RegistryView,
  Settings,
} from '../../../kernel/index.ts';
import { DIRECTIONS, MODES } from '../../../lib/guardrails/layer.ts';
import type { GuardrailChain } from '../../../lib/guardrails/chain.ts';

export interface ChainLayer {
  guardrail: Guardrail;
  mode: GuardrailMode;
  /** Chain-level settings for this layer (fail_closed); layer settings live in guardrail.configure(). */
  settings?: { fail_closed?: boolean; directions?: GuardrailDirection[] };
}

export interface ChainOptions {
  maxChars?: number;
  binary?: 'block' | 'allow';
}

export const DEFAULT_MAX_CHARS = 256 * 1024;

const RANK: Record<GuardrailAction, number> = { allow: 0, log: 1, redact: 2, block: 3 };

/** NUL bytes, or more than 10% C0/C1 control characters other than tab/newline/CR. */
export function looksBinary(text: string): boolean {
  if (text.includes('\u0000')) return true;
  const sample = text.length > 8192 ? text.slice(0, 8192) : text;
  let ctrl = 0;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13) || (c >= 0x7f && c < 0xa0)) ctrl++;
  }
  return sample.length > 0 && ctrl / sample.length > 0.1;
}

/** Replaces spans right to left; overlapping spans merge into the first replacement. */
export function applyRedactions(text: string, findings: GuardrailFinding[], layer: string): string {
  const spans = findings
    .filter((f) => f.end > f.start && f.start >= 0 && f.end <= text.length)
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Array<{ start: number; end: number; replacement: string }> = [];
  for (const f of spans) {
    const last = merged[merged.length - 1];
    if (last && f.start < last.end) last.end = Math.max(last.end, f.end);
    else merged.push({ start: f.start, end: f.end, replacement: f.replacement ?? `[REDACTED:${layer}]` });
  }
  let out = text;
  for (let i = merged.length - 1; i >= 0; i--) {
    const m = merged[i];
    out = out.slice(0, m.start) + m.replacement + out.slice(m.end);
  }
  return out;
}

function toChainFinding(f: GuardrailFinding, layer: string, action: Exclude<GuardrailAction, 'allow'>): GuardrailChainFinding {
  const o: GuardrailChainFinding = {
    layer: f.layer || layer,
    kind: f.kind,
    start: f.start,
    end: f.end,
    score: Math.round(f.score * 1000) / 1000,
    action,
  };
  if (f.detail) o.detail = f.detail;
  return o;
}

/** The chain itself refuses the whole text before any layer sees it. */
function refuseWhole(kind: string, end: number, detail: string): GuardrailChainResult {
  return {
    action: 'block',
    redacted_text: '',
    blocked_by: 'chain',
    findings: [{ layer: 'chain', kind, start: 0, end, score: 1, action: 'block', detail }],
  };
}

export async function runGuardrails(
  layers: ChainLayer[],
  text: string,
  direction: GuardrailDirection = 'input',
  opts: ChainOptions = {},
): Promise<GuardrailChainResult> {
  if (!DIRECTIONS.includes(direction)) throw new TypeError(`direction must be one of ${DIRECTIONS.join(', ')}`);
  return runActive(activeLayers(layers, direction), text, direction, opts);
}

/** The layers that run for `direction`, in `order` (lower first): not "off", and listing the direction. */
function activeLayers(layers: ChainLayer[], direction: GuardrailDirection): ChainLayer[] {
  return layers
    .filter((l) => l.mode !== 'off' && (l.settings?.directions ?? l.guardrail.directions).includes(direction))
    .sort((a, b) => a.guardrail.order - b.guardrail.order);
}

/** Runs `active` (already filtered and ordered for one direction, see activeLayers) over `text`. */
async function runActive(
  active: ChainLayer[],
  text: string,
  direction: GuardrailDirection,
  opts: ChainOptions,
): Promise<GuardrailChainResult> {
  if (typeof text !== 'string') throw new TypeError('guardrail text must be a string');
  const maxChars = opts.maxChars ?? DEFAULT_MAX_CHARS;
  if (text.length > maxChars) return refuseWhole('oversized_input', text.length, `${text.length} characters, limit ${maxChars}`);
  if ((opts.binary ?? 'block') === 'block' && looksBinary(text))
    return refuseWhole('binary_input', text.length, 'NUL bytes or mostly control characters');
  let current = text;
  let action: GuardrailAction = 'allow';
  const findings: GuardrailChainFinding[] = [];
  const errors: Array<{ layer: string; message: string }> = [];
  const timings: Record<string, number> = {};
  for (const layer of active) {
    const g = layer.guardrail;
    const t0 = performance.now();
    let found: GuardrailFinding[];
    try {
      const v = g.check(current, direction);
      found = (v instanceof Promise ? await v : v).findings;
    } catch (e) {
      timings[g.name] = performance.now() - t0;
      errors.push({ layer: g.name, message: (e as Error)?.message ?? String(e) });
      if (layer.settings?.fail_closed) {
        findings.push({ layer: g.name, kind: 'layer_error', start: 0, end: current.length, score: 1, action: 'block' });
        return { action: 'block', redacted_text: current, findings, blocked_by: g.name, errors, timings };
      }
      continue;
    }
    timings[g.name] = performance.now() - t0;
    if (!found.length) continue;
    const blocks = layer.mode === 'block' || (layer.mode === 'redact' && found.some((f) => f.block));
    const layerAction: Exclude<GuardrailAction, 'allow'> = blocks ? 'block' : layer.mode === 'redact' ? 'redact' : 'log';
    for (const f of found) findings.push(toChainFinding(f, g.name, layerAction));
    if (RANK[layerAction] > RANK[action]) action = layerAction;
    if (layerAction === 'block') {
      return { action: 'block', redacted_text: current, findings, blocked_by: g.name, ...(errors.length ? { errors } : {}), timings };
    }
    if (layerAction === 'redact') current = applyRedactions(current, found, g.name);
  }
  return { action, redacted_text: current, findings, ...(errors.length ? { errors } : {}), timings };
}

export interface GuardrailChainConfig {
  max_chars?: number;
  binary?: 'block' | 'allow';
  [layer: string]: unknown;
}

/** Turns registered guardrails + the `guardrails` section of the config file into chain layers. */
export function configureLayers(guardrails: Guardrail[], config: GuardrailChainConfig = {}): ChainLayer[] {
  return guardrails.map((g) => {
    const raw = config[g.name];
    if (raw === undefined || raw === null) return { guardrail: g, mode: g.defaultMode };
    if (typeof raw !== 'object' || Array.isArray(raw)) throw new Error(`guardrails.${g.name} must be an object`);
    const { mode, fail_closed, ...rest } = raw as Record<string, unknown>;
    if (mode !== undefined && !MODES.includes(mode as GuardrailMode)) {
      throw new Error(`guardrails.${g.name}.mode must be one of ${MODES.join(', ')}, got ${JSON.stringify(mode)}`);
    }
    const configured = Object.keys(rest).length && g.configure ? g.configure(rest) : g;
    return {
      guardrail: configured,
      mode: (mode as GuardrailMode | undefined) ?? g.defaultMode,
      settings: { fail_closed: fail_closed === true, directions: configured.directions },
    };
  });
}

export function createGuardrailChain(
  services: { registry: Pick<RegistryView, 'guardrails'>; settings?: Pick<Settings, 'file'> },
  config?: GuardrailChainConfig,
): GuardrailChain {
  const cfg: GuardrailChainConfig = config ?? (services.settings?.file?.guardrails as GuardrailChainConfig | undefined) ?? {};
  const opts: ChainOptions = {
    maxChars: cfg.max_chars !== undefined ? Number(cfg.max_chars) : DEFAULT_MAX_CHARS,
    binary: cfg.binary === 'allow' ? 'allow' : 'block',
  };
  if (!Number.isInteger(opts.maxChars) || opts.maxChars! < 1) throw new Error('guardrails.max_chars must be a positive integer');
  let layers: ChainLayer[] | null = null;
  let seen = -1;
  // The active layers per direction, worked out once per configuration rather than per run.
  let byDirection = new Map<GuardrailDirection, ChainLayer[]>();
  const resolve = () => {
    const gs = services.registry.guardrails();
    if (!layers || gs.length !== seen) {
      layers = configureLayers(gs, cfg);
      seen = gs.length;
      byDirection = new Map();
    }
    return layers;
  };
  const active = (direction: GuardrailDirection) => {
    const all = resolve();
    let list = byDirection.get(direction);
    if (!list) {
      if (!DIRECTIONS.includes(direction)) throw new TypeError(`direction must be one of ${DIRECTIONS.join(', ')}`);
      byDirection.set(direction, (list = activeLayers(all, direction)));
    }
    return list;
  };
  return {
    run: (text, direction = 'input') => {
      try {
        return runActive(active(direction), text, direction, opts);
      } catch (e) {
        return Promise.reject(e instanceof Error ? e : new Error(String(e)));
      }
    },
    describe: () =>
      resolve()
        .slice()
        .sort((a, b) => a.guardrail.order - b.guardrail.order)
        .map((l) => ({
          name: l.guardrail.name,
          mode: l.mode,
          directions: l.settings?.directions ?? l.guardrail.directions,
          order: l.guardrail.order,
          settings: l.guardrail.settings ?? {},
        })),
    reload: () => {
      layers = null;
    },
  };
}
