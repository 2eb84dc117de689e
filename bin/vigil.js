#!/usr/bin/env -S node --no-regexp-tier-up
// --no-regexp-tier-up: regular expressions compiled to native code on their first run, never left
// in V8's regexp interpreter. In a process that runs the guardrail chain in every direction, the
// chain otherwise slowed by 1.6x (output) to 3.5x (tool arguments) once the toxicity rules grew
// (docs/BENCHMARKS.md, "Session 10: toxicity"). A command-line flag: set at run time from code
// (v8.setFlagsFromString) it crashed the process.
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
