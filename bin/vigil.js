#!/usr/bin/env node
// Launcher: runs the CLI from the compiled JavaScript mirror of the sources (kernel/compiled.js:
// refreshed here when a source changed), or through the TypeScript loader (tsx) when the mirror
// cannot be used. No separate build step either way.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { prepareMirror, ensureTsx, quietAsmJsWarnings } from '../kernel/compiled.js';

quietAsmJsWarnings();
const mirror = await prepareMirror();
let cli;
if (mirror) cli = await import(pathToFileURL(path.join(mirror, 'kernel', 'cli.js')).href);
else {
  await ensureTsx();
  cli = await import('../kernel/cli.ts');
}
const code = await cli.main(process.argv);
if (typeof code === 'number') process.exitCode = code;
