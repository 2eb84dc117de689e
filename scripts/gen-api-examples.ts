// Regenerates the examples in docs/API.md from a real run: boots the kernel on a temporary data
// dir, calls every endpoint of the contract-analysis API through inject(), and writes each
// request/response pair between the <!-- examples:start --> and <!-- examples:end --> markers.
// Long arrays and strings are shortened (marked) so the doc stays readable.
// Usage: node --import tsx scripts/gen-api-examples.ts [--print]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { Kernel } from '../kernel/kernel.ts';
import { resolveSettings } from '../kernel/config.ts';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const DOC = path.join(ROOT, 'docs/API.md');

const CONTRACT = `pragma solidity ^0.4.24;

contract Bank {
    mapping(address => uint256) public balances;
    address public owner;

    constructor() public {
        owner = msg.sender;
    }

    function withdraw(uint256 amount) public {
        require(tx.origin == owner);
        require(balances[msg.sender] >= amount);
        msg.sender.call.value(amount)();
        balances[msg.sender] -= amount;
    }
}
`;

function shorten(v: unknown, depth = 0): unknown {
  if (Array.isArray(v)) {
    const keep = depth === 0 ? 3 : 2;
    const out = v.slice(0, keep).map((x) => shorten(x, depth + 1));
    if (v.length > keep) out.push(`… ${v.length - keep} more`);
    return out;
  }
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shorten(x, depth + 1)]));
  if (typeof v === 'string' && v.length > 400) return v.slice(0, 400) + '… (shortened)';
  return v;
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-examples-'));
  const roots = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-examples-roots-'));
  fs.writeFileSync(path.join(roots, 'Bank.sol'), CONTRACT);
  const kernel = new Kernel({ settings: resolveSettings({ dataDir, env: { VIGIL_CONTRACT_ROOTS: roots }, logLevel: 'silent' }), logger: pino({ level: 'silent' }) });
  await kernel.boot();
  const sections: string[] = [];
  const call = async (title: string, method: 'GET' | 'POST', url: string, body?: unknown, raw = false) => {
    const r = await kernel.api.inject({ method, url, ...(body !== undefined ? { payload: body as Record<string, unknown> } : {}) });
    const ct = String(r.headers['content-type'] ?? '');
    const shown = ct.includes('json') && !raw ? JSON.stringify(shorten(r.json()), null, 2) : r.body.length > 1500 ? r.body.slice(0, 1500) + '\n… (shortened)' : r.body;
    const req = body !== undefined ? `\n\n\`\`\`json\n${JSON.stringify(shorten(body), null, 2)}\n\`\`\`` : '';
    sections.push(`### ${title}\n\n\`${method} ${url}\`${req}\n\n→ \`${r.statusCode}\` \`${ct}\`\n\n\`\`\`${ct.includes('json') ? 'json' : ct.includes('html') ? 'html' : 'markdown'}\n${shown}\n\`\`\``);
    return r;
  };
  await call('Root', 'GET', '/');
  await call('Health', 'GET', '/api/v1/health/');
  await call('Tools', 'GET', '/api/v1/tools/');
  await call('One tool', 'GET', '/api/v1/tools/solhint/');
  await call('Unknown tool', 'GET', '/api/v1/tools/nope/');
  await call('Layers', 'GET', '/api/v1/layers/');
  const quick = await call('Quick analysis', 'POST', '/api/v1/analyze/quick/', { contract_code: CONTRACT, timeout: 120 });
  await call('Quick analysis as SARIF', 'POST', '/api/v1/analyze/quick/', { contract_path: 'Bank.sol', format: 'sarif', timeout: 120 });
  const full = await call('Full analysis (stored as a report)', 'POST', '/api/v1/analyze/full/', { contract_path: 'Bank.sol', timeout: 300 });
  await call('One layer', 'POST', '/api/v1/analyze/layer/1/', { contract_path: 'Bank.sol', timeout: 120 });
  await call('Unknown layer', 'POST', '/api/v1/analyze/layer/12/', { contract_path: 'Bank.sol' });
  await call('One tool', 'POST', '/api/v1/analyze/tool/solhint/', { contract_path: 'Bank.sol', timeout: 60 });
  await call('Invalid request: both contract fields', 'POST', '/api/v1/analyze/quick/', { contract_code: CONTRACT, contract_path: 'Bank.sol' });
  await call('Path outside the allowed roots', 'POST', '/api/v1/analyze/quick/', { contract_path: '../etc/passwd' });
  const findings = (quick.json().findings as Array<Record<string, unknown>>);
  const rem = await call('Remediate', 'POST', '/api/v1/remediate/', { contract_code: CONTRACT, findings, timeout: 120 }, false);
  const patched = rem.json().patched_code as string;
  sections.push(`Full patched code of this run:\n\n\`\`\`solidity\n${patched}\`\`\`\n\nDiff:\n\n\`\`\`diff\n${rem.json().diff}\`\`\``);
  await call('Validate a remediation', 'POST', '/api/v1/validate-remediation/', { original_code: CONTRACT, patched_code: patched, timeout: 120 });
  await call('Validate a patch that does not compile', 'POST', '/api/v1/validate-remediation/', { original_code: CONTRACT, patched_code: CONTRACT.replace('require(tx.origin == owner);', 'require(msg.sender == owner)'), timeout: 120 });
  await call('Store a report', 'POST', '/api/v1/reports/', { project: 'bank', reviewer: 'alice', findings_count: 3 });
  await call('Empty report rejected', 'POST', '/api/v1/reports/', {});
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
