// Regenerates the examples in docs/API.md from a real run: boots the kernel on a temporary data
// dir, calls every endpoint of the contract-analysis API through inject(), and writes each
// request/response pair between the <!-- examples:start --> and <!-- examples:end --> markers.
// Requests are shown whole, as curl commands, and use the contract in examples/contracts/ (the
// server's contract root is the repository, as for `vigil serve` started there); long arrays and
// strings in answers are shortened (marked) so the doc stays readable.
// Usage: node --import tsx scripts/gen-api-examples.ts [--print]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { Kernel } from '../kernel/kernel.ts';
import { resolveSettings } from '../kernel/config.ts';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const DOC = path.join(ROOT, 'docs/API.md');

const CONTRACT_PATH = 'examples/contracts/Bank.sol';
const CONTRACT = fs.readFileSync(path.join(ROOT, CONTRACT_PATH), 'utf8');

function shorten(v: unknown, depth = 0): unknown {
  if (Array.isArray(v)) {
    const keep = depth === 0 ? 3 : 2;
    const out = v.slice(0, keep).map((x) => shorten(x, depth + 1));
    if (v.length > keep) out.push(`… ${v.length - keep} more`);
    return out;
  }
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shorten(x, depth + 1)]));
  if (typeof v === 'string' && v.length > 2000) return v.slice(0, 2000) + '… (shortened)';
  return v;
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-examples-'));
  // One analysis per client at a time, so the 429 example below is a real refusal.
  const kernel = new Kernel({
    settings: resolveSettings({
      dataDir,
      env: { VIGIL_CONTRACT_ROOTS: ROOT },
      logLevel: 'silent',
      overrides: { analysis_admission: { per_client: 1 } },
    }),
    logger: pino({ level: 'silent' }),
  });
  await kernel.boot();
  const sections: string[] = [];
  const curl = (method: string, url: string, body?: unknown) => {
    const target = `http://127.0.0.1:8000${url.includes('?') ? `'${url}'` : url}`;
    if (body === undefined) return `curl -s ${method === 'GET' ? '' : `-X ${method} `}${target}`;
    return `curl -s -X ${method} ${target} \\\n  -H 'content-type: application/json' --data-binary @- <<'EOF'\n${JSON.stringify(body, null, 2)}\nEOF`;
  };
  const show = (
    title: string,
    method: string,
    url: string,
    body: unknown,
    r: { statusCode: number; headers: Record<string, unknown>; body: string; json(): unknown },
    raw = false,
    extraHeaders: string[] = [],
  ) => {
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a header value (string, or string[] joined as text)
    const ct = String(r.headers['content-type'] ?? '');
    const shown =
      ct.includes('json') && !raw
        ? JSON.stringify(shorten(r.json()), null, 2)
        : r.body.length > 1500
          ? r.body.slice(0, 1500) + '\n… (shortened)'
          : r.body;
    const hdrs = extraHeaders
      .filter((h) => r.headers[h] !== undefined)
      // eslint-disable-next-line @typescript-eslint/restrict-template-expressions -- a header value (string, or string[] joined as text)
      .map((h) => ` \`${h}: ${r.headers[h]}\``)
      .join('');
    sections.push(
      `### ${title}\n\n\`\`\`sh\n${curl(method, url, body)}\n\`\`\`\n\n→ \`${r.statusCode}\` \`${ct}\`${hdrs}\n\n\`\`\`${ct.includes('json') ? 'json' : ct.includes('html') ? 'html' : 'markdown'}\n${shown}\n\`\`\``,
    );
  };
  const call = async (title: string, method: 'GET' | 'POST', url: string, body?: unknown, raw = false, extraHeaders: string[] = []) => {
    const r = await kernel.api.inject({ method, url, ...(body !== undefined ? { payload: body as Record<string, unknown> } : {}) });
    show(title, method, url, body, r, raw, extraHeaders);
    return r;
  };
  await call('Root', 'GET', '/');
  await call('Health', 'GET', '/api/v1/health/');
  await call('Tools', 'GET', '/api/v1/tools/');
  await call('One tool', 'GET', '/api/v1/tools/solhint/');
  await call('Unknown tool', 'GET', '/api/v1/tools/nope/');
  await call('Layers', 'GET', '/api/v1/layers/');
  await call('Quick analysis (source in the body)', 'POST', '/api/v1/analyze/quick/', { contract_code: CONTRACT, timeout: 120 });
  await call('Quick analysis as SARIF', 'POST', '/api/v1/analyze/quick/', { contract_path: CONTRACT_PATH, format: 'sarif', timeout: 120 });
  const full = await call('Full analysis (stored as a report)', 'POST', '/api/v1/analyze/full/', {
    contract_path: CONTRACT_PATH,
    timeout: 300,
  });
  await call('One layer', 'POST', '/api/v1/analyze/layer/1/', { contract_path: CONTRACT_PATH, timeout: 120 });
  await call('Unknown layer', 'POST', '/api/v1/analyze/layer/12/', { contract_path: CONTRACT_PATH });
  await call('One tool', 'POST', '/api/v1/analyze/tool/solhint/', { contract_path: CONTRACT_PATH, timeout: 60 });
  await call(
    'Timeout above the server maximum (lowered, and said so)',
    'POST',
    '/api/v1/analyze/tool/solhint/',
    { contract_path: CONTRACT_PATH, timeout: 3600 },
    false,
    ['x-vigil-timeout-clamped'],
  );
  await call('Invalid request: both contract fields', 'POST', '/api/v1/analyze/quick/', {
    contract_path: CONTRACT_PATH,
    contract_code: 'contract A {}',
  });
  await call('Path outside the allowed roots', 'POST', '/api/v1/analyze/quick/', { contract_path: '../etc/passwd' });
  await call('Not a Solidity file', 'POST', '/api/v1/remediate/', { contract_path: '.env' });
  await call('Pathological source refused before analysis', 'POST', '/api/v1/analyze/quick/', {
    contract_code: `contract P {\n  function f(uint a) external pure returns (uint) {\n    return ${'('.repeat(200)}a${')'.repeat(200)};\n  }\n}\n`,
  });
  {
    // A second analysis from the same client while its first is still running.
    const body = { contract_path: CONTRACT_PATH, timeout: 60 };
    const running = kernel.api.inject({ method: 'POST', url: '/api/v1/analyze/full/', payload: body });
    await new Promise((r) => setTimeout(r, 200));
    const r = await kernel.api.inject({ method: 'POST', url: '/api/v1/analyze/quick/', payload: body });
    show('Too many analyses at once (admission control)', 'POST', '/api/v1/analyze/quick/', body, r, false, ['retry-after']);
    await running;
  }
  const rem = await call(
    'Remediate (every finding of a quick analysis)',
    'POST',
    '/api/v1/remediate/',
    { contract_path: CONTRACT_PATH, timeout: 120 },
    false,
  );
  const patched = rem.json().patched_code as string;
  sections.push(`Full patched code of this run:\n\n\`\`\`solidity\n${patched}\`\`\`\n\nDiff:\n\n\`\`\`diff\n${rem.json().diff}\`\`\``);
  await call('Remediate chosen findings (given in the body)', 'POST', '/api/v1/remediate/', {
    contract_path: CONTRACT_PATH,
    findings: [{ category: 'access_control', detector: 'tx-origin', swc_id: 'SWC-115', location: { line: 14 } }],
    timeout: 120,
  });
  await call('Validate a remediation', 'POST', '/api/v1/validate-remediation/', {
    original_path: CONTRACT_PATH,
    patched_code: patched,
    timeout: 120,
  });
  await call('Validate a patch that does not compile', 'POST', '/api/v1/validate-remediation/', {
    original_path: CONTRACT_PATH,
    patched_code: CONTRACT.replace('require(tx.origin == owner);', 'require(msg.sender == owner)'),
    timeout: 120,
  });
  await call('Store a report', 'POST', '/api/v1/reports/', { project: 'bank', reviewer: 'alice', findings_count: 3 });
  await call('Empty report rejected', 'POST', '/api/v1/reports/', {});
  await call('Analysis report with a wrong type rejected', 'POST', '/api/v1/reports/', {
    audit_id: 'x',
    findings: [],
    summary: { HIGH: 'many' },
  });
  await call('List reports', 'GET', '/api/v1/reports/?limit=2&offset=0');
  const id = full.json().audit_id as string;
  await call('One report (the full analysis, by audit_id)', 'GET', `/api/v1/reports/${id}/`);
  await call('One report as Markdown', 'GET', `/api/v1/reports/${id}/?format=markdown`);
  await call('Unknown report', 'GET', '/api/v1/reports/nope/');
  await kernel.stop();

  const generated = `<!-- examples:start (generated by scripts/gen-api-examples.ts on ${new Date().toISOString().slice(0, 10)}; do not edit by hand) -->\n\n${sections.join('\n\n')}\n\n<!-- examples:end -->`;
  if (process.argv.includes('--print')) {
    process.stdout.write(generated + '\n');
    return;
  }
  const doc = fs.readFileSync(DOC, 'utf8');
  const start = doc.indexOf('<!-- examples:start');
  const end = doc.indexOf('<!-- examples:end -->');
  if (start < 0 || end < 0) throw new Error('docs/API.md lacks the examples markers');
  fs.writeFileSync(DOC, doc.slice(0, start) + generated + doc.slice(end + '<!-- examples:end -->'.length));
  console.log(`docs/API.md: ${sections.length} examples written`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
