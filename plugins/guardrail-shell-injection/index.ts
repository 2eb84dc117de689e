// Shell-injection guardrail plugin: registers the `shell_injection` layer (shell.ts)
// on tool arguments. Metacharacters count only when a command follows them, so prose with ";"
// or "&" passes; destructive commands (rm -rf /, mkfs, dd of=/dev/..., curl|sh, reverse shells,
// fork bombs) score highest. For a skill whose argument is itself a command line, raise
// `threshold` to 0.8 to keep only the dangerous-command rules.
import { definePlugin } from '../../kernel/index.ts';
import { createShellInjectionGuardrail } from './shell.ts';

export const shellInjectionGuardrailPlugin = definePlugin({
  setup(ctx) {
    // Plugin config (manifest defaults < plugins.guardrail-shell-injection in the service config) sets mode and settings;
    // the chain then applies guardrails.<layer> from the service config on top.
    ctx.registerGuardrail(createShellInjectionGuardrail(ctx.config));
  },
});

export default shellInjectionGuardrailPlugin;
