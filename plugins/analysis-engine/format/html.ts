// Self-contained HTML report (inline CSS, no scripts, no external assets). Every value of the
// result is either HTML-escaped (text) or coerced to a finite number (counts, lines, times):
// results come from stored reports too, and a stored "count" may be any string, so no field is
// trusted to have the type it should. A test puts markup into every field and checks none
// reaches the page (test/security/api-html-report.test.ts).
import type { AnalysisResult } from '../../../kernel/contracts/analysis.ts';
import { LAYER_NAMES, SEVERITIES } from '../../../schemas/finding.ts';

export function htmlEscape(s: unknown): string {
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- escapes any value as its text
  return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const COLORS: Record<string, string> = { CRITICAL: '#7b0000', HIGH: '#c62828', MEDIUM: '#ef6c00', LOW: '#1565c0', INFO: '#546e7a' };

/** A number for the page: finite numbers as they are, anything else 0 (never its text). */
const n = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const list = (v: unknown): any[] => (Array.isArray(v) ? v : []);
const rec = (v: unknown): Record<string, any> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, any>) : {};
const color = (sev: unknown) => (typeof sev === 'string' && Object.hasOwn(COLORS, sev) ? COLORS[sev] : '#555');
const layerName = (l: unknown) => (typeof l === 'number' && Object.hasOwn(LAYER_NAMES, l) ? LAYER_NAMES[l] : '');

export function toHtml(result: AnalysisResult): string {
  const e = htmlEscape;
  const c = rec(result.contract);
  const rows = list(result.results)
    .map((x) => {
      const r = rec(x);
      return `<tr><td>${e(r.tool)}</td><td>${n(r.layer)}</td><td class="st-${e(r.status)}">${e(r.status)}</td><td>${list(r.findings).length}</td><td>${n(r.execution_time)}</td><td>${e(r.error ?? '')}</td></tr>`;
    })
    .join('\n');
  const findings = list(result.findings)
    .map((x, i) => {
      const f = rec(x);
      const loc = rec(f.location);
      const where = [loc.contract, loc.function].filter(Boolean).join('.');
      const line = n(loc.line);
      const end = n(loc.end_line);
      return `<section class="finding">
<h3><span class="sev" style="background:${color(f.severity)}">${e(f.severity)}</span> ${i + 1}. ${e(f.title)}</h3>
<dl>
<dt>Location</dt><dd><code>${e(loc.file)}:${line}${end > line ? `-${end}` : ''}</code>${where ? ` (${e(where)})` : ''}</dd>
<dt>Category</dt><dd>${e(f.category)}${f.swc_id ? ` · ${e(f.swc_id)}` : ''}${f.cwe_id ? ` · ${e(f.cwe_id)}` : ''}</dd>
<dt>Confidence</dt><dd>${Math.round(n(f.confidence) * 100)}%</dd>
<dt>Reported by</dt><dd>${list(f.tools).map(e).join(', ')} (layers ${list(f.layers)
        .map((l) => n(l))
        .join(', ')})</dd>
<dt>Id</dt><dd><code>${e(f.id)}</code></dd>
</dl>
<p>${e(f.description)}</p>
${f.recommendation ? `<p><strong>Recommendation:</strong> ${e(f.recommendation)}</p>` : ''}
${f.evidence !== undefined ? `<details><summary>Evidence</summary><pre>${e(safeJson(f.evidence))}</pre></details>` : ''}
</section>`;
    })
    .join('\n');
  const notes = list(result.notes)
    .map((t) => `<p class="note">${e(t)}</p>`)
    .join('\n');
  const summary = rec(result.summary);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>vigil analysis: ${e(c.name ?? 'contract')}</title>
<style>
body{font:14px/1.5 system-ui,sans-serif;max-width:1000px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;width:100%;margin:1em 0}td,th{border:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f5f5f5}.sev{color:#fff;border-radius:3px;padding:1px 6px;font-size:12px}
.finding{border:1px solid #ddd;border-radius:6px;padding:0 1em;margin:1em 0}dl{display:grid;grid-template-columns:9em 1fr;margin:0}dt{font-weight:600}
pre{background:#f7f7f7;padding:8px;overflow:auto}.note{background:#fff8e1;border-left:4px solid #ffb300;padding:6px 10px}
.st-error{color:#c62828}.st-timeout{color:#ef6c00}.st-not_available,.st-skipped{color:#777}
</style>
</head>
<body>
<h1>vigil ${e(result.audit_type)} analysis: ${e(c.name ?? 'contract')}</h1>
<table>
<tr><th>Audit id</th><td>${e(result.audit_id)}</td></tr>
<tr><th>SHA-256</th><td><code>${e(c.sha256)}</code></td></tr>
<tr><th>Pragma / compiler</th><td>${e(c.pragma ?? 'none')} / ${e(c.compiler ?? 'none')}</td></tr>
<tr><th>Layers</th><td>${list(result.layers)
    .map((l) => `${n(l)} ${e(layerName(l))}`)
    .join(', ')}</td></tr>
<tr><th>Time</th><td>${n(result.execution_time)} s, ${e(result.timestamp)}, vigil ${e(result.version)}</td></tr>
</table>
${notes}
<h2>Summary</h2>
<table><tr>${SEVERITIES.map((s) => `<th>${s}</th>`).join('')}<th>Total</th></tr>
<tr>${SEVERITIES.map((s) => `<td>${n(summary[s])}</td>`).join('')}<td>${n(result.total_findings)}</td></tr></table>
<h2>Tools</h2>
<table><tr><th>Tool</th><th>Layer</th><th>Status</th><th>Findings</th><th>Time (s)</th><th>Note</th></tr>
${rows}
</table>
<h2>Findings</h2>
${findings || '<p>No findings.</p>'}
</body>
</html>
`;
}

/** Evidence as JSON text; a value JSON cannot hold (cycles, BigInt) is said instead of thrown. */
function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v, null, 2) ?? String(v);
  } catch (err) {
    return `(evidence not printable: ${(err as Error).message})`;
  }
}
