// reused-constructor: before Solidity 0.5.0 a base contract's constructor could be given arguments
// in more than one place of a hierarchy — in an inheritance specifier (`contract B is A(1)`) and in
// a constructor's modifier list (`constructor() A(2)`), possibly of different contracts the most
// derived one inherits. The base constructor still runs once, with one of the argument sets, and
// the compiler (0.4.22+) only warns: the other set is silently ignored, so an owner, a fee or a
// supply is not what one of the two authors wrote. 0.5.0 made it an error.
// Reported on the contract where the two first meet (once per base, not again in its heirs), only
// for pragmas admitting a compiler before 0.5.0.
// Avoids false positives: arguments given once, base names without arguments (`is A`), bases from
// other files, and 0.5+ pragmas.
import { admits, detectorPlugin, line, perContract, type StaticDetector } from '../../lib/analysis/static/index.ts';

export const reusedConstructorDetector: StaticDetector = {
  meta: {
    id: 'reused-constructor',
    title: 'Base constructor given arguments twice (< 0.5)',
    severity: 'MEDIUM',
    confidence: 0.8,
    category: 'other',
    swc: null,
    cwe: 'CWE-665',
    description:
      'Two places in this contract’s hierarchy pass arguments to the same base constructor; it runs once, with one set, and the other is silently ignored (an error from 0.5.0).',
    recommendation: 'Pass the base constructor’s arguments in one place only (and compile with 0.5 or later, which rejects this).',
    exploit_scenario:
      '`Token is Ownable(treasury)` and a derived `Sale` whose constructor says `Ownable(msg.sender)`: the deployer expects to own the sale, but the treasury multisig does (or the reverse).',
    messages: { twice: '`{{base}}`’s constructor gets arguments in {{places}}: only one set is used.' },
  },
  create: perContract((c, context) => {
    const { facts } = context;
    if (c.kind !== 'contract' || admits(facts.version, '<0.5.0') === 'none') return;
    // Every place in the hierarchy that passes arguments to a base, with the contract holding it.
    const places: Array<{ base: string; holder: string; where: string }> = [];
    for (const name of c.linearization) {
      const d = facts.contractByName.get(name);
      if (!d) continue;
      for (const b of d.node.baseContracts ?? []) {
        const base = b.baseName?.namePath;
        if ((b.arguments ?? []).length && base) places.push({ base, holder: name, where: `\`${name} is ${base}(…)\`` });
      }
      for (const f of d.ownFunctions)
        if (f.kind === 'constructor')
          for (const m of f.modifiers)
            if ((m.node.arguments ?? []).length && c.linearization.includes(m.name) && m.name !== name)
              places.push({ base: m.name, holder: name, where: `\`${name}\`’s constructor` });
    }
    const within = (x: string, base: string) => {
      const lin = facts.contractByName.get(x)?.linearization ?? [x];
      return places.filter((p) => p.base === base && lin.includes(p.holder));
    };
    for (const base of new Set(places.map((p) => p.base))) {
      const list = within(c.name, base);
      if (list.length < 2) continue;
      // Reported where the duplication first appears, not again in every heir.
      if (c.linearization.slice(1).some((x) => within(x, base).length >= 2)) continue;
      context.report({
        node: c.node,
        loc: { line: line(c.node), end_line: line(c.node) },
        messageId: 'twice',
        data: { base, places: list.map((p) => p.where).join(' and ') },
      });
    }
  }),
};

export const detectors = [reusedConstructorDetector];
export default detectorPlugin(detectors);
