// The package version, reported as the MCP server and client version.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function read(): string {
  try {
    return (
      JSON.parse(fs.readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'package.json'), 'utf8')).version ??
      '0.0.0'
    );
  } catch {
    return '0.0.0';
  }
}

export const VERSION = read();
