// Permission sets: named lists of capabilities. The agent runs with `agent.permission_set`
// (a name or an explicit list) unless the caller's tenant carries its own permissions.
// The default set is read-only plus crypto, analysis and web fetch: writing files and running
// programs are things an operator turns on deliberately, never by default.
import { CAPABILITIES, type Capability, type Skill } from '../../../kernel/index.ts';
import type { TenantContext } from '../contracts.ts';

export const ALL_CAPABILITIES: Capability[] = [...CAPABILITIES];

export const BUILTIN_PERMISSION_SETS: Record<string, Capability[]> = {
  default: ['file_read', 'git_read', 'crypto', 'contract_analysis', 'web_fetch'],
  readonly: ['file_read', 'git_read', 'crypto', 'contract_analysis'],
  developer: ['file_read', 'file_write', 'git_read', 'shell_exec', 'crypto', 'contract_analysis', 'web_fetch'],
  none: [],
};

export class PermissionConfigError extends Error {}

function checkCaps(list: unknown, where: string): Capability[] {
  if (!Array.isArray(list)) throw new PermissionConfigError(`${where} must be a list of capabilities`);
  const bad = list.filter((c) => !ALL_CAPABILITIES.includes(c as Capability));
  if (bad.length)
    throw new PermissionConfigError(`${where}: unknown capabilities ${bad.join(', ')} (known: ${ALL_CAPABILITIES.join(', ')})`);
  return [...new Set(list as Capability[])];
}

export interface PermissionPolicy {
  /** Name of the default set (or "custom" when configured as a list). */
  defaultName: string;
  defaultSet: Capability[];
  sets: Record<string, Capability[]>;
  /** Capabilities in force for a tenant. */
  forTenant(t: TenantContext | null | undefined): { name: string; capabilities: Capability[] };
}

/** Reads `permissions` and `agent.permission_set` from the service config; throws on bad config. */
export function resolvePermissionPolicy(file: Record<string, any>): PermissionPolicy {
  const sets: Record<string, Capability[]> = { ...BUILTIN_PERMISSION_SETS };
  const cfg = file.permissions ?? {};
  if (typeof cfg !== 'object' || Array.isArray(cfg))
    throw new PermissionConfigError('permissions must be an object of named capability lists');
  for (const [name, list] of Object.entries(cfg)) sets[name] = checkCaps(list, `permissions.${name}`);
  const chosen = file.agent?.permission_set ?? 'default';
  let defaultName: string;
  let defaultSet: Capability[];
  if (Array.isArray(chosen)) {
    defaultName = 'custom';
    defaultSet = checkCaps(chosen, 'agent.permission_set');
  } else {
    if (typeof chosen !== 'string' || !sets[chosen]) {
      throw new PermissionConfigError(
        `agent.permission_set "${String(chosen)}" is not a known set (known: ${Object.keys(sets).join(', ')})`,
      );
    }
    defaultName = chosen;
    defaultSet = sets[chosen]!;
  }
  return {
    defaultName,
    defaultSet,
    sets,
    forTenant(t) {
      if (t?.permissions) return { name: `tenant:${t.name ?? 'local'}`, capabilities: t.permissions };
      return { name: defaultName, capabilities: defaultSet };
    },
  };
}

/** Capabilities the skill needs that the set does not grant (empty = allowed). */
export function missingCapabilities(skill: Pick<Skill, 'capabilities'>, granted: readonly Capability[]): Capability[] {
  return skill.capabilities.filter((c) => !granted.includes(c));
}
