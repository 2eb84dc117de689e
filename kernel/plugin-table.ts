// `vigil plugins` as a table a person reads: a header, columns padded to their widest cell, the
// reason last (it is the long one), and a count line. `--json` keeps the machine form.
import type { PluginStatus } from './plugin-api.ts';

const COLUMNS = ['ID', 'KIND', 'RUNTIME', 'STATUS', 'PROVIDES', 'REASON'] as const;

/** Registrations up to about `max` characters, then "+N more" (the full list is in --json). */
export function provides(registered: string[], max = 48): string {
  if (!registered.length) return '-';
  let out = '';
  for (let i = 0; i < registered.length; i++) {
    const next = out ? `${out}, ${registered[i]}` : registered[i];
    const rest = registered.length - i - 1;
    if (next.length > max && out) return `${out} +${registered.length - i} more`;
    out = next;
    if (rest === 0) break;
  }
  return out;
}

export function formatPluginTable(list: PluginStatus[]): string {
  const rows = list.map((p) => [
    p.id,
    p.kind,
    p.runtime ?? '-',
    p.status,
    provides(p.registered),
    p.error ?? (p.status === 'disabled' ? 'enabled: false (in its plugin.json or the config file)' : ''),
  ]);
  const widths = COLUMNS.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  const counts = new Map<string, number>();
  for (const p of list) counts.set(p.status, (counts.get(p.status) ?? 0) + 1);
  const summary = `${list.length} plugin${list.length === 1 ? '' : 's'}: ${
    ['loaded', 'disabled', 'error']
      .filter((s) => counts.has(s))
      .map((s) => `${counts.get(s)} ${s}`)
      .join(', ') || 'none found'
  }`;
  return [line(COLUMNS), ...rows.map(line), '', summary].join('\n') + '\n';
}
