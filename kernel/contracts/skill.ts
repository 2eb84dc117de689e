// Contract for agent skills (plugin kind "skill"). Skills are called by name with a
// JSON-schema-checked input; each declares the capabilities it needs and the agent's
// permission set decides whether it may run.
export type Capability =
  'file_read' | 'file_write' | 'shell_exec' | 'git_read' | 'web_fetch' | 'network' | 'crypto' | 'contract_analysis' | 'llm_call';

export interface SkillCallContext {
  sessionId: string;
  tenant: string | null;
  signal: AbortSignal;
  /** Workspace root the agent works in (files, shell, git skills stay inside it). */
  workspace: string;
}

export interface SkillResult {
  ok: boolean;
  /** JSON-serialisable output shown to the model. */
  output: unknown;
  error?: string;
}

export interface Skill {
  name: string;
  description: string;
  /** JSON schema of the input object. */
  inputSchema: Record<string, unknown>;
  capabilities: Capability[];
  plugin?: string;
  runtime?: 'ts' | 'wasm';
  call(input: Record<string, unknown>, ctx: SkillCallContext): Promise<SkillResult>;
}
