#!/usr/bin/env node
// Launcher: registers the TypeScript loader (tsx), then runs the CLI. No build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../kernel/cli.ts');
const code = await main(process.argv);
if (typeof code === 'number') process.exitCode = code;
