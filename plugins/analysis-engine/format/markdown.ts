// Markdown report: what a reviewer reads in a PR comment or an issue. Every value coming from
// the contract or a tool is escaped so a crafted contract cannot inject markup or links.
import type { AnalysisResult } from '../../../kernel/contracts/analysis.ts';
import { LAYER_NAMES, SEVERITIES, type Finding } from '../../../schemas/finding.ts';

/** Escapes Markdown control characters (and HTML) in inline text and table cells. */
export function mdEscape(s: unknown): string {
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- report values are strings or numbers
  return String(s ?? '')
    .replace(/\r?\n/g, ' ')
    .replace(/[\\`*_[\]|<>~]/g, (c) => `\\${c}`)
    .replace(/^([#+-])/, '\\$1')
    .replace(/&/g, '&amp;');
}

function fence(s: string): string {
  const longest = Math.max(2, ...Array.from(s.matchAll(/`+/g), (m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  return `${f}\n${s}\n${f}`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "layer 1 (Static Analysis)", "layers 1 (Static Analysis) and 3 (Symbolic Execution)". */
export function layerPhrase(layers: number[]): string {
  const named = layers.map((l) => `${l}${LAYER_NAMES[l] ? ` (${mdEscape(LAYER_NAMES[l])})` : ''}`);
  if (named.length === 0) return 'no layer';
  if (named.length === 1) return `layer ${named[0]}`;
  return `layers ${named.slice(0, -1).join(', ')} and ${named[named.length - 1]}`;
}

type Suppressed = Finding & { suppression?: { directive?: string; line?: number; rules?: string[]; justification?: string } };

export function toMarkdown(result: AnalysisResult): string {
  const out: string[] = [];
  const c = result.contract;
  type FileRow = {
    file: string;
    contract?: { compiler?: string | null } | null;
    compilation?: { ok?: boolean; note?: string } | null;
    error?: string | null;
  };
  const folder = Array.isArray(result.files) ? (result.files as FileRow[]) : null;
  out.push(`# vigil ${mdEscape(result.audit_type)} analysis: ${mdEscape(c.name ?? 'contract')}`);
  out.push('');
  out.push(
    `| | |\n|---|---|\n| Audit id | ${mdEscape(result.audit_id)} |\n| SHA-256 | ${mdEscape(c.sha256)} |\n| Pragma | ${mdEscape(c.pragma ?? (folder ? 'per file' : 'none'))} |\n| Compiler | ${mdEscape(c.compiler ?? 'none')} |\n| Layers | ${result.layers.map((l) => `${l} ${mdEscape(LAYER_NAMES[l] ?? '')}`).join(', ')} |\n| Time | ${result.execution_time} s |\n| Date | ${mdEscape(result.timestamp)} |\n| vigil | ${mdEscape(result.version)} |`,
  );
  out.push('');
  if (result.compilation && !result.compilation.ok) {
    out.push(`> **Compilation:** ${mdEscape(result.compilation.note ?? 'failed')}`);
    for (const e of result.compilation.errors.slice(0, 5)) out.push(`> - ${mdEscape(e)}`);
    out.push('');
  }
  for (const n of result.notes ?? []) {
    if (result.compilation && !result.compilation.ok && n === result.compilation.note) continue;
    out.push(`> ${mdEscape(n)}`);
    out.push('');
  }
  out.push('## Summary');
  out.push('');
  out.push(`| ${SEVERITIES.join(' | ')} | Total |`);
  out.push(`|${SEVERITIES.map(() => '---:').join('|')}|---:|`);
  out.push(`| ${SEVERITIES.map((s) => result.summary[s] ?? 0).join(' | ')} | ${result.total_findings} |`);
  out.push('');
  const suppressed = (Array.isArray(result.suppressed) ? result.suppressed : []) as Suppressed[];
  const baseline = result.baseline as { file?: string; known?: number; new?: number } | undefined;
  if (suppressed.length)
    out.push(
      `${plural(suppressed.length, 'finding')} suppressed by comments in the source ${suppressed.length === 1 ? 'is' : 'are'} not counted (listed under "Suppressed in source").`,
      '',
    );
  if (baseline && typeof baseline.known === 'number') {
    out.push(
      `Compared with the baseline \`${String(baseline.file ?? '').replace(/`/g, "'")}\`: ${plural(baseline.known, 'finding')} already known ${baseline.known === 1 ? 'is' : 'are'} not listed; ${plural(baseline.new ?? 0, 'finding')} ${baseline.new === 1 ? 'is' : 'are'} new.`,
      '',
    );
  }
  if (folder) {
    out.push('## Files');
    out.push('');
    out.push('| File | Compiler | Findings | Note |');
    out.push('|---|---|---:|---|');
    for (const f of folder) {
      const note = f.error ?? (f.compilation && f.compilation.ok === false ? (f.compilation.note ?? 'compilation failed') : '');
      out.push(
        `| ${mdEscape(f.file)} | ${mdEscape(f.contract?.compiler ?? 'none')} | ${result.findings.filter((x) => x.location.file === f.file).length} | ${mdEscape(note)} |`,
      );
    }
    out.push('');
  }
  out.push('## Tools');
  out.push('');
  // A tool's own hits, before correlation merges them and suppressions/baselines filter them.
  out.push('| Tool | Layer | Status | Tool hits | Time (s) | Note |');
  out.push('|---|---:|---|---:|---:|---|');
  for (const r of result.results) {
    out.push(
      `| ${mdEscape(r.tool)} | ${r.layer} | ${mdEscape(r.status)} | ${r.findings.length} | ${r.execution_time} | ${mdEscape(r.error ?? '')} |`,
    );
  }
  out.push('');
  out.push('## Findings');
  out.push('');
  if (!result.findings.length) out.push(baseline && typeof baseline.known === 'number' ? 'No new findings.' : 'No findings.');
  result.findings.forEach((f, i) => {
    const loc = `${f.location.file}:${f.location.line}${f.location.end_line > f.location.line ? `-${f.location.end_line}` : ''}`;
    const where = [f.location.contract, f.location.function].filter(Boolean).join('.');
    out.push(`### ${i + 1}. [${f.severity}] ${mdEscape(f.title)}`);
    out.push('');
    out.push(`- **Location:** \`${loc.replace(/`/g, "'")}\`${where ? ` (${mdEscape(where)})` : ''}`);
    out.push(
      `- **Category:** ${mdEscape(f.category)}${f.swc_id ? ` · ${mdEscape(f.swc_id)}` : ''}${f.cwe_id ? ` · ${mdEscape(f.cwe_id)}` : ''}`,
    );
    out.push(`- **Confidence:** ${Math.round(f.confidence * 100)}%`);
    out.push(`- **Reported by:** ${f.tools.map(mdEscape).join(', ')} · ${layerPhrase(f.layers)}`);
    out.push(`- **Id:** \`${f.id.replace(/`/g, '')}\``);
    out.push('');
    out.push(mdEscape(f.description));
    out.push('');
    if (f.recommendation) {
      out.push(`**Recommendation:** ${mdEscape(f.recommendation)}`);
      out.push('');
    }
    if (f.evidence !== undefined) {
      out.push('<details><summary>Evidence</summary>');
      out.push('');
      out.push(fence(JSON.stringify(f.evidence, null, 2)));
      out.push('');
      out.push('</details>');
      out.push('');
    }
  });
  if (suppressed.length) {
    out.push('## Suppressed in source');
    out.push('');
    out.push('| Severity | Finding | Location | Comment | Reason |');
    out.push('|---|---|---|---|---|');
    for (const f of suppressed) {
      const sup = f.suppression ?? {};
      const how = `${sup.directive ?? 'suppressed'}${sup.rules?.length ? ` ${sup.rules.join(', ')}` : ''}${sup.line ? ` (line ${sup.line})` : ''}`;
      out.push(
        `| ${f.severity} | ${mdEscape(f.title)} | ${mdEscape(`${f.location.file}:${f.location.line}`)} | ${mdEscape(how)} | ${mdEscape(sup.justification ?? '')} |`,
      );
    }
    out.push('');
  }
  return out.join('\n') + '\n';
}
