// Analysis API starvation benchmark (issue 14 item 7): `node --import tsx bench/api-flood.ts`.
// Boots vigil on ephemeral ports (default limits, keyless), sends N keyless 40 KB requests of
// `return ((((…a…))))` with 20,000 parentheses and timeout 60 at once, then — after --delay
// seconds (4 by default, as in the report) — a trivial quick analysis and a chat whose demo model
// calls contract_audit. Prints how long each took and its status: the flood must be refused at
// once, and both later calls must succeed in their normal time.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { Kernel } from '../kernel/kernel.ts';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const N = arg('flood', 3);
const DELAY_S = arg('delay', 4);
const TRIVIAL = 'pragma solidity 0.8.30;\ncontract T { function f() external pure returns (uint) { return 1; } }\n';
const FLOOD =
  `pragma solidity 0.8.30;\ncontract P {\n  function f(uint a) external pure returns (uint) {\n    return ${'('.repeat(20_000)}a${')'.repeat(20_000)};\n  }\n}\n`.padEnd(
    40 * 1024,
    ' ',
  );

async function timed(label: string, url: string, body: unknown) {
  const t = performance.now();
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const j = await r.json();
  const ms = Math.round(performance.now() - t);
  const what = j.code ?? j.tool_calls?.map((c: any) => `${c.name}:${c.status}`).join(',') ?? j.results?.map((x: any) => x.status).join(',');
  console.log(`${label.padEnd(28)} ${String(r.status).padEnd(4)} ${String(ms).padStart(6)} ms  ${what}`);
  return r.status;
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-bench-flood-'));
  const kernel = new Kernel({
    settingsInput: {
      dataDir,
      bind: '127.0.0.1:0',
      apiBind: '127.0.0.1:0',
      env: { VIGIL_CONTRACT_ROOTS: dataDir },
      overrides: { llm: { provider: 'demo' }, workspace: dataDir, plugins: { 'analysis-engine': { self_test_on_start: false } } },
    },
    logger: pino({ level: 'silent' }),
  });
  await kernel.listen();
  const api = `http://127.0.0.1:${(kernel.api.server.address() as AddressInfo).port}`;
  const gw = `http://127.0.0.1:${(kernel.gateway.server.address() as AddressInfo).port}`;
  // Warm the workers (compiler load) so the numbers below are the steady state; the start-up
  // self-tests are off for the same reason (they would run during the measurement).
  await timed('warm-up quick analysis', `${api}/api/v1/analyze/quick/`, { contract_code: TRIVIAL, timeout: 120 });
  const flood = Array.from({ length: N }, (_, i) =>
    timed(`flood ${i + 1} (20,000 parens)`, `${api}/api/v1/analyze/quick/`, { contract_code: FLOOD, timeout: 60 }),
  );
  await new Promise((r) => setTimeout(r, DELAY_S * 1000));
  const ok = [
    await timed(`trivial analysis (+${DELAY_S} s)`, `${api}/api/v1/analyze/quick/`, { contract_code: TRIVIAL, timeout: 60 }),
    await timed('chat contract_audit', `${gw}/api/v1/agent/chat`, {
      message: `/skill contract_audit ${JSON.stringify({ code: TRIVIAL })}`,
    }),
  ];
  await Promise.all(flood);
  await kernel.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exitCode = ok.every((s) => s === 200) ? 0 : 1;
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
