// Commands contributed by the gateway side (tenants, mcp) register here so kernel/cli.ts stays small.
import type { Command } from 'commander';

export function registerCommands(_program: Command, _io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream }, _setExit: (code: number) => void): void {}
