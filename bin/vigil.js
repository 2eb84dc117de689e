#!/usr/bin/env node
// Launcher: registers the TypeScript loader (tsx), then runs the CLI. No build step.
import { register } from 'tsx/esm/api';

register();
// solc builds older than 0.5 are asm.js that V8 declines to validate (it runs them as plain JS):
// a harmless "Invalid asm.js" warning per load that would otherwise land on the user's stderr.
process.removeAllListeners('warning');
process.on('warning', (w) => {
  if (/Invalid asm\.js/.test(w.message)) return;
  process.stderr.write(`(node:${process.pid}) ${w.name}: ${w.message}\n`);
});
const { main } = await import('../kernel/cli.ts');
const code = await main(process.argv);
if (typeof code === 'number') process.exitCode = code;
