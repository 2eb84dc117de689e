// Shared by the cli-ux tests: captured stdout/stderr for runAnalyzeCommand, and the official
// SARIF 2.1.0 schema (test/fixtures/sarif) compiled once.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const Ajv = require('ajv') as typeof import('ajv').default;
const addFormats = require('ajv-formats') as typeof import('ajv-formats').default;
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
export const validateSarif = ajv.compile<any>(
  JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../fixtures/sarif/sarif-schema-2.1.0.json'), 'utf8')),
);

export function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { stdout: { write: (s: string) => out.push(s) }, stderr: { write: (s: string) => err.push(s) } },
    out: () => out.join(''),
    err: () => err.join(''),
  };
}
