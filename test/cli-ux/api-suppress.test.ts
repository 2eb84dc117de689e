// Suppression comments in submitted source apply to the REST analyze answers too: the finding
// leaves `findings` and `summary`, is listed under `suppressed`, and SARIF marks it inSource.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { boot, VULNERABLE, type Booted } from '../api/helpers.ts';
import { validateSarif } from './helpers.ts';
import type { Finding } from '../../schemas/finding.ts';

let b: Booted;
before(async () => {
  b = await boot({ all: true });
});
after(async () => {
  await b.stop();
});

const post = (url: string, payload: Record<string, unknown>) => b.kernel.api.inject({ method: 'POST', url, payload });
const ORIGIN_CHECK = '        require(tx.origin == owner);';
const withComment = (comment: string) => VULNERABLE.replace(ORIGIN_CHECK, `        ${comment}\n${ORIGIN_CHECK}`);

test('POST /analyze/quick/: findings silenced by a vigil or Slither comment move to suppressed', async () => {
  const plain = (await post('/api/v1/analyze/quick/', { contract_code: VULNERABLE, timeout: 120 })).json();
  const origin = plain.findings.find((f: Finding) => f.detector === 'tx-origin');
  assert.ok(origin, `the fixture has a tx.origin finding: ${plain.findings.map((f: Finding) => f.detector)}`);
  assert.equal(plain.total_suppressed, 0);

  for (const comment of [
    '// vigil-disable-next-line tx-origin',
    '// slither-disable-next-line tx-origin',
    '// solhint-disable-next-line avoid-tx-origin',
  ]) {
    const r = await post('/api/v1/analyze/quick/', { contract_code: withComment(comment), timeout: 120 });
    assert.equal(r.statusCode, 200);
    const j = r.json();
    assert.equal(
      j.findings.some((f: Finding) => f.detector === 'tx-origin'),
      false,
      comment,
    );
    assert.deepEqual(
      j.suppressed.map((f: Finding) => f.detector),
      ['tx-origin'],
      comment,
    );
    assert.equal(j.total_suppressed, 1);
    assert.equal(j.total_findings, plain.total_findings - 1, comment);
    assert.equal(j.summary.HIGH, plain.summary.HIGH - 1, comment);
    // the other findings of the contract are untouched
    assert.ok(
      j.findings.some((f: Finding) => f.category === 'reentrancy'),
      comment,
    );
  }
});

test('SARIF from the API keeps the suppressed result with suppressions[kind=inSource] and validates', async () => {
  const r = await post('/api/v1/analyze/quick/', {
    contract_code: withComment('// vigil-disable-next-line tx-origin -- EOA-only wallet by design'),
    timeout: 120,
    format: 'sarif',
  });
  assert.equal(r.statusCode, 200);
  const sarif = r.json();
  assert.ok(validateSarif(sarif), JSON.stringify(validateSarif.errors?.slice(0, 3)));
  const results = sarif.runs[0].results;
  const suppressed = results.filter((x: any) => x.suppressions);
  assert.equal(suppressed.length, 1);
  assert.equal(suppressed[0].ruleId, 'tx-origin');
  assert.deepEqual(suppressed[0].suppressions[0].kind, 'inSource');
  assert.equal(suppressed[0].suppressions[0].justification, 'EOA-only wallet by design');
  assert.ok(
    results.some((x: any) => !x.suppressions),
    'the unsuppressed findings are there too',
  );
});

test('POST /analyze/tool/{name}/ lists the suppressed findings too', async () => {
  const r = await post('/api/v1/analyze/tool/vigil-static/', {
    contract_code: withComment('// vigil-disable-next-line access_control'),
    timeout: 120,
  });
  assert.equal(r.statusCode, 200);
  const j = r.json();
  assert.equal(
    j.findings.some((f: Finding) => f.detector === 'tx-origin'),
    false,
  );
  assert.deepEqual(
    j.suppressed.map((f: Finding) => f.detector),
    ['tx-origin'],
  );
});

test("MCP's analyze_contract and the agent's contract_audit skill apply the same suppressions", async () => {
  const { analysisOperations } = await import('../../plugins/mcp-server/analysis-ops.ts');
  const ctx = { sessionId: 's', tenant: null, signal: new AbortController().signal, workspace: b.roots };
  const op = analysisOperations(b.kernel.services).find((s) => s.name === 'analyze_contract')!;
  const r = await op.call({ contract_code: withComment('// vigil-disable-next-line tx-origin'), mode: 'quick', timeout: 120 }, ctx);
  assert.ok(r.ok, r.error);
  const body = r.output as { findings: Finding[]; suppressed: Finding[] };
  assert.equal(
    body.findings.some((f) => f.detector === 'tx-origin'),
    false,
  );
  assert.deepEqual(
    body.suppressed.map((f) => f.detector),
    ['tx-origin'],
  );

  const skill = b.kernel.services.registry.skill('contract_audit')!;
  const plain = JSON.stringify((await skill.call({ code: VULNERABLE }, ctx)).output);
  const quiet = JSON.stringify((await skill.call({ code: withComment('// vigil-disable-next-line tx-origin') }, ctx)).output);
  assert.match(plain, /tx\.origin/);
  assert.doesNotMatch(quiet, /tx\.origin/);
});
