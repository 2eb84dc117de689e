// ArcSight Common Event Format (CEF) lines for SIEM export:
//   CEF:0|vigil|vigil|<version>|<signature>|<name>|<severity>|<extension>
// Escaping follows the CEF spec: in header fields `\` and `|` are escaped (and line breaks,
// which would end the record, become spaces); in extension values `\`, `=` and line breaks
// (\n, \r) are escaped. Without it a crafted skill argument could forge extra fields or events.
import type { AuditEvent } from '../../kernel/index.ts';

export function cefHeader(v: unknown): string {
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- any audit detail value is exported as its text
  return String(v ?? '')
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/\r\n|\r|\n/g, ' ');
}

export function cefValue(v: unknown): string {
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- any audit detail value is exported as its text
  return String(v ?? '')
    .replace(/\\/g, '\\\\')
    .replace(/=/g, '\\=')
    .replace(/\r\n|\n/g, '\\n')
    .replace(/\r/g, '\\r');
}

/** CEF severity is 0..10. */
function severityOf(e: AuditEvent): number {
  const s = Number(e.severity ?? 3);
  return Number.isFinite(s) ? Math.min(10, Math.max(0, Math.round(s))) : 3;
}

function nameOf(e: AuditEvent): string {
  const d = e.detail ?? {};
  // eslint-disable-next-line @typescript-eslint/no-base-to-string, @typescript-eslint/restrict-template-expressions -- audit detail values are JSON scalars
  if (e.type === 'http.request' && d.method) return `${d.method} ${d.route ?? d.path ?? ''} ${d.status ?? ''}`.trim();
  return `${e.type} ${e.outcome}`;
}

export function toCef(e: AuditEvent, version: string): string {
  const d = e.detail ?? {};
  const ext: Array<[string, unknown]> = [
    ['rt', e.ts ? Date.parse(e.ts) : undefined],
    ['externalId', e.id],
    ['outcome', e.outcome],
    ['suser', e.actor ?? e.tenant ?? undefined],
    ['cs1Label', 'tenant'],
    ['cs1', e.tenant ?? 'local'],
  ];
  if (e.session_id) ext.push(['cs2Label', 'session_id'], ['cs2', e.session_id]);
  if (typeof d.request_id === 'string') ext.push(['cs3Label', 'request_id'], ['cs3', d.request_id]);
  if (typeof d.method === 'string') ext.push(['requestMethod', d.method]);
  if (typeof d.route === 'string' || typeof d.path === 'string') ext.push(['request', d.route ?? d.path]);
  if (typeof d.ip === 'string') ext.push(['src', d.ip]);
  if (typeof d.status === 'number') ext.push(['cn1Label', 'http_status'], ['cn1', d.status]);
  if (typeof d.latency_ms === 'number') ext.push(['cn2Label', 'latency_ms'], ['cn2', Math.round(d.latency_ms)]);
  ext.push(['msg', JSON.stringify(d)]);
  const extension = ext
    .filter(([, v]) => v !== undefined && v !== null && !(typeof v === 'number' && Number.isNaN(v)))
    .map(([k, v]) => `${k}=${cefValue(v)}`)
    .join(' ');
  return `CEF:0|vigil|vigil|${cefHeader(version)}|${cefHeader(e.type)}|${cefHeader(nameOf(e))}|${severityOf(e)}|${extension}`;
}
