// shadowed-state: before Solidity 0.6 a derived contract may declare a state variable with the
// name of one in a base; both exist, base functions read and write the base's copy and derived
// functions the new one, so `owner` set in the constructor is not the `owner` the base's
// onlyOwner checks (SWC-119). From 0.6 the compiler rejects it.
// Avoids false positives: bases not defined in this file (unknown), constants (a redeclared
// constant holds no state), private base variables are still reported (the slot is still split).
import semver from 'semver';
import type { Visitor } from '../../kernel/index.ts';
import { detectorPlugin, type StaticDetector, asNodes, line, endLine } from '../../lib/analysis/static/index.ts';

export const shadowedStateDetector: StaticDetector = {
  meta: {
    id: 'shadowed-state',
    title: "State variable shadows a base contract's variable",
    severity: 'HIGH',
    confidence: 0.75,
    category: 'other',
    swc: 'SWC-119',
    cwe: 'CWE-710',
    description: 'A derived contract redeclares a state variable of its base; the two names refer to two different storage slots.',
    recommendation: 'Remove the redeclaration and assign the inherited variable (in the constructor), or rename one of them.',
    exploit_scenario:
      "The derived constructor sets its own `owner`; the base's onlyOwner modifier reads the base's `owner`, still address(0), so the guard and the intended owner never match (or a function writing the base copy hands the role to anyone).",
    messages: { shadow: '`{{name}}` redeclares `{{base}}.{{name}}`: two slots with one name.' },
  },
  create(context) {
    const { facts } = context;
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- needed: without it create()'s inferred return type no longer fits Visitor (tsc)
    if (facts.version.min && semver.gte(facts.version.min, '0.6.0')) return {} as Visitor;
    return {
      'SourceUnit:exit'() {
        for (const c of facts.contracts) {
          for (const sub of asNodes(c.node.subNodes)) {
            if (sub.type !== 'StateVariableDeclaration') continue;
            for (const v of sub.variables ?? []) {
              if (!v?.name || v.isDeclaredConst) continue;
              const base = c.linearization
                .slice(1)
                .map((b) => facts.contractByName.get(b))
                .find(
                  (b) =>
                    b &&
                    asNodes(b.node.subNodes).some(
                      (s) =>
                        s.type === 'StateVariableDeclaration' && (s.variables ?? []).some((x) => x?.name === v.name && !x.isDeclaredConst),
                    ),
                );
              if (base)
                context.report({
                  node: v,
                  loc: { line: line(v), end_line: endLine(v) },
                  messageId: 'shadow',
                  data: { name: v.name, base: base.name },
                });
            }
          }
        }
      },
    };
  },
};

export const detectors = [shadowedStateDetector];
export default detectorPlugin(detectors);
